import { CREDIT_BUCKETS, zeroCredits, type AnalyticsOps, type AnalyticsQuery } from '@svc/core/store-kit';
import type { Db } from './db.js';

/**
 * The aggregate rows of the query: an account's, optionally one widget's, on the UTC days of [from, to). Parameters
 * $1 to $4. The rows are kept by triggers (migration 14, `evals_and_daily_analytics`), so a question reads at most a
 * row per day and widget, however many conversations and messages the days hold.
 */
const IN_DAYS = `account_id = $1 and day >= ($2::timestamptz at time zone 'UTC')::date and day < ($3::timestamptz at time zone 'UTC')::date
  and ($4::text is null or widget_id = $4)`;
const params = (q: AnalyticsQuery): unknown[] => [q.accountId, q.from, q.to, q.widgetId ?? null];

/** Rounded like the memory store's sums: no float noise (0.1 + 0.2) in totals. */
const round = (value: number): number => Math.round(value * 1e6) / 1e6;

interface DayRow {
  date: string;
  conversations: number;
  messages: number;
  resolved_agent: number;
  resolved_ended: number;
  resolved_operator: number;
  expired: number;
  rating_positive: number;
  rating_negative: number;
  sessions_handed_off: number;
  turns: number;
  turns_answered: number;
  turns_unanswered: number;
  turns_handed_off: number;
  feedback_up: number;
  feedback_down: number;
}

export function analyticsOps(db: Db): AnalyticsOps {
  return {
    async analyzeSessions(query) {
      const days = await db().query<DayRow>(
        `select to_char(day, 'YYYY-MM-DD') as date, sum(conversations)::int as conversations, sum(messages)::int as messages,
                sum(resolved_agent)::int as resolved_agent, sum(resolved_ended)::int as resolved_ended,
                sum(resolved_operator)::int as resolved_operator, sum(expired)::int as expired,
                sum(rating_positive)::int as rating_positive, sum(rating_negative)::int as rating_negative,
                sum(sessions_handed_off)::int as sessions_handed_off, sum(turns)::int as turns, sum(turns_answered)::int as turns_answered,
                sum(turns_unanswered)::int as turns_unanswered, sum(turns_handed_off)::int as turns_handed_off,
                sum(feedback_up)::int as feedback_up, sum(feedback_down)::int as feedback_down
           from daily_stats where ${IN_DAYS} group by day order by day`,
        params(query),
      );
      // Sessions still marked active but idle past their expiry count as expired, as reads would show them: the few
      // the expiry worker has not reached yet, found by its partial index.
      const [idle] = await db().query<{ count: number }>(
        `select count(*)::int as count from sessions
          where status = 'active' and expires_at <= $5 and purpose = 'visitor'
            and account_id = $1 and created_at >= $2 and created_at < $3 and ($4::text is null or widget_id = $4)`,
        [...params(query), query.now],
      );
      const sum = (pick: (row: DayRow) => number): number => days.reduce((total, row) => total + Number(pick(row)), 0);
      return {
        sessions: sum((r) => r.conversations),
        messages: sum((r) => r.messages),
        perDay: days.filter((r) => Number(r.conversations) > 0).map((r) => ({ date: r.date, count: Number(r.conversations) })),
        resolutions: {
          agent: sum((r) => r.resolved_agent),
          ended: sum((r) => r.resolved_ended),
          operator: sum((r) => r.resolved_operator),
          expired: sum((r) => r.expired) + Number(idle?.count ?? 0),
        },
        ratings: { positive: sum((r) => r.rating_positive), negative: sum((r) => r.rating_negative) },
        handedOff: sum((r) => r.sessions_handed_off),
        turnsPerDay: days
          .filter((r) => Number(r.turns) > 0 || Number(r.feedback_up) > 0 || Number(r.feedback_down) > 0)
          .map((r) => ({
            date: r.date,
            turns: Number(r.turns),
            answered: Number(r.turns_answered),
            unanswered: Number(r.turns_unanswered),
            handedOff: Number(r.turns_handed_off),
            feedbackUp: Number(r.feedback_up),
            feedbackDown: Number(r.feedback_down),
          })),
      };
    },

    async analyzeLedger(query) {
      const rows = await db().query<{ bucket: string; credits: number }>(
        `select bucket, sum(credits) as credits from daily_credits where ${IN_DAYS} group by bucket`,
        params(query),
      );
      const credits = zeroCredits();
      let total = 0;
      for (const row of rows) {
        if (row.bucket === '*') total = round(Number(row.credits));
        else if ((CREDIT_BUCKETS as readonly string[]).includes(row.bucket)) credits[row.bucket as keyof typeof credits] = round(Number(row.credits));
      }
      return { credits, total };
    },
  };
}
