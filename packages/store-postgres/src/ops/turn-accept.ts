import type { StoreOps, StoredMessage, TurnJob, VisitorContext } from '@svc/core/store-kit';
import { json, toMessage, toSession, type MessageRow, type SessionRow } from '../rows.js';
import type { Db } from './db.js';
import { JOB_COLUMNS, jobParams } from './turn-jobs.js';

/**
 * A message turn's whole acceptance as one statement (DESIGN.md section 3a): lock the session row, check the guard,
 * write the job (claimed when nothing of the session is unfinished), the visitor's message, the session's activity,
 * the idempotency record and the visitor's context, and read the agent's history, in one round trip.
 *
 * One statement reads every table as of its start, but a row lock waited for yields the row's latest version. So
 * when the locked session row is not the version this statement's snapshot sees (a turn of the session was accepted
 * or committed meanwhile), its reads of jobs and messages may be stale: nothing is written (`fresh` false) and the
 * statement runs again. Every write that matters here (accept, commit) updates the session row, which makes that
 * comparison enough; a failed turn's end only locks it, and then the job is queued and claimed moments later.
 */
const ACCEPT_TURN_AT_ONCE = /* sql */ `
  with locked as (
    select s.*, s.ctid as version from sessions s where s.widget_id = $4 and s.id = $5 for update
  ),
  current as (
    select locked.*, exists (
        select 1 from sessions snap where snap.widget_id = locked.widget_id and snap.id = locked.id and snap.ctid = locked.version
      ) as fresh
      from locked
  ),
  admitted as (
    select current.widget_id, current.id, current.account_id, current.visitor_id, current.message_count,
           not exists (
             select 1 from turn_jobs j
              where j.widget_id = current.widget_id and j.session_id = current.id and j.status in ('queued', 'running')
           ) as claim
      from current join accounts a on a.id = $21
     where current.fresh
       and current.account_id = $21
       and (not $22::boolean or (current.creator_key_kind = 'public' and (current.identity_sub is null or current.identity_sub = $23::text)))
       and current.status = 'active' and current.expires_at > $24::timestamptz
       and a.status <> 'overdue' and a.balance > 0
       and ($26::text is null or not exists (select 1 from idempotency_records where scope = $25::text and key = $26::text))
  ),
  job as (
    insert into turn_jobs (${JOB_COLUMNS})
    select $1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10,
           case when claim then $11 else 'queued' end, case when claim then $12::integer else 0 end,
           case when claim then $13::text end, case when claim then $14::timestamptz end,
           $15, $16, $17, $18, $19, $20::jsonb
      from admitted
    returning id
  ),
  message as (
    insert into messages (id, widget_id, session_id, seq, role, content, products, actions, forms, session_ended, credits, usage, created_at)
    select $29::text, widget_id, id, message_count + 1, 'user', $30::text, '[]'::jsonb, '[]'::jsonb, $31::jsonb, false, null, null, $32::timestamptz
      from admitted
     where claim
    returning seq
  ),
  session as (
    update sessions s
       set last_activity_at = $33, expires_at = $34, message_count = s.message_count + (case when admitted.claim then 1 else 0 end)
      from admitted
     where s.widget_id = admitted.widget_id and s.id = admitted.id
    returning s.*
  ),
  recorded as (
    insert into idempotency_records (scope, key, request_hash, status, body, job_id, created_at)
    select $25::text, $26::text, $27::text, 0, '', $1, $28::timestamptz from admitted where $26::text is not null
    returning key
  ),
  visitor as (
    insert into visitors (account_id, visitor_id, context, updated_at)
    select account_id, visitor_id, $35::jsonb, $24::timestamptz from admitted where $35::jsonb is not null
    on conflict (account_id, visitor_id)
      do update set context = visitors.context || excluded.context, updated_at = excluded.updated_at
    returning context
  ),
  history as (
    select m.* from messages m join admitted on m.widget_id = admitted.widget_id and m.session_id = admitted.id
     order by m.seq desc
     limit $36
  )
  select (select fresh from current) as fresh,
         (select claim from admitted) as claim,
         (select to_jsonb(session) from session) as session,
         (select count(*) from job)::int as jobs,
         (select count(*) from recorded)::int as recorded,
         (select coalesce(jsonb_agg(to_jsonb(history) order by history.seq), '[]'::jsonb) from history) as history,
         coalesce(
           (select context from visitor),
           (select v.context from visitors v join admitted on v.account_id = admitted.account_id and v.visitor_id = admitted.visitor_id),
           '{}'::jsonb
         ) as visitor_context`;

interface AcceptedRow {
  fresh: boolean | null;
  claim: boolean | null;
  session: Record<string, unknown> | null;
  jobs: number;
  history: Record<string, unknown>[];
  visitor_context: VisitorContext;
}

/** How often a statement that found its session changed under it runs again before the caller takes the full path. */
const ATTEMPTS = 3;

/** Rows read as JSON carry timestamps as ISO strings. */
function withDates<T>(row: Record<string, unknown>, columns: readonly string[]): T {
  const out: Record<string, unknown> = { ...row };
  for (const column of columns) if (typeof out[column] === 'string') out[column] = new Date(out[column] as string);
  return out as T;
}

export function turnAcceptOps(db: Db): Pick<StoreOps, 'acceptTurnAtOnce'> {
  return {
    async acceptTurnAtOnce({ job, userMessage, guard, activity, idempotency, visitorContext, historyLimit }) {
      const params = [
        ...jobParams(job),
        guard.accountId,
        guard.publicCaller,
        guard.identitySub,
        guard.now,
        idempotency?.scope ?? null,
        idempotency?.key ?? null,
        idempotency?.requestHash ?? null,
        idempotency?.createdAt ?? null,
        userMessage.id,
        userMessage.content,
        json(userMessage.forms),
        userMessage.createdAt,
        activity.lastActivityAt,
        activity.expiresAt,
        visitorContext === null ? null : json(visitorContext),
        historyLimit,
      ];
      for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
        const [row] = await db().query<AcceptedRow>(ACCEPT_TURN_AT_ONCE, params);
        if (!row || row.fresh === null) return null;
        if (!row.fresh) continue;
        if (row.claim === null || row.session === null || row.jobs !== 1) return null;
        const session = toSession(withDates<SessionRow>(row.session, ['created_at', 'last_activity_at', 'expires_at', 'resolved_at']));
        const stored: TurnJob = row.claim ? job : { ...job, status: 'queued', attempts: 0, leaseOwner: null, leaseExpiresAt: null };
        const message: StoredMessage | null = row.claim ? { ...userMessage, seq: session.messageCount } : null;
        return {
          claimed: row.claim,
          job: stored,
          session,
          userMessage: message,
          history: row.history.map((m) => toMessage(withDates<MessageRow>(m, ['created_at']))),
          visitorContext: row.visitor_context,
        };
      }
      return null;
    },
  };
}
