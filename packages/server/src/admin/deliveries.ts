import { SvcError, type Delivery, type Store } from '@svc/core';
import { redactCredentials } from '../workers/address-policy.js';

/** What `svc deliveries list` shows: never the payload (it holds conversation content). */
export function describeDelivery(d: Delivery): Record<string, unknown> {
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

export async function replayDelivery(store: Store, id: string): Promise<Delivery> {
  if (!(await store.requeueDelivery(id, new Date()))) {
    throw new SvcError('validation_failed', `No delivery with id ${id}.`, { field: 'id' });
  }
  return (await store.getDelivery(id))!;
}
