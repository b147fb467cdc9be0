import type { Delivery, StoreOps, TurnCommit, StoreSignal } from '@svc/core/store-kit';
import { json, toMessage, type MessageRow } from '../rows.js';
import type { Db } from './db.js';

/** How the commit tells others that a turn finished: `NOTIFY` in the same statement, and this process's listeners. */
export interface CommitEvents {
  /** Channel and payload of the cross-process notification; null where no other process can listen (PGlite). */
  notification(event: StoreSignal): { channel: string; payload: string } | null;
  /** Tells this process's subscribers, after the commit (at once, or when the enclosing transaction commits). */
  published(event: StoreSignal): void;
}

/**
 * The whole commit of a turn as one statement, so one round trip and atomic without a transaction. Every write is
 * gated on the first: the job is done only for its lease holder, and without that row nothing else happens. The
 * session's update locks its row and numbers the reply (`message_count + 1`), so replies of concurrent commits of one
 * session cannot share a position. `pg_notify` in a statement is delivered when it commits, as in a transaction.
 */
const COMMIT_TURN = /* sql */ `
  with job as (
    update turn_jobs
       set status = 'done', error = null, finished_at = $3, lease_owner = null, lease_expires_at = null, identity = null
     where id = $1 and status = 'running' and lease_owner = $2
    returning widget_id, session_id
  ),
  session as (
    -- resolveByAgent: an active session the agent concluded becomes resolved, without a pending form.
    update sessions s
       set message_count = s.message_count + 1,
           pending_form_id = case when s.status = 'active' and $5::timestamptz is not null then null else $4::text end,
           status = case when s.status = 'active' and $5::timestamptz is not null then 'resolved' else s.status end,
           resolved_at = case when s.status = 'active' and $5::timestamptz is not null then $5::timestamptz else s.resolved_at end
      from job
     where s.widget_id = job.widget_id and s.id = job.session_id
    returning s.widget_id, s.id, s.message_count
  ),
  reply as (
    insert into messages (id, widget_id, session_id, seq, role, content, products, actions, forms, session_ended, credits, usage, created_at,
                          sources, outcome, confidence)
    select $6, session.widget_id, session.id, session.message_count, $7, $8, $9::jsonb, $10::jsonb, $11::jsonb, $12, $13::jsonb, $14::jsonb, $15,
           $28::jsonb -> 'sources', $28::jsonb ->> 'outcome', ($28::jsonb ->> 'confidence')::double precision
      from session
    returning *
  ),
  debited as (
    update accounts set balance = balance - $16::double precision
     where id = $17::text and exists (select 1 from reply)
    returning id
  ),
  recorded as (
    insert into ledger_entries (id, account_id, operation, widget_id, session_id, message_id, credits, total, created_at)
    select $18::text, debited.id, $19::text, $20::text, $21::text, $22::text, $23::jsonb, $16::double precision, $24::timestamptz
      from debited
    returning id
  ),
  delivered as (
    insert into deliveries
    select * from jsonb_populate_recordset(null::deliveries, $25::jsonb)
     where exists (select 1 from reply)
    returning id
  ),
  notified as (
    select pg_notify($26::text, $27::text) from reply where $26::text is not null
  )
  select reply.*, (select count(*) from recorded) as recorded, (select count(*) from delivered) as delivered,
         (select count(*) from notified) as notified
    from reply`;

/** A delivery as a row of the `deliveries` table, for `jsonb_populate_recordset`. */
function deliveryRow(delivery: Delivery): Record<string, unknown> {
  return {
    id: delivery.id,
    account_id: delivery.accountId,
    key_id: delivery.keyId,
    webhook_id: delivery.webhookId,
    widget_id: delivery.widgetId,
    session_id: delivery.sessionId,
    message_id: delivery.messageId,
    event: delivery.event,
    payload: delivery.payload,
    url: delivery.url,
    status: delivery.status,
    attempts: delivery.attempts,
    next_attempt_at: delivery.nextAttemptAt.toISOString(),
    lease_owner: delivery.leaseOwner,
    lease_expires_at: delivery.leaseExpiresAt?.toISOString() ?? null,
    last_status: delivery.lastStatus,
    last_error: delivery.lastError,
    created_at: delivery.createdAt.toISOString(),
    delivered_at: delivery.deliveredAt?.toISOString() ?? null,
  };
}

export function turnCommitOps(db: Db, events: CommitEvents): Pick<StoreOps, 'commitTurn'> {
  return {
    async commitTurn(commit: TurnCommit) {
      const { reply, charge } = commit;
      const event: StoreSignal = { type: 'finished', jobId: commit.jobId, widgetId: reply.widgetId, sessionId: reply.sessionId };
      const notification = events.notification(event);
      const [row] = await db().query<MessageRow>(COMMIT_TURN, [
        commit.jobId,
        commit.owner,
        commit.at,
        commit.session.pendingFormId,
        commit.session.concludedAt,
        reply.id,
        reply.role,
        reply.content,
        json(reply.products),
        json(reply.actions),
        json(reply.forms),
        reply.sessionEnded,
        reply.credits === null ? null : json(reply.credits),
        reply.usage === null ? null : json(reply.usage),
        reply.createdAt,
        charge?.total ?? 0,
        charge?.accountId ?? null,
        charge?.id ?? null,
        charge?.operation ?? null,
        charge?.widgetId ?? null,
        charge?.sessionId ?? null,
        charge?.messageId ?? null,
        charge ? json(charge.credits) : null,
        charge?.createdAt ?? null,
        json(commit.deliveries.map(deliveryRow)),
        notification?.channel ?? null,
        notification?.payload ?? null,
        json({ sources: reply.sources ?? null, outcome: reply.outcome ?? null, confidence: reply.confidence ?? null }),
      ]);
      if (!row) return null;
      events.published(event);
      return toMessage(row);
    },
  };
}
