import { expect, it } from 'vitest';
import type { Store } from '../../store/store.js';
import { at, makeSession } from '../fixtures.js';

export function sessionContract(store: () => Store): void {
  it('round-trips an active session with null optional fields', async () => {
    const session = makeSession({ language: null, timezone: null });
    expect(await store().insertSession(session)).toEqual({ inserted: true });
    const stored = await store().getSession(session.widgetId, session.id);
    expect(stored).toEqual(session);
    expect(stored?.expiresAt).toBeInstanceOf(Date);
  });

  it('records which kind of key created a session', async () => {
    const byServer = makeSession({ creatorKeyKind: 'secret' });
    const byWidget = makeSession({ creatorKeyKind: 'public' });
    for (const session of [byServer, byWidget]) await store().insertSession(session);
    expect((await store().getSession(byServer.widgetId, byServer.id))?.creatorKeyKind).toBe('secret');
    expect((await store().getSession(byWidget.widgetId, byWidget.id))?.creatorKeyKind).toBe('public');
    expect(await store().updateSession(byWidget.widgetId, byWidget.id, { messageCount: 1 })).toMatchObject({ creatorKeyKind: 'public' });
  });

  it('round-trips a resolved, rated session with a pending form', async () => {
    const session = makeSession({
      status: 'resolved',
      messageCount: 7,
      rating: 'negative',
      lastActivityAt: at(300),
      resolvedAt: at(301),
      pendingFormId: 'callback',
    });
    await store().insertSession(session);
    expect(await store().getSession(session.widgetId, session.id)).toEqual(session);
  });

  it('does not overwrite an existing session with the same id on the same widget', async () => {
    const session = makeSession({ widgetId: 'wgt_a', id: 'sess_custom' });
    await store().insertSession(session);
    expect(await store().insertSession({ ...session, visitorId: 'intruder', status: 'expired' })).toEqual({ inserted: false });
    expect(await store().getSession('wgt_a', 'sess_custom')).toEqual(session);
  });

  it('lets two widgets use the same session id independently', async () => {
    const onA = makeSession({ widgetId: 'wgt_a', id: 'sess_shared', visitorId: 'on-a' });
    const onB = makeSession({ widgetId: 'wgt_b', id: 'sess_shared', visitorId: 'on-b' });
    expect(await store().insertSession(onA)).toEqual({ inserted: true });
    expect(await store().insertSession(onB)).toEqual({ inserted: true });
    expect(await store().getSession('wgt_a', 'sess_shared')).toEqual(onA);
    expect(await store().getSession('wgt_b', 'sess_shared')).toEqual(onB);
    expect(await store().getSession('wgt_c', 'sess_shared')).toBeNull();
  });

  it('inserts a contended session id exactly once', async () => {
    const attempts = Array.from({ length: 10 }, (_, i) => makeSession({ widgetId: 'wgt_a', id: 'sess_race', visitorId: `v${i}` }));
    const results = await Promise.all(attempts.map((session) => store().insertSession(session)));
    expect(results.filter((result) => result.inserted)).toHaveLength(1);
    const winner = attempts[results.findIndex((result) => result.inserted)];
    expect(await store().getSession('wgt_a', 'sess_race')).toEqual(winner);
  });

  it('patches only the fields given and returns the updated session', async () => {
    const session = makeSession({ pendingFormId: 'callback', rating: 'positive' });
    await store().insertSession(session);
    const updated = await store().updateSession(session.widgetId, session.id, {
      status: 'resolved',
      resolvedAt: at(90),
      messageCount: 4,
      pendingFormId: null,
      rating: undefined,
    });
    const expected = { ...session, status: 'resolved', resolvedAt: at(90), messageCount: 4, pendingFormId: null };
    expect(updated).toEqual(expected);
    expect(await store().getSession(session.widgetId, session.id)).toEqual(expected);
    expect(await store().updateSession(session.widgetId, session.id, {})).toEqual(expected);
  });

  it('updates language, timezone, rating and activity times', async () => {
    const session = makeSession({ language: null, timezone: null });
    await store().insertSession(session);
    const patch = { language: 'fr', timezone: 'America/Montreal', rating: 'positive' as const, lastActivityAt: at(5), expiresAt: at(5 + 3600) };
    expect(await store().updateSession(session.widgetId, session.id, patch)).toEqual({ ...session, ...patch });
    expect(await store().updateSession(session.widgetId, 'sess_missing', patch)).toBeNull();
    expect(await store().updateSession('wgt_other', session.id, patch)).toBeNull();
  });

  it('expires only active sessions whose expiry is at or before now', async () => {
    const now = at(1000);
    const due = makeSession({ expiresAt: at(999) });
    const dueExactly = makeSession({ expiresAt: now });
    const notYet = makeSession({ expiresAt: at(1001) });
    const resolved = makeSession({ status: 'resolved', resolvedAt: at(10), expiresAt: at(10) });
    for (const session of [due, dueExactly, notYet, resolved]) await store().insertSession(session);

    expect(await store().expireSessions(now)).toBe(2);
    expect(await store().getSession(due.widgetId, due.id)).toEqual({ ...due, status: 'expired' });
    expect(await store().getSession(dueExactly.widgetId, dueExactly.id)).toEqual({ ...dueExactly, status: 'expired' });
    expect(await store().getSession(notYet.widgetId, notYet.id)).toEqual(notYet);
    expect(await store().getSession(resolved.widgetId, resolved.id)).toEqual(resolved);
    expect(await store().expireSessions(now)).toBe(0);
  });
}
