import type { StoreOps } from '@svc/core';
import { json, toTurnJob, type TurnJobRow } from '../rows.js';
import type { Db } from './db.js';

type TurnJobOps = Pick<
  StoreOps,
  'insertTurnJob' | 'getTurnJob' | 'claimTurnJobs' | 'hasUnfinishedTurnJob' | 'claimSessionTurnJob' | 'extendTurnJobLease' | 'finishTurnJob'
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

export function turnJobOps(db: Db): TurnJobOps {
  return {
    async insertTurnJob(job) {
      await db().query(
        `insert into turn_jobs (id, account_id, key_id, widget_id, session_id, user_message_id, reply_message_id, kind, identity,
           timezone, status, attempts, lease_owner, lease_expires_at, created_at, finished_at, error, mode, content, answers)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20::jsonb)`,
        [
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
        ],
      );
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
