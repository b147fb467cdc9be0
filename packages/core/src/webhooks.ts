import type { Clock } from './clock.js';
import { SvcError } from './errors.js';
import { randomBase62, type Ids } from './ids.js';
import type { StoreOps } from './store/store.js';
import { LIFECYCLE_EVENTS, type LifecycleEventName, type WebhookEndpoint } from './store/webhook-store.js';

/**
 * Managing lifecycle webhook endpoints (DESIGN.md section 5): the operations behind `svc webhooks …`. The address
 * policy is the server's (it knows whether private callbacks are allowed), passed in as `urlProblem`.
 */
export interface WebhookAdminContext {
  store: StoreOps;
  clock: Clock;
  ids: Ids;
  /** Why a URL may not receive deliveries (scheme, credentials, a refused address), or null when it may. */
  urlProblem: (url: URL) => string | null;
}

export interface CreatedWebhook {
  webhook: WebhookEndpoint;
  /** Shown once; the receiver verifies deliveries with it. */
  secret: string;
}

/** The longest grace period of a rotation: a week, enough to roll the new secret out everywhere. */
export const MAX_WEBHOOK_GRACE_SECONDS = 7 * 24 * 3600;
/** Default grace period of a rotation: both secrets sign for a day. */
export const DEFAULT_WEBHOOK_GRACE_SECONDS = 24 * 3600;

/** 43 base62 characters carry 256 bits, as callback secrets do. */
const newSecret = (): string => `whsec_${randomBase62(43)}`;

export function parseLifecycleEvents(events: readonly string[] | undefined): LifecycleEventName[] {
  if (events === undefined) return [...LIFECYCLE_EVENTS];
  const names = events.map((event) => event.trim()).filter(Boolean);
  if (names.length === 0) {
    throw new SvcError('validation_failed', `events must name at least one of ${LIFECYCLE_EVENTS.join(', ')}.`, { field: 'events' });
  }
  for (const name of names) {
    if (!(LIFECYCLE_EVENTS as readonly string[]).includes(name)) {
      throw new SvcError('validation_failed', `Unknown event "${name}"; events are ${LIFECYCLE_EVENTS.join(', ')}.`, { field: 'events' });
    }
  }
  // Kept in the canonical order, without repeats, so listings read the same however they were typed.
  return LIFECYCLE_EVENTS.filter((event) => names.includes(event));
}

function parseWebhookUrl(ctx: WebhookAdminContext, url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new SvcError('validation_failed', `webhook URL "${url}" is not an absolute URL.`, { field: 'url' });
  }
  // Names are checked again when each delivery connects (DNS can change); addresses can be refused right away.
  const problem = ctx.urlProblem(parsed);
  if (problem) throw new SvcError('validation_failed', `${problem}.`, { field: 'url' });
  return parsed.toString();
}

export async function createWebhook(
  ctx: WebhookAdminContext,
  input: { accountId: string; url: string; events?: readonly string[] | undefined },
): Promise<CreatedWebhook> {
  const account = await ctx.store.getAccount(input.accountId);
  if (!account) throw new SvcError('validation_failed', `Account ${input.accountId} does not exist.`, { field: 'account' });
  const url = parseWebhookUrl(ctx, input.url);
  const events = parseLifecycleEvents(input.events);
  const secret = newSecret();
  const webhook: WebhookEndpoint = {
    id: ctx.ids.random('whk'),
    accountId: account.id,
    url,
    events,
    secret,
    previousSecret: null,
    previousSecretExpiresAt: null,
    createdAt: ctx.clock.now(),
  };
  await ctx.store.insertWebhook(webhook);
  return { webhook, secret };
}

export async function listWebhooks(ctx: Pick<WebhookAdminContext, 'store'>, accountId: string): Promise<WebhookEndpoint[]> {
  const account = await ctx.store.getAccount(accountId);
  if (!account) throw new SvcError('validation_failed', `Account ${accountId} does not exist.`, { field: 'account' });
  return ctx.store.listWebhooks(accountId);
}

/** Deliveries already queued for it still go out (they carry their URL); their signing fails once it is gone. */
export async function deleteWebhook(ctx: Pick<WebhookAdminContext, 'store'>, id: string): Promise<void> {
  if (!(await ctx.store.deleteWebhook(id))) throw new SvcError('not_found', `No webhook with id ${id}.`, { field: 'id' });
}

/**
 * A new secret, returned once. For `graceSeconds` the replaced secret signs too (deliveries then carry both
 * signatures, comma-separated), so receivers can switch without losing a delivery. 0 retires it at once.
 */
export async function rotateWebhookSecret(
  ctx: WebhookAdminContext,
  id: string,
  graceSeconds: number = DEFAULT_WEBHOOK_GRACE_SECONDS,
): Promise<CreatedWebhook> {
  if (!Number.isInteger(graceSeconds) || graceSeconds < 0 || graceSeconds > MAX_WEBHOOK_GRACE_SECONDS) {
    throw new SvcError('validation_failed', `grace seconds must be a whole number from 0 to ${MAX_WEBHOOK_GRACE_SECONDS}.`, {
      field: 'graceSeconds',
    });
  }
  const webhook = await ctx.store.getWebhook(id);
  if (!webhook) throw new SvcError('not_found', `No webhook with id ${id}.`, { field: 'id' });
  const secret = newSecret();
  const now = ctx.clock.now();
  const updated = await ctx.store.setWebhookSecrets(id, {
    secret,
    previousSecret: graceSeconds > 0 ? webhook.secret : null,
    previousSecretExpiresAt: graceSeconds > 0 ? new Date(now.getTime() + graceSeconds * 1000) : null,
  });
  if (!updated) throw new SvcError('not_found', `No webhook with id ${id}.`, { field: 'id' });
  return { webhook: updated, secret };
}

/** The secrets that sign a delivery of `webhook` at `now`: the current one, then the replaced one while in grace. */
export function signingSecrets(webhook: WebhookEndpoint, now: Date): string[] {
  const inGrace = webhook.previousSecret !== null && webhook.previousSecretExpiresAt !== null && webhook.previousSecretExpiresAt > now;
  return inGrace ? [webhook.secret, webhook.previousSecret!] : [webhook.secret];
}

/** What listings show of an endpoint: never its secrets, and the URL without credentials (it has none by rule). */
export function describeWebhook(webhook: WebhookEndpoint): { id: string; url: string; events: LifecycleEventName[]; createdAt: string; secretRotatedUntil: string | null } {
  return {
    id: webhook.id,
    url: webhook.url,
    events: webhook.events,
    createdAt: webhook.createdAt.toISOString(),
    secretRotatedUntil: webhook.previousSecretExpiresAt?.toISOString() ?? null,
  };
}
