import type { Clock } from '../clock.js';
import type { Session } from '../domain.js';
import type { MessageFeedbackView } from '../schemas/message.js';
import type { Ids } from '../ids.js';
import { pendingDelivery, type Delivery } from '../store/turn-job-store.js';
import type { StoreOps } from '../store/store.js';
import type { LifecycleEventName } from '../store/webhook-store.js';
import { SESSION_EVENT } from '../event-stream.js';
import { sessionView } from './views.js';
import { SESSION_EVENT_RETENTION_MS } from '../store/session-event-store.js';

/** How a session came to be resolved (`session.resolved`'s `reason`). */
export type ResolvedReason = 'ended' | 'agent' | 'operator';

/** `message.feedback`'s `feedback`: the rated message and its feedback now (DESIGN.md section 12). */
export type FeedbackChange = { messageId: string } & MessageFeedbackView;

/** `session.handoff`'s `state`: the handoff's new state, or `released` back to the AI. */
export type HandoffChange = 'requested' | 'active' | 'released';

/** What is needed to write lifecycle events: the ports, and the store of the transaction changing the session. */
export interface LifecycleContext {
  clock: Clock;
  ids: Ids;
  onWork?: (kind: 'delivery' | 'embedding') => void;
}

/**
 * Writes `event` about `session` (as it is after the change) for every endpoint of the session's account that
 * subscribed to it: one delivery row each, in `tx`, the transaction that changed the session, so the event is sent
 * if and only if the change committed. All endpoints share one event id (`evt_…`); each delivery has its own id.
 * The change also enters the session's event log as `session.updated` (the event stream, the console's feed).
 * Returns the rows written; the caller wakes the delivery worker after its commit (see {@link wakeDeliveries}).
 */
export async function writeLifecycleEvent(
  ctx: LifecycleContext,
  tx: StoreOps,
  event: LifecycleEventName,
  session: Session,
  extra: { reason?: ResolvedReason; state?: HandoffChange; feedback?: FeedbackChange } = {},
): Promise<Delivery[]> {
  // An eval run's conversation (DESIGN.md section 12) wakes no webhook and no operator's inbox.
  if (session.purpose === 'evaluation') return [];
  // Feedback changes a message, not the session: the session's event log has nothing new to show.
  if (!extra.feedback) {
    await tx.appendSessionEvent({
      accountId: session.accountId,
      widgetId: session.widgetId,
      sessionId: session.id,
      type: SESSION_EVENT.sessionUpdated,
      data: sessionView(session),
      createdAt: ctx.clock.now(),
    });
  }
  const endpoints = (await tx.listWebhooks(session.accountId)).filter((endpoint) => endpoint.events.includes(event));
  if (endpoints.length === 0) return [];
  const now = ctx.clock.now();
  const eventId = ctx.ids.random('evt');
  const rows = endpoints.map((endpoint): Delivery => {
    const deliveryId = ctx.ids.random('dlv');
    const body = { event, id: eventId, deliveryId, createdAt: now.toISOString(), ...extra, data: sessionView(session) };
    return pendingDelivery(
      {
        id: deliveryId,
        accountId: session.accountId,
        keyId: null,
        webhookId: endpoint.id,
        widgetId: session.widgetId,
        sessionId: session.id,
        messageId: extra.feedback?.messageId ?? null,
        event,
        payload: JSON.stringify(body),
        url: endpoint.url,
      },
      now,
    );
  });
  for (const row of rows) await tx.insertDelivery(row);
  return rows;
}

/** After the commit: start the delivery worker of this process at once rather than at its next poll. */
export function wakeDeliveries(ctx: LifecycleContext, written: readonly Delivery[]): void {
  if (written.length > 0) ctx.onWork?.('delivery');
}

/**
 * The expiry sweep (DESIGN.md section 5, run by the workers): expires due sessions `batchSize` at a time, each batch
 * in one transaction with its `session.expired` rows, until none is due; then deletes session events past their
 * retention. Returns how many sessions it expired.
 */
export async function expireDueSessions(
  ctx: LifecycleContext & { store: Pick<StoreOps, 'deleteSessionEventsBefore'> & { transaction<T>(fn: (tx: StoreOps) => Promise<T>): Promise<T> } },
  batchSize = 200,
): Promise<number> {
  let total = 0;
  for (;;) {
    const now = ctx.clock.now();
    const { expired, written } = await ctx.store.transaction(async (tx) => {
      const sessions = await tx.expireDueSessions({ now, limit: batchSize });
      const rows: Delivery[] = [];
      for (const session of sessions) rows.push(...(await writeLifecycleEvent(ctx, tx, 'session.expired', session)));
      return { expired: sessions.length, written: rows };
    });
    wakeDeliveries(ctx, written);
    total += expired;
    if (expired < batchSize) break;
  }
  // The session event log keeps a week: streams resume within it (DESIGN.md section 6).
  const before = new Date(ctx.clock.now().getTime() - SESSION_EVENT_RETENTION_MS);
  while ((await ctx.store.deleteSessionEventsBefore(before, 1000)) === 1000);
  return total;
}

/**
 * A read that finds an active session past its expiry records it, with its `session.expired` event, exactly once
 * even when several reads race (only the one that changed the row writes the event). `store` is the caller's
 * transaction when it has one; the rows are returned for it to wake the delivery worker after its commit.
 */
export async function recordExpiry(
  ctx: LifecycleContext & { store: StoreOps & { transaction<T>(fn: (tx: StoreOps) => Promise<T>): Promise<T> } },
  store: StoreOps,
  session: Session,
): Promise<Delivery[]> {
  const write = async (tx: StoreOps): Promise<Delivery[]> => {
    const [expired] = await tx.expireDueSessions({
      now: ctx.clock.now(),
      limit: 1,
      session: { widgetId: session.widgetId, sessionId: session.id },
    });
    return expired ? writeLifecycleEvent(ctx, tx, 'session.expired', expired) : [];
  };
  if (store !== ctx.store) return write(store); // the caller wakes the worker once its transaction commits
  const written = await ctx.store.transaction(write);
  wakeDeliveries(ctx, written);
  return written;
}
