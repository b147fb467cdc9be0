import { SvcError } from '../errors.js';
import type { Delivery, DeliveryEventName, DeliveryStatus } from '../store/turn-job-store.js';
import { accountFilter, owned, type AccountScope, type AdminContext } from './context.js';
import { redactCredentials } from './redact-url.js';

/** What listings show of a delivery: never the payload (it holds conversation content). */
export interface DeliveryView {
  id: string;
  event: DeliveryEventName;
  status: DeliveryStatus;
  attempts: number;
  url: string | null;
  sessionId: string;
  messageId: string | null;
  webhookId: string | null;
  lastStatus: number | null;
  lastError: string | null;
  createdAt: string;
  deliveredAt: string | null;
  nextAttemptAt: string | null;
}

export function describeDelivery(d: Delivery): DeliveryView {
  return {
    id: d.id,
    event: d.event,
    status: d.status,
    attempts: d.attempts,
    url: redactCredentials(d.url),
    sessionId: d.sessionId,
    messageId: d.messageId,
    webhookId: d.webhookId,
    lastStatus: d.lastStatus,
    lastError: d.lastError,
    createdAt: d.createdAt.toISOString(),
    deliveredAt: d.deliveredAt?.toISOString() ?? null,
    nextAttemptAt: d.status === 'pending' ? d.nextAttemptAt.toISOString() : null,
  };
}

/** Newest first; default 50. */
export async function listDeliveries(
  ctx: AdminContext,
  scope: AccountScope,
  query: { status?: DeliveryStatus; limit?: number } = {},
): Promise<Delivery[]> {
  const limit = query.limit ?? 50;
  if (!Number.isInteger(limit) || limit < 0 || limit > 1000) {
    throw new SvcError('validation_failed', 'limit must be a whole number from 0 to 1000.', { field: 'limit' });
  }
  const accountId = accountFilter(scope);
  return ctx.store.listDeliveries({
    limit,
    ...(query.status === undefined ? {} : { status: query.status }),
    ...(accountId === undefined ? {} : { accountId }),
  });
}

/** Queued again with a fresh retry budget; a running worker sends it within a second. */
export async function replayDelivery(ctx: AdminContext, scope: AccountScope, id: string): Promise<Delivery> {
  const missing = { code: 'not_found', message: `No delivery with id ${id}.`, field: 'id' } as const;
  owned(scope, await ctx.store.getDelivery(id), missing);
  if (!(await ctx.store.requeueDelivery(id, ctx.clock.now()))) owned(scope, null, missing);
  return (await ctx.store.getDelivery(id))!;
}
