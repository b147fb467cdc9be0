import type { SessionEvent, SessionEventOps, StoreSignal } from '@svc/core/store-kit';
import { json, toSession, type SessionRow } from '../rows.js';
import type { Db } from './db.js';

interface SessionEventRow {
  id: string;
  account_id: string;
  widget_id: string;
  session_id: string;
  type: SessionEvent['type'];
  data: Record<string, unknown>;
  created_at: Date;
}

const toSessionEvent = (row: SessionEventRow): SessionEvent => ({
  id: String(row.id),
  accountId: row.account_id,
  widgetId: row.widget_id,
  sessionId: row.session_id,
  type: row.type,
  data: row.data,
  createdAt: row.created_at,
});

const COLUMNS = 'id::text as id, account_id, widget_id, session_id, type, data, created_at';

/**
 * The session event log (issue 13) and the operators' session list. Ids are bigserial values, read and compared as
 * bigints and handed out as decimal strings.
 */
export function sessionEventOps(db: Db, publish: (event: StoreSignal) => Promise<void>): SessionEventOps {
  return {
    async appendSessionEvent(event) {
      const [row] = await db().query<{ id: string }>(
        `insert into session_events (account_id, widget_id, session_id, type, data, created_at)
         values ($1, $2, $3, $4, $5::jsonb, $6) returning id::text as id`,
        [event.accountId, event.widgetId, event.sessionId, event.type, json(event.data), event.createdAt],
      );
      await publish({ type: 'session-event', accountId: event.accountId, widgetId: event.widgetId, sessionId: event.sessionId });
      return String(row!.id);
    },
    async listSessionEvents({ widgetId, sessionId, afterId, limit }) {
      const rows = await db().query<SessionEventRow>(
        `select ${COLUMNS} from session_events
          where widget_id = $1 and session_id = $2 and ($3::bigint is null or id > $3::bigint)
          order by id limit $4`,
        [widgetId, sessionId, afterId, Math.max(0, limit)],
      );
      return rows.map(toSessionEvent);
    },
    async listAccountEvents({ accountId, afterId, limit }) {
      // Ids are taken when rows are written, not when they commit: stop below the oldest transaction still open.
      const rows = await db().query<SessionEventRow>(
        `select ${COLUMNS} from session_events
          where account_id = $1 and ($2::bigint is null or id > $2::bigint)
            and txid < pg_snapshot_xmin(pg_current_snapshot())
          order by id limit $3`,
        [accountId, afterId, Math.max(0, limit)],
      );
      return rows.map(toSessionEvent);
    },
    async lastSessionEventId({ accountId, session }) {
      const [row] = session
        ? await db().query<{ id: string | null }>(
            'select max(id)::text as id from session_events where widget_id = $1 and session_id = $2 and account_id = $3',
            [session.widgetId, session.sessionId, accountId],
          )
        : await db().query<{ id: string | null }>('select max(id)::text as id from session_events where account_id = $1', [accountId]);
      return row?.id ?? null;
    },
    async deleteSessionEventsBefore(before, limit) {
      const rows = await db().query<{ id: string }>(
        `delete from session_events where id in (
           select id from session_events where created_at < $1 order by created_at, id limit $2
         ) returning id`,
        [before, Math.max(0, limit)],
      );
      return rows.length;
    },
    async listSessions(query) {
      const rows = await db().query<SessionRow>(
        `select * from sessions
          where account_id = $1
            and ($2::text is null or widget_id = $2)
            and ($3::text is null or status = $3)
            and ($4::text is null or coalesce(handoff ->> 'state', 'none') = $4)
            and ($5::text is null or rating = $5)
            and ($6::timestamptz is null or created_at >= $6)
            and ($7::timestamptz is null or created_at < $7)
            and ($8::timestamptz is null or (created_at, widget_id, id) < ($8, $9::text collate "C", $10::text collate "C"))
            and purpose = $12
          order by created_at desc, widget_id collate "C" desc, id collate "C" desc
          limit $11`,
        [
          query.accountId,
          query.widgetId ?? null,
          query.status ?? null,
          query.handoff ?? null,
          query.rating ?? null,
          query.from ?? null,
          query.to ?? null,
          query.before?.createdAt ?? null,
          query.before?.widgetId ?? null,
          query.before?.sessionId ?? null,
          Math.max(0, query.limit),
          query.purpose ?? 'visitor',
        ],
      );
      return rows.map(toSession);
    },
  };
}
