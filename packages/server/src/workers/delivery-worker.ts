import { randomBase62, signCallback, signingSecrets, signStandardWebhook, type Clock, type Delivery, type Store } from '@svc/core';
import type { Logger } from 'pino';
import { postCallback, DELIVERY_TIMEOUT_MS, type ConnectOptions, type PostResult } from './post-callback.js';

/** Spec 6 / DESIGN.md 5: a failed attempt is retried 3 times, 0 s, 1 s and 5 s after the previous one. */
export const RETRY_DELAYS_MS = [0, 1_000, 5_000] as const;
export const MAX_DELIVERY_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

export interface DeliveryWorkerOptions {
  store: Store;
  clock: Clock;
  logger: Logger;
  allowPrivate: boolean;
  /** Test only: resolution and dialling overrides (see ConnectOptions). */
  connect?: Omit<ConnectOptions, 'allowPrivate'>;
  owner: string;
  /** Deliveries sent at once by this process. */
  concurrency: number;
  timeoutMs?: number;
  /** Overridable for tests that cannot wait seconds between attempts. */
  retryDelaysMs?: readonly number[];
  /** Told when a retry was scheduled, so the loop wakes on time instead of at its next poll. */
  onRetryScheduled?: (at: Date) => void;
}

/** When the next attempt is due after a failed one, or null when the retries are used up. */
export function nextAttemptAfterFailure(attemptsSoFar: number, at: Date, delays: readonly number[] = RETRY_DELAYS_MS): Date | null {
  const delay = delays[attemptsSoFar - 1];
  return delay === undefined ? null : new Date(at.getTime() + delay);
}

/**
 * The secrets that sign a delivery now: a key's callback secret, or a webhook endpoint's secret(s) (two during a
 * rotation's grace period). A string instead when nothing can sign it any more: the key was revoked or lost its
 * callback secret, or the endpoint was deleted. That failure is permanent (no retries; replay after fixing it).
 */
async function signingSecretsOf(store: Store, delivery: Delivery, now: Date): Promise<string[] | string> {
  if (delivery.webhookId !== null) {
    const webhook = await store.getWebhook(delivery.webhookId);
    return webhook ? signingSecrets(webhook, now) : 'the webhook endpoint was deleted';
  }
  const key = delivery.keyId === null ? null : await store.getApiKey(delivery.keyId);
  if (!key || key.revokedAt !== null || !key.callbackSecret) return 'the API key was revoked or lost its callback secret';
  return [key.callbackSecret];
}

/** `webhook-id`, `webhook-timestamp` and `webhook-signature` (one `v1,…` per secret that can sign it, space-separated). */
async function standardWebhookHeaders(secrets: string[], message: { id: string; timestamp: number; rawBody: string }): Promise<Record<string, string>> {
  const signatures = (await Promise.all(secrets.map((secret) => signStandardWebhook(secret, message)))).filter((s): s is string => s !== null);
  if (signatures.length === 0) return {};
  return { 'webhook-id': message.id, 'webhook-timestamp': String(message.timestamp), 'webhook-signature': signatures.join(' ') };
}

/** Sends one claimed delivery and records the outcome. Each attempt gets a fresh timestamp and signature(s). */
export async function attemptDelivery(options: DeliveryWorkerOptions, delivery: Delivery): Promise<PostResult> {
  const { store, clock } = options;
  const secrets = await signingSecretsOf(store, delivery, clock.now());
  const permanent = typeof secrets === 'string';
  let result: PostResult;
  if (permanent) {
    result = { ok: false, status: null, error: secrets };
  } else {
    const timestamp = Math.floor(clock.now().getTime() / 1000);
    // Several signatures are comma-separated; receivers (@svc/callbacks) accept the delivery when one matches.
    const signatures = await Promise.all(secrets.map((secret) => signCallback(secret, timestamp, delivery.payload)));
    // Lifecycle webhooks also carry the Standard Webhooks headers, so Svix's and standard-webhooks' verifiers accept
    // them; callbacks keep to the spec's headers alone.
    const standard = delivery.webhookId === null ? {} : await standardWebhookHeaders(secrets, { id: delivery.id, timestamp, rawBody: delivery.payload });
    result = await postCallback(
      delivery.url,
      delivery.payload,
      {
        'content-type': 'application/json',
        'user-agent': delivery.webhookId === null ? 'svc-conversations-callbacks/1' : 'svc-conversations-webhooks/1',
        'x-svc-signature': signatures.join(','),
        'x-svc-timestamp': String(timestamp),
        'x-svc-event': delivery.event,
        'x-svc-delivery': delivery.id,
        ...standard,
      },
      { ...options.connect, allowPrivate: options.allowPrivate, timeoutMs: options.timeoutMs ?? DELIVERY_TIMEOUT_MS },
    );
  }
  const at = clock.now();
  const attempts = delivery.attempts + 1;
  const nextAttemptAt = result.ok || permanent ? null : nextAttemptAfterFailure(attempts, at, options.retryDelaysMs);
  await store.recordDeliveryAttempt(delivery.id, { at, ok: result.ok, status: result.status, error: result.error, nextAttemptAt });
  if (nextAttemptAt) options.onRetryScheduled?.(nextAttemptAt);
  const log = { deliveryId: delivery.id, event: delivery.event, attempt: attempts, status: result.status };
  if (result.ok) options.logger.info(log, 'callback delivered');
  else if (nextAttemptAt) options.logger.warn({ ...log, error: result.error }, 'callback attempt failed; will retry');
  else options.logger.error({ ...log, error: result.error }, 'callback delivery failed; replay it with `svc deliveries replay`');
  return result;
}

/** One round: claim what is due and send it. Resolves true when there was work. */
export async function deliverDue(options: DeliveryWorkerOptions): Promise<boolean> {
  const claimed = await options.store.claimDeliveries({
    owner: options.owner,
    now: options.clock.now(),
    // An attempt is bounded by the timeout; the lease outlives it so two workers never send one attempt twice.
    leaseMs: (options.timeoutMs ?? DELIVERY_TIMEOUT_MS) * 2,
    limit: options.concurrency,
  });
  // Sessions in parallel, each session's deliveries in order, so a chat bridge receives replies in the order given.
  const bySession = new Map<string, Delivery[]>();
  for (const delivery of claimed) {
    const key = `${delivery.widgetId}:${delivery.sessionId}`;
    bySession.set(key, [...(bySession.get(key) ?? []), delivery]);
  }
  await Promise.all(
    [...bySession.values()].map(async (deliveries) => {
      for (const delivery of deliveries) await attemptDelivery(options, delivery);
    }),
  );
  return claimed.length > 0;
}

export const workerId = (): string => `wrk_${randomBase62(12)}`;
