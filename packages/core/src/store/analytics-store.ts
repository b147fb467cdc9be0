import type { CreditBucket } from '../credits.js';

/**
 * The sessions and ledger entries an analytics question is about: one account's, created in `[from, to)`. Both ends
 * are UTC midnights (SQL stores answer from per-day aggregates); evaluation sessions are never counted.
 */
export interface AnalyticsQuery {
  accountId: string;
  /** Only this widget's sessions and charges. */
  widgetId?: string;
  from: Date;
  to: Date;
  /** Sessions still marked active but idle past their expiry at `now` count as expired (expiry is applied on access). */
  now: Date;
}

/** How the sessions of an {@link AnalyticsQuery} went. */
export interface SessionAnalytics {
  sessions: number;
  /** The sum of their message counts. */
  messages: number;
  /** Sessions created on each UTC day (`YYYY-MM-DD`) that has any, oldest first. */
  perDay: Array<{ date: string; count: number }>;
  /**
   * How resolved and expired sessions ended: the agent concluded (a reply with `sessionEnded`), the visitor or
   * caller ended it, an operator resolved it, or it expired. Active sessions are in none of them.
   */
  resolutions: { agent: number; ended: number; operator: number; expired: number };
  ratings: { positive: number; negative: number };
  /** Sessions that ever had a handoff to an operator. */
  handedOff: number;
  /** The AI's replies (turns) on each UTC day that has any, oldest first, by outcome (DESIGN.md section 12). */
  turnsPerDay: TurnDay[];
}

/** One day's turns: every AI reply with an outcome, those answered, unanswered and handed off, and the feedback given. */
export interface TurnDay {
  date: string;
  turns: number;
  answered: number;
  unanswered: number;
  handedOff: number;
  feedbackUp: number;
  feedbackDown: number;
}

/** What the ledger entries of an {@link AnalyticsQuery} charged, per bucket and in all. */
export interface LedgerAnalytics {
  credits: Record<CreditBucket, number>;
  total: number;
}

/**
 * Operator analytics (DESIGN.md section 10), aggregated where the data is: a SQL store answers each with one
 * statement instead of shipping every session to the caller.
 */
export interface AnalyticsOps {
  analyzeSessions(query: AnalyticsQuery): Promise<SessionAnalytics>;
  analyzeLedger(query: AnalyticsQuery): Promise<LedgerAnalytics>;
}
