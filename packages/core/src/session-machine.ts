import type { Rating, Session } from './domain.js';
import { SvcError } from './errors.js';

/**
 * The session state machine of spec section 3, as pure functions over a session value. Each returns the next
 * session (or throws the error the transition is refused with); the engine persists the result.
 *
 *   active ──end / agent concludes──▶ resolved
 *   active ──no activity for the TTL──▶ expired
 *   resolved | expired ──rate──▶ same status, rating set
 */

/** Applies inactivity expiry as of `now`: an active session past `expiresAt` is expired. */
export function applyExpiry(session: Session, now: Date): Session {
  if (session.status === 'active' && session.expiresAt.getTime() <= now.getTime()) {
    return { ...session, status: 'expired', pendingFormId: null };
  }
  return session;
}

/** Any activity pushes the expiry forward by the widget's TTL. */
export function touch<T extends Pick<Session, 'lastActivityAt' | 'expiresAt'>>(session: T, now: Date, ttlSeconds: number): T {
  return { ...session, lastActivityAt: now, expiresAt: new Date(now.getTime() + ttlSeconds * 1000) };
}

/** Send-message, form-submission: only an active session takes messages. */
export function assertAcceptsMessages(session: Session): void {
  if (session.status !== 'active') {
    throw new SvcError(
      'session_not_active',
      `Session ${session.id} is ${session.status} and takes no more messages; create a new session to continue.`,
    );
  }
}

/**
 * Create with an id that exists: an active session of the same visitor is resumed; anything else is a
 * conflict (spec 3: 409 for resolved or expired; another visitor's live session is not theirs to resume).
 */
export function assertResumable(session: Session, visitorId: string): void {
  if (session.status !== 'active') {
    throw new SvcError(
      'session_id_taken',
      `Session id ${session.id} belongs to a ${session.status} session; use a new id or omit sessionId.`,
      { field: 'sessionId' },
    );
  }
  if (session.visitorId !== visitorId) {
    throw new SvcError('session_id_taken', `Session id ${session.id} is in use by another visitor; use a new id or omit sessionId.`, {
      field: 'sessionId',
    });
  }
}

export type EndOutcome = { session: Session; changed: boolean };

/** End: active → resolved. Ending a resolved session again is a no-op (safe to retry); expired cannot end. */
export function end(session: Session, now: Date): EndOutcome {
  if (session.status === 'resolved') return { session, changed: false };
  if (session.status === 'expired') {
    throw new SvcError('session_not_active', `Session ${session.id} has expired and cannot be ended.`);
  }
  return { session: { ...session, status: 'resolved', resolvedAt: now, pendingFormId: null }, changed: true };
}

/** The agent concluded the conversation during a turn. */
export function resolveByAgent(session: Session, now: Date): Session {
  return session.status === 'active' ? { ...session, status: 'resolved', resolvedAt: now, pendingFormId: null } : session;
}

/** Rate: only once the session is over; rating again replaces the rating. */
export function rate(session: Session, rating: Rating): Session {
  if (session.status === 'active') {
    throw new SvcError('session_active', `Session ${session.id} is still active; end it before rating it.`);
  }
  return { ...session, rating };
}
