import type { StoreOps, TurnJob } from '@svc/core/store-kit';
import { json, toTurnJob, type TurnJobRow } from '../rows.js';
import type { Db } from './db.js';

type TurnJobOps = Pick<
  StoreOps,
  'insertTurnJob' | 'acceptTurnJob' | 'getTurnJob' | 'claimTurnJobs' | 'hasUnfinishedTurnJob' | 'claimSessionTurnJob' | 'extendTurnJobLease' | 'finishTurnJob'
>;

/**
 * The claim, in the `update … where id in (select … for update skip locked limit n)` shape: concurrent claimers
 * skip each other's rows instead of waiting or taking them twice, on PostgreSQL and PGlite alike.
 *
 * Claimable: queued, or running with an expired lease; and the earliest unfinished job of its session. "Earliest"
 * is insertion order (`seq`), which is arrival order within a session (jobs are inserted with the session row
 * locked).
 * A claimer that skips a session's head because another holds it still sees that head unfinished, so it cannot
 * take the session's next job either. The wrapping `select` restores oldest-first order, which `returning` lacks.
 */
const CLAIM_TURN_JOBS = /* sql */ `
  with claimed as (
    update turn_jobs
       set status = 'running', lease_owner = $1, lease_expires_at = $3, attempts = attempts + 1
     where id in (
       select job.id from turn_jobs job
        where (job.status = 'queued' or (job.status = 'running' and job.lease_expires_at <= $2))
          and not exists (
            select 1 from turn_jobs earlier
             where earlier.widget_id = job.widget_id and earlier.session_id = job.session_id
               and earlier.status in ('queued', 'running') and earlier.seq < job.seq
          )
        order by job.created_at, job.seq
        limit $4
        for update skip locked
     )
    returning *
  )
  select * from claimed order by created_at, seq`;

/** The same claim for one session's head only (run when the session's previous job finishes). */
const CLAIM_SESSION_TURN_JOB = /* sql */ `
  update turn_jobs
     set status = 'running', lease_owner = $3, lease_expires_at = $5, attempts = attempts + 1
   where id in (
     select job.id from turn_jobs job
      where job.widget_id = $1 and job.session_id = $2
        and (job.status = 'queued' or (job.status = 'running' and job.lease_expires_at <= $4))
        and not exists (
          select 1 from turn_jobs earlier
           where earlier.widget_id = job.widget_id and earlier.session_id = job.session_id
             and earlier.status in ('queued', 'running') and earlier.seq < job.seq
        )
      order by job.seq
      limit 1
      for update skip locked
   )
  returning *`;

export const JOB_COLUMNS = `id, account_id, key_id, widget_id, session_id, user_message_id, reply_message_id, kind, identity, timezone,
  status, attempts, lease_owner, lease_expires_at, created_at, finished_at, error, mode, content, answers`;

const placeholders = (from: number, to: number): string =>
  Array.from({ length: to - from + 1 }, (_, i) => {
    const n = from + i;
    // identity and answers are JSON.
    return n === 9 || n === 20 ? `$${n}::jsonb` : `$${n}`;
  }).join(', ');

export function jobParams(job: TurnJob): unknown[] {
  return [
    job.id,
    job.accountId,
    job.keyId,
    job.widgetId,
    job.sessionId,
    job.userMessageId,
    job.replyMessageId,
    job.kind,
    job.identity === null ? null : json(job.identity),
    job.timezone,
    job.status,
    job.attempts,
    job.leaseOwner,
    job.leaseExpiresAt,
    job.createdAt,
    job.finishedAt,
    job.error,
    job.mode,
    job.content,
    job.answers === null ? null : json(job.answers),
  ];
}

/**
 * An acceptance's writes as one statement: the job (only if its session exists, so a missing one writes nothing);
 * the visitor's message when the turn starts now; the session's activity.
 */
const ACCEPT_TURN_JOB = /* sql */ `
  with job as (
    insert into turn_jobs (${JOB_COLUMNS})
    select ${placeholders(1, 20)}
     where exists (select 1 from sessions where widget_id = $4 and id = $5)
    returning widget_id, session_id
  ),
  message as (
    insert into messages (id, widget_id, session_id, seq, role, content, products, actions, forms, session_ended, credits, usage, created_at)
    select $21::text, job.widget_id, job.session_id, $22::integer, $23::text, $24::text, $25::jsonb, $26::jsonb, $27::jsonb, $28::boolean,
           $29::jsonb, $30::jsonb, $31::timestamptz
      from job
     where $21::text is not null
    returning id
  ),
  session as (
    update sessions s
       set last_activity_at = $32, expires_at = $33, message_count = $34, pending_form_id = $35::text
      from job
     where s.widget_id = job.widget_id and s.id = job.session_id
    returning s.id
  )
  select (select count(*) from session)::int as sessions, (select count(*) from message)::int as messages`;

export function turnJobOps(db: Db): TurnJobOps {
  return {
    async insertTurnJob(job) {
      await db().query(`insert into turn_jobs (${JOB_COLUMNS}) values (${placeholders(1, 20)})`, jobParams(job));
    },
    async acceptTurnJob({ job, userMessage, session }) {
      const message = userMessage;
      const [row] = await db().query<{ sessions: number }>(ACCEPT_TURN_JOB, [
        ...jobParams(job),
        message?.id ?? null,
        message?.seq ?? null,
        message?.role ?? null,
        message?.content ?? null,
        message ? json(message.products) : null,
        message ? json(message.actions) : null,
        message ? json(message.forms) : null,
        message?.sessionEnded ?? null,
        message?.credits ? json(message.credits) : null,
        message?.usage ? json(message.usage) : null,
        message?.createdAt ?? null,
        session.lastActivityAt,
        session.expiresAt,
        session.messageCount,
        session.pendingFormId,
      ]);
      if (row?.sessions !== 1) throw new Error(`Session ${job.sessionId} of widget ${job.widgetId} does not exist`);
    },
    async getTurnJob(id) {
      const [row] = await db().query<TurnJobRow>('select * from turn_jobs where id = $1', [id]);
      return row ? toTurnJob(row) : null;
    },
    async claimTurnJobs({ owner, now, leaseMs, limit }) {
      const rows = await db().query<TurnJobRow>(CLAIM_TURN_JOBS, [owner, now, new Date(now.getTime() + leaseMs), Math.max(0, limit)]);
      return rows.map(toTurnJob);
    },
    async hasUnfinishedTurnJob(widgetId, sessionId) {
      const rows = await db().query(
        `select 1 from turn_jobs where widget_id = $1 and session_id = $2 and status in ('queued', 'running') limit 1`,
        [widgetId, sessionId],
      );
      return rows.length > 0;
    },
    async claimSessionTurnJob(widgetId, sessionId, { owner, now, leaseMs }) {
      const [row] = await db().query<TurnJobRow>(CLAIM_SESSION_TURN_JOB, [widgetId, sessionId, owner, now, new Date(now.getTime() + leaseMs)]);
      return row ? toTurnJob(row) : null;
    },
    async extendTurnJobLease(id, owner, until) {
      const rows = await db().query(
        `update turn_jobs set lease_expires_at = $3 where id = $1 and lease_owner = $2 and status = 'running' returning id`,
        [id, owner, until],
      );
      return rows.length > 0;
    },
    async finishTurnJob(id, { status, error, at, owner }) {
      // Identity claims are for the turn only: they must not outlive the job.
      const rows = await db().query(
        `update turn_jobs
            set status = $2, error = $3, finished_at = $4, lease_owner = null, lease_expires_at = null, identity = null
          where id = $1 and ($5::text is null or (status = 'running' and lease_owner = $5))
          returning id`,
        [id, status, error, at, owner ?? null],
      );
      return rows.length > 0;
    },
  };
}
