import { CREDIT_BUCKETS, zeroCredits, type AnalyticsOps, type AnalyticsQuery } from '@svc/core/store-kit';
import type { Db } from './db.js';

/** The rows of the query: an account's, optionally one widget's, created in [from, to). Parameters $1 to $4. */
const IN_RANGE = 'account_id = $1 and created_at >= $2 and created_at < $3 and ($4::text is null or widget_id = $4)';
const params = (q: AnalyticsQuery): unknown[] => [q.accountId, q.from, q.to, q.widgetId ?? null];

/** Rounded like the memory store's sums: no float noise (0.1 + 0.2) in totals. */
const round = (value: number): number => Math.round(value * 1e6) / 1e6;

interface SessionTotalsRow {
  sessions: number;
  messages: number;
  agent: number;
  ended: number;
  operator: number;
  handed_off: number;
  expired: number;
  positive: number;
  negative: number;
}

export function analyticsOps(db: Db): AnalyticsOps {
  return {
    async analyzeSessions(query) {
      // An operator's resolution is recorded on the session. Otherwise a session the agent concluded has a reply marked
      // session_ended; one resolved without such a reply was ended by its visitor or caller. Active sessions idle past their expiry count as expired, as reads would show them.
      const [totals] = await db().query<SessionTotalsRow>(
        `select count(*)::int as sessions,
                coalesce(sum(message_count), 0)::int as messages,
                count(*) filter (where status = 'resolved' and resolved_by_operator)::int as operator,
                count(*) filter (where status = 'resolved' and not resolved_by_operator and concluded)::int as agent,
                count(*) filter (where status = 'resolved' and not resolved_by_operator and not concluded)::int as ended,
                count(*) filter (where handed_off)::int as handed_off,
                count(*) filter (where status = 'expired' or (status = 'active' and expires_at <= $5))::int as expired,
                count(*) filter (where rating = 'positive')::int as positive,
                count(*) filter (where rating = 'negative')::int as negative
           from (select s.*, exists (select 1 from messages m where m.widget_id = s.widget_id and m.session_id = s.id and m.session_ended) as concluded
                   from sessions s where ${IN_RANGE}) as s`,
        [...params(query), query.now],
      );
      const perDay = await db().query<{ date: string; count: number }>(
        `select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as date, count(*)::int as count
           from sessions where ${IN_RANGE} group by 1 order by 1`,
        params(query),
      );
      const t = totals!;
      return {
        sessions: t.sessions,
        messages: t.messages,
        perDay: perDay.map((row) => ({ date: row.date, count: Number(row.count) })),
        resolutions: { agent: t.agent, ended: t.ended, operator: t.operator, expired: t.expired },
        ratings: { positive: t.positive, negative: t.negative },
        handedOff: t.handed_off,
      };
    },

    async analyzeLedger(query) {
      const rows = await db().query<{ bucket: string; credits: number }>(
        `select b.key as bucket, sum(b.value::double precision) as credits
           from ledger_entries, jsonb_each_text(credits) as b where ${IN_RANGE} group by b.key`,
        params(query),
      );
      const [sum] = await db().query<{ total: number | null }>(`select sum(total) as total from ledger_entries where ${IN_RANGE}`, params(query));
      const credits = zeroCredits();
      for (const row of rows) {
        if ((CREDIT_BUCKETS as readonly string[]).includes(row.bucket)) credits[row.bucket as keyof typeof credits] = round(Number(row.credits));
      }
      return { credits, total: round(Number(sum?.total ?? 0)) };
    },
  };
}
