import { CREDIT_BUCKETS, zeroCredits } from '../credits.js';
import type { AnalyticsOps, AnalyticsQuery, SessionAnalytics, TurnDay } from './analytics-store.js';
import type { MemoryState } from './memory-state.js';
import { key } from './memory-tables.js';

/** Rounded like SQL sums of doubles are read back: no float noise (0.1 + 0.2) in totals. */
const round = (value: number): number => Math.round(value * 1e6) / 1e6;

function matches(row: { accountId: string; widgetId: string | null; createdAt: Date }, query: AnalyticsQuery): boolean {
  return (
    row.accountId === query.accountId &&
    (query.widgetId === undefined || row.widgetId === query.widgetId) &&
    row.createdAt >= query.from &&
    row.createdAt < query.to
  );
}

export function createMemoryAnalyticsOps(state: MemoryState): AnalyticsOps {
  return {
    async analyzeSessions(query) {
      const result: SessionAnalytics = {
        sessions: 0,
        messages: 0,
        perDay: [],
        resolutions: { agent: 0, ended: 0, operator: 0, expired: 0 },
        ratings: { positive: 0, negative: 0 },
        handedOff: 0,
        turnsPerDay: [],
      };
      const days = new Map<string, number>();
      const turnDays = new Map<string, TurnDay>();
      for (const session of state.sessions.values()) {
        if (session.purpose === 'evaluation' || session.accountId !== query.accountId) continue;
        if (query.widgetId !== undefined && session.widgetId !== query.widgetId) continue;
        // Turns count on the day of the reply, whenever the session started.
        for (const message of state.sessionMessages.get(key(session.widgetId, session.id)) ?? []) {
          if (!message.outcome || message.createdAt < query.from || message.createdAt >= query.to) continue;
          const date = message.createdAt.toISOString().slice(0, 10);
          const turn = turnDays.get(date) ?? { date, turns: 0, answered: 0, unanswered: 0, handedOff: 0, feedbackUp: 0, feedbackDown: 0 };
          turn.turns++;
          if (message.outcome === 'answered') turn.answered++;
          if (message.outcome === 'unanswered') turn.unanswered++;
          if (message.outcome === 'handed_off') turn.handedOff++;
          // Thumbs count on the day of the reply they rate (as the SQL trigger counts them).
          if (message.feedback?.rating === 'up') turn.feedbackUp++;
          if (message.feedback?.rating === 'down') turn.feedbackDown++;
          turnDays.set(date, turn);
        }
        if (!matches(session, query)) continue;
        result.sessions++;
        result.messages += session.messageCount;
        const day = session.createdAt.toISOString().slice(0, 10);
        days.set(day, (days.get(day) ?? 0) + 1);
        if (session.rating) result.ratings[session.rating]++;
        if (session.handedOff) result.handedOff++;
        if (session.status === 'expired' || (session.status === 'active' && session.expiresAt <= query.now)) {
          result.resolutions.expired++;
        } else if (session.status === 'resolved' && session.resolvedByOperator) {
          result.resolutions.operator++;
        } else if (session.status === 'resolved') {
          const concluded = (state.sessionMessages.get(key(session.widgetId, session.id)) ?? []).some((m) => m.sessionEnded);
          result.resolutions[concluded ? 'agent' : 'ended']++;
        }
      }
      result.turnsPerDay = [...turnDays.values()].sort((a, b) => (a.date < b.date ? -1 : 1));
      result.perDay = [...days].sort(([a], [b]) => (a < b ? -1 : 1)).map(([date, count]) => ({ date, count }));
      return result;
    },

    async analyzeLedger(query) {
      const credits = zeroCredits();
      let total = 0;
      for (const entry of state.ledger.values()) {
        if (!matches(entry, query)) continue;
        for (const bucket of CREDIT_BUCKETS) credits[bucket] += entry.credits[bucket] ?? 0;
        total += entry.total;
      }
      for (const bucket of CREDIT_BUCKETS) credits[bucket] = round(credits[bucket]);
      return { credits, total: round(total) };
    },
  };
}
