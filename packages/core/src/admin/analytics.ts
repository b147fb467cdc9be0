import { CREDIT_BUCKETS, type CreditBucket } from '../credits.js';
import { SvcError } from '../errors.js';
import type { SessionAnalytics, TurnDay } from '../store/analytics-store.js';
import type { AdminContext } from './context.js';
import { loadOwnWidget } from './widgets.js';

/** The console's usage and analytics screen (DESIGN.md section 10): one account's, over a range of time. */
export interface Analytics {
  /** Every UTC day of the range, oldest first, with the conversations started on it (0 included, for charts). */
  conversationsPerDay: Array<{ date: string; count: number }>;
  /** How the range's conversations ended; those still active are in none. */
  resolutions: SessionAnalytics['resolutions'];
  /** Ratings by value. */
  ratings: SessionAnalytics['ratings'];
  /** The share (0..1) of the range's conversations that were ever handed off to an operator. */
  handoffRate: number;
  /** Credits charged in the range, per bucket, every bucket listed. */
  creditsByBucket: Array<{ bucket: CreditBucket; credits: number }>;
  totals: { conversations: number; messages: number; credits: number };
  /** Every UTC day of the range, oldest first: the AI's replies by outcome, the feedback given, and their rates. */
  turnsPerDay: TurnStats[];
  /** The same over the whole range. */
  turns: Omit<TurnStats, 'date'>;
}

/**
 * A day's (or the range's) turns (DESIGN.md section 12). `resolutionRate`: the share of turns answered without a
 * handoff and without a thumbs-down; `unansweredRate`: the share unanswered; both null without turns.
 */
export interface TurnStats extends TurnDay {
  resolutionRate: number | null;
  unansweredRate: number | null;
}

function withRates(day: TurnDay): TurnStats {
  const resolved = Math.max(0, day.answered - day.feedbackDown);
  return {
    ...day,
    resolutionRate: day.turns === 0 ? null : Math.min(1, resolved / day.turns),
    unansweredRate: day.turns === 0 ? null : day.unanswered / day.turns,
  };
}

function turnTotals(days: TurnDay[]): Omit<TurnStats, 'date'> {
  const total: TurnDay = { date: '', turns: 0, answered: 0, unanswered: 0, handedOff: 0, feedbackUp: 0, feedbackDown: 0 };
  for (const day of days) {
    total.turns += day.turns;
    total.answered += day.answered;
    total.unanswered += day.unanswered;
    total.handedOff += day.handedOff;
    total.feedbackUp += day.feedbackUp;
    total.feedbackDown += day.feedbackDown;
  }
  const { date: _date, ...rest } = withRates(total);
  return rest;
}

export interface AnalyticsRange {
  /** Start of the range (inclusive): a Date or an ISO 8601 date or date-time. Default: 29 UTC days before today. */
  from?: Date | string | undefined;
  /** End of the range (exclusive). Default: now, so the default range is the last 30 UTC days, today included. */
  to?: Date | string | undefined;
  /** Only this widget's conversations and charges. */
  widgetId?: string | undefined;
}

const DAY_MS = 86_400_000;
/** A bound on the work one request asks of the store, and on the points of a chart: a year and a day. */
export const MAX_ANALYTICS_DAYS = 367;

function instant(value: Date | string, field: 'from' | 'to'): Date {
  const date = value instanceof Date ? new Date(value.getTime()) : new Date(typeof value === 'string' && value.trim() !== '' ? value : Number.NaN);
  if (Number.isNaN(date.getTime())) throw new SvcError('validation_failed', `${field} must be an ISO 8601 date or date-time.`, { field });
  return date;
}

function everyDay(from: Date, to: Date, counted: Array<{ date: string; count: number }>): Array<{ date: string; count: number }> {
  const counts = new Map(counted.map((row) => [row.date, row.count]));
  const days: Array<{ date: string; count: number }> = [];
  for (let t = Math.floor(from.getTime() / DAY_MS) * DAY_MS; t < to.getTime(); t += DAY_MS) {
    const date = new Date(t).toISOString().slice(0, 10);
    days.push({ date, count: counts.get(date) ?? 0 });
  }
  return days;
}

function everyTurnDay(from: Date, to: Date, counted: TurnDay[]): TurnDay[] {
  const byDate = new Map(counted.map((day) => [day.date, day]));
  return everyDay(from, to, []).map(({ date }) => byDate.get(date) ?? { date, turns: 0, answered: 0, unanswered: 0, handedOff: 0, feedbackUp: 0, feedbackDown: 0 });
}

/**
 * Conversations per day, how they ended, ratings, handoff rate, credits by bucket and turns by outcome, for `[from,
 * to)` read in whole UTC days: `from` from the start of its day, `to` to the end of the day it falls in (the
 * aggregates are per day, DESIGN.md section 12).
 */
export async function analytics(ctx: AdminContext, accountId: string, range: AnalyticsRange): Promise<Analytics> {
  const now = ctx.clock.now();
  const asked = {
    from: range.from === undefined ? new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS - 29 * DAY_MS) : instant(range.from, 'from'),
    to: range.to === undefined ? now : instant(range.to, 'to'),
  };
  const from = new Date(Math.floor(asked.from.getTime() / DAY_MS) * DAY_MS);
  const to = new Date(Math.ceil(asked.to.getTime() / DAY_MS) * DAY_MS);
  if (asked.to <= asked.from) throw new SvcError('validation_failed', 'to must be later than from.', { field: 'to' });
  if (to.getTime() - from.getTime() > MAX_ANALYTICS_DAYS * DAY_MS) {
    throw new SvcError('validation_failed', `The range may span at most ${MAX_ANALYTICS_DAYS} days.`, { field: 'to' });
  }
  if (range.widgetId !== undefined) await loadOwnWidget(ctx, accountId, range.widgetId);
  const query = { accountId, from, to, now, ...(range.widgetId === undefined ? {} : { widgetId: range.widgetId }) };
  const [sessions, ledger] = await Promise.all([ctx.store.analyzeSessions(query), ctx.store.analyzeLedger(query)]);
  return {
    conversationsPerDay: everyDay(from, to, sessions.perDay),
    resolutions: sessions.resolutions,
    ratings: sessions.ratings,
    handoffRate: sessions.sessions === 0 ? 0 : sessions.handedOff / sessions.sessions,
    creditsByBucket: CREDIT_BUCKETS.map((bucket) => ({ bucket, credits: ledger.credits[bucket] })),
    totals: { conversations: sessions.sessions, messages: sessions.messages, credits: ledger.total },
    turnsPerDay: everyTurnDay(from, to, sessions.turnsPerDay).map(withRates),
    turns: turnTotals(sessions.turnsPerDay),
  };
}
