import type { Rating, Session, SessionPurpose, SessionStatus } from '../domain.js';
import type { SessionEventName } from '../event-stream.js';

/**
 * The durable per-session event log (DESIGN.md section 6): what a session's event stream and the console's live
 * inbox read. Rows are written in the transaction that changes the session, with its row locked, so a session's
 * events are numbered in the order they commit and a reader resuming after an id misses none.
 */

/** `message.created`: a message the reader did not send (operator replies; visitor messages during a handoff). */
export type SessionEventType = SessionEventName;

export interface SessionEvent {
  /** Decimal digits of a bigserial: strictly increasing per session (and per account once committed, see below). */
  id: string;
  accountId: string;
  widgetId: string;
  sessionId: string;
  type: SessionEventType;
  /** The message view (`message.created`) or the session view (`session.updated`), JSON as sent. */
  data: Record<string, unknown>;
  createdAt: Date;
}

export type NewSessionEvent = Omit<SessionEvent, 'id'>;

/** Filters of the operators' conversation list; every one optional but the account. */
export interface SessionListQuery {
  accountId: string;
  widgetId?: string | undefined;
  status?: SessionStatus | undefined;
  handoff?: 'requested' | 'active' | 'none' | undefined;
  rating?: Rating | undefined;
  /** Created at or after. */
  from?: Date | undefined;
  /** Created before. */
  to?: Date | undefined;
  /** Keyset position (exclusive): the last session of the previous page. */
  before?: { createdAt: Date; widgetId: string; sessionId: string } | undefined;
  /** Visitors' conversations (the default) or evaluation sessions (DESIGN.md section 12). */
  purpose?: SessionPurpose | undefined;
  limit: number;
}

export interface SessionEventOps {
  /**
   * Appends an event, to be called with the session's row locked in the transaction that changes it; subscribers
   * (`Store.subscribeSignals`, type `session-event`) hear of it once that commits. Returns its id.
   */
  appendSessionEvent(event: NewSessionEvent): Promise<string>;
  /** A session's events after `afterId` (from the first when null), oldest first, at most `limit`. */
  listSessionEvents(query: { widgetId: string; sessionId: string; afterId: string | null; limit: number }): Promise<SessionEvent[]>;
  /**
   * An account's events after `afterId`, oldest first, at most `limit`. Events of different sessions commit in any
   * order, so only those every earlier event of which has committed are returned (SQL: older than the oldest
   * transaction still open): a reader resuming after the last id it saw misses none.
   */
  listAccountEvents(query: { accountId: string; afterId: string | null; limit: number }): Promise<SessionEvent[]>;
  /** The newest event id of the session (or of the account, without `session`); null when there is none. */
  lastSessionEventId(query: { accountId: string; session?: { widgetId: string; sessionId: string } }): Promise<string | null>;
  /** Deletes up to `limit` events created before `before`, oldest first; returns how many (retention). */
  deleteSessionEventsBefore(before: Date, limit: number): Promise<number>;
  /** Sessions matching the filters, newest first (created_at, then widget id and session id, descending). */
  listSessions(query: SessionListQuery): Promise<Session[]>;
}

/**
 * How long events stay in the log: a client may resume a stream (`Last-Event-ID`) within this time; the console
 * reads older history from the messages themselves. Pruned by the workers' sweep.
 */
export const SESSION_EVENT_RETENTION_MS = 7 * 24 * 3600 * 1000;

/** Event ids are decimal bigint strings: compared as numbers, not as text. */
export function compareEventIds(a: string, b: string): number {
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** `Last-Event-ID` and cursor values accepted as event ids: 1-19 digits (a PostgreSQL bigint). */
export const EVENT_ID_PATTERN = /^(0|[1-9][0-9]{0,18})$/;
