import { SvcError } from '../errors.js';
import { LIFECYCLE_EVENTS, type LifecycleEventName, type WebhookEndpoint } from '../store/webhook-store.js';
import { requireAccount } from './accounts.js';
import { deliveryUrl, owned, type AccountScope, type AdminContext } from './context.js';
import { newSigningSecret } from './keys.js';

/**
 * Managing lifecycle webhook endpoints (DESIGN.md section 5): the operations behind `svc webhooks …`. The address
 * policy is the server's (it knows whether private callbacks are allowed), passed in as `urlProblem`.
 */

export interface CreatedWebhook {
  webhook: WebhookEndpoint;
  /** Shown once; the receiver verifies deliveries with it. */
  secret: string;
}

/** The longest grace period of a rotation: a week, enough to roll the new secret out everywhere. */
export const MAX_WEBHOOK_GRACE_SECONDS = 7 * 24 * 3600;
/** Default grace period of a rotation: both secrets sign for a day. */
export const DEFAULT_WEBHOOK_GRACE_SECONDS = 24 * 3600;


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

export async function createWebhook(
  ctx: AdminContext,
  input: { accountId: string; url: string; events?: readonly string[] | undefined },
): Promise<CreatedWebhook> {
  const account = await requireAccount(ctx, input.accountId);
  const url = deliveryUrl(ctx, input.url, { label: 'webhook URL', field: 'url' });
  const events = parseLifecycleEvents(input.events);
  const secret = newSigningSecret();
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

export async function listWebhooks(ctx: AdminContext, accountId: string): Promise<WebhookEndpoint[]> {
  await requireAccount(ctx, accountId);
  return ctx.store.listWebhooks(accountId);
}

async function loadOwnWebhook(ctx: AdminContext, scope: AccountScope, id: string): Promise<WebhookEndpoint> {
  return owned(scope, await ctx.store.getWebhook(id), { code: 'not_found', cliCode: 'not_found', message: `No webhook with id ${id}.`, field: 'id' });
}

/** Deliveries already queued for it still go out (they carry their URL); their signing fails once it is gone. */
export async function deleteWebhook(ctx: AdminContext, scope: AccountScope, id: string): Promise<void> {
  await loadOwnWebhook(ctx, scope, id);
  if (!(await ctx.store.deleteWebhook(id))) throw new SvcError('not_found', `No webhook with id ${id}.`, { field: 'id' });
}

/**
 * A new secret, returned once. For `graceSeconds` the replaced secret signs too (deliveries then carry both
 * signatures, comma-separated), so receivers can switch without losing a delivery. 0 retires it at once.
 */
export async function rotateWebhookSecret(
  ctx: AdminContext,
  scope: AccountScope,
  id: string,
  graceSeconds: number = DEFAULT_WEBHOOK_GRACE_SECONDS,
): Promise<CreatedWebhook> {
  if (!Number.isInteger(graceSeconds) || graceSeconds < 0 || graceSeconds > MAX_WEBHOOK_GRACE_SECONDS) {
    throw new SvcError('validation_failed', `grace seconds must be a whole number from 0 to ${MAX_WEBHOOK_GRACE_SECONDS}.`, {
      field: 'graceSeconds',
    });
  }
  const webhook = await loadOwnWebhook(ctx, scope, id);
  const secret = newSigningSecret();
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
