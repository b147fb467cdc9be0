import { describe, expect, it } from 'vitest';
import type { Session } from './domain.js';
import { isSvcError } from './errors.js';
import { applyExpiry, assertAcceptsMessages, assertResumable, end, rate, resolveByAgent, touch } from './session-machine.js';

const T0 = new Date('2026-05-01T12:00:00.000Z');
const session = (over: Partial<Session> = {}): Session => ({
  widgetId: 'wgt_1',
  id: 'sess_1',
  accountId: 'acct_1',
  visitorId: 'v1',
  status: 'active',
  language: null,
  timezone: null,
  messageCount: 0,
  rating: null,
  createdAt: T0,
  lastActivityAt: T0,
  expiresAt: new Date(T0.getTime() + 60_000),
  resolvedAt: null,
  pendingFormId: null,
  identitySub: null,
  creatorKeyKind: 'secret',
  creatorKeyId: null,
  handoff: null,
  handedOff: false,
  resolvedByOperator: false,
  ...over,
});

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return isSvcError(error) ? error.code : 'not-a-svc-error';
  }
  return undefined;
}

describe('session state machine (spec section 3)', () => {
  it('create with the id of an active session of the same visitor resumes it', () => {
    expect(codeOf(() => assertResumable(session(), 'v1'))).toBeUndefined();
  });

  it.each(['resolved', 'expired'] as const)('create with the id of a %s session is 409 session_id_taken', (status) => {
    expect(codeOf(() => assertResumable(session({ status }), 'v1'))).toBe('session_id_taken');
  });

  it('end moves active to resolved with resolvedAt', () => {
    const { session: next, changed } = end(session(), T0);
    expect(changed).toBe(true);
    expect(next).toMatchObject({ status: 'resolved', resolvedAt: T0 });
  });

  it('end of a resolved session changes nothing; of an expired one is 409', () => {
    const resolved = session({ status: 'resolved', resolvedAt: T0 });
    expect(end(resolved, new Date(T0.getTime() + 5000))).toEqual({ session: resolved, changed: false });
    expect(codeOf(() => end(session({ status: 'expired' }), T0))).toBe('session_not_active');
  });

  it('no messages after resolution or expiry', () => {
    expect(codeOf(() => assertAcceptsMessages(session()))).toBeUndefined();
    expect(codeOf(() => assertAcceptsMessages(session({ status: 'resolved' })))).toBe('session_not_active');
    expect(codeOf(() => assertAcceptsMessages(session({ status: 'expired' })))).toBe('session_not_active');
  });

  it('the agent concluding resolves an active session and clears a pending form', () => {
    expect(resolveByAgent(session({ pendingFormId: 'f' }), T0)).toMatchObject({ status: 'resolved', resolvedAt: T0, pendingFormId: null });
  });

  it('rating applies to resolved and expired sessions, keeping the status; active is 409 session_active', () => {
    expect(rate(session({ status: 'resolved' }), 'positive')).toMatchObject({ status: 'resolved', rating: 'positive' });
    expect(rate(session({ status: 'expired', rating: 'positive' }), 'negative')).toMatchObject({ status: 'expired', rating: 'negative' });
    expect(codeOf(() => rate(session(), 'positive'))).toBe('session_active');
  });

  it('expires an active session at expiresAt, not before; other statuses are untouched', () => {
    expect(applyExpiry(session(), new Date(T0.getTime() + 59_999)).status).toBe('active');
    expect(applyExpiry(session(), new Date(T0.getTime() + 60_000)).status).toBe('expired');
    expect(applyExpiry(session({ status: 'resolved' }), new Date(T0.getTime() + 10 ** 9)).status).toBe('resolved');
  });

  it('activity pushes expiry forward by the TTL', () => {
    const later = new Date(T0.getTime() + 30_000);
    expect(touch(session(), later, 600).expiresAt.toISOString()).toBe(new Date(later.getTime() + 600_000).toISOString());
  });
});
