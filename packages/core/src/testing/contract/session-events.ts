import { expect, it } from 'vitest';
import type { StoreSignal } from '../../store/turn-job-store.js';
import type { NewSessionEvent } from '../../store/session-event-store.js';
import type { Store } from '../../store/store.js';
import { at, makeMessage, makeSession } from '../fixtures.js';

const event = (overrides: Partial<NewSessionEvent> = {}): NewSessionEvent => ({
  accountId: 'acct_fixture',
  widgetId: 'wgt_fixture',
  sessionId: 'sess_one',
  type: 'session.updated',
  data: { sessionId: 'sess_one', status: 'active', nested: { handoff: null } },
  createdAt: at(1),
  ...overrides,
});

/** Handoff state, operator messages, the session event log and the operators' session list (issue 13). */
export function sessionEventContract(store: () => Store): void {
  it('keeps a session\'s handoff and creator key, patches and clears the handoff, and an operator message\'s author', async () => {
    const session = makeSession({ creatorKeyId: 'key_creator', handoff: { state: 'requested', since: at(3), operator: null } });
    await store().insertSession(session);
    expect(await store().getSession(session.widgetId, session.id)).toEqual(session);
    const active = { state: 'active' as const, since: at(4), operator: { id: null, name: 'Dana' } };
    expect(await store().updateSession(session.widgetId, session.id, { handoff: active })).toEqual({ ...session, handoff: active });
    expect(await store().updateSession(session.widgetId, session.id, { handoff: null })).toEqual({ ...session, handoff: null });
    expect((await store().lockSession(session.widgetId, session.id))?.handoff).toBeNull();

    const byOperator = makeMessage({ widgetId: session.widgetId, sessionId: session.id, seq: 1, author: { type: 'operator', name: 'Dana' } });
    const byAi = makeMessage({ widgetId: session.widgetId, sessionId: session.id, seq: 2 });
    await store().insertMessage(byOperator);
    await store().insertMessage(byAi);
    const listed = await store().listMessages({ widgetId: session.widgetId, sessionId: session.id, limit: 10 });
    expect(listed).toEqual([byOperator, byAi]);
    expect('author' in listed[1]!).toBe(false);
  });

  it('appends events with increasing ids and reads them per session and per account after an id', async () => {
    expect(await store().lastSessionEventId({ accountId: 'acct_fixture' })).toBeNull();
    const first = await store().appendSessionEvent(event());
    const other = await store().appendSessionEvent(event({ sessionId: 'sess_two', type: 'message.created', data: { messageId: 'msg_1' } }));
    const third = await store().appendSessionEvent(event({ data: { sessionId: 'sess_one', status: 'resolved' } }));
    const foreign = await store().appendSessionEvent(event({ accountId: 'acct_other', widgetId: 'wgt_other' }));
    expect(BigInt(first) < BigInt(other) && BigInt(other) < BigInt(third) && BigInt(third) < BigInt(foreign)).toBe(true);

    const mine = await store().listSessionEvents({ widgetId: 'wgt_fixture', sessionId: 'sess_one', afterId: null, limit: 10 });
    expect(mine).toEqual([
      { ...event(), id: first },
      { ...event({ data: { sessionId: 'sess_one', status: 'resolved' } }), id: third },
    ]);
    expect(await store().listSessionEvents({ widgetId: 'wgt_fixture', sessionId: 'sess_one', afterId: first, limit: 10 })).toEqual([mine[1]]);
    expect(await store().listSessionEvents({ widgetId: 'wgt_fixture', sessionId: 'sess_one', afterId: null, limit: 1 })).toEqual([mine[0]]);

    const account = await store().listAccountEvents({ accountId: 'acct_fixture', afterId: null, limit: 10 });
    expect(account.map((row) => [row.id, row.sessionId, row.type])).toEqual([
      [first, 'sess_one', 'session.updated'],
      [other, 'sess_two', 'message.created'],
      [third, 'sess_one', 'session.updated'],
    ]);
    expect((await store().listAccountEvents({ accountId: 'acct_fixture', afterId: other, limit: 10 })).map((row) => row.id)).toEqual([third]);
    expect(await store().lastSessionEventId({ accountId: 'acct_fixture' })).toBe(third);
    expect(await store().lastSessionEventId({ accountId: 'acct_fixture', session: { widgetId: 'wgt_fixture', sessionId: 'sess_two' } })).toBe(other);
    expect(await store().lastSessionEventId({ accountId: 'acct_other', session: { widgetId: 'wgt_fixture', sessionId: 'sess_one' } })).toBeNull();
  });

  it('deletes events created before an instant, oldest first, at most a limit at a time', async () => {
    const old = [await store().appendSessionEvent(event({ createdAt: at(1) })), await store().appendSessionEvent(event({ createdAt: at(2) }))];
    const kept = await store().appendSessionEvent(event({ createdAt: at(10) }));
    expect(await store().deleteSessionEventsBefore(at(5), 1)).toBe(1);
    expect(await store().deleteSessionEventsBefore(at(5), 10)).toBe(1);
    expect(await store().deleteSessionEventsBefore(at(5), 10)).toBe(0);
    const left = await store().listSessionEvents({ widgetId: 'wgt_fixture', sessionId: 'sess_one', afterId: null, limit: 10 });
    expect(left.map((row) => row.id)).toEqual([kept]);
    expect(old).toHaveLength(2);
  });

  it('drops the events of a rolled-back transaction and tells subscribers only after the commit', async () => {
    const heard: StoreSignal[] = [];
    const stop = store().subscribeSignals((notice) => heard.push(notice));
    await expect(
      store().transaction(async (tx) => {
        await tx.appendSessionEvent(event());
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    const kept = await store().transaction((tx) => tx.appendSessionEvent(event({ sessionId: 'sess_kept' })));
    expect((await store().listAccountEvents({ accountId: 'acct_fixture', afterId: null, limit: 10 })).map((row) => row.id)).toEqual([kept]);
    await expect.poll(() => heard.filter((notice) => notice.type === 'session-event')).toEqual([
      { type: 'session-event', accountId: 'acct_fixture', widgetId: 'wgt_fixture', sessionId: 'sess_kept' },
    ]);
    stop();
  });

  it('lists an account\'s sessions newest first with filters and a keyset position', async () => {
    const sessions = [
      makeSession({ id: 'sess_a', createdAt: at(1), widgetId: 'wgt_1' }),
      makeSession({ id: 'sess_b', createdAt: at(2), widgetId: 'wgt_2', status: 'resolved', rating: 'positive', resolvedAt: at(3) }),
      makeSession({ id: 'sess_c', createdAt: at(3), widgetId: 'wgt_1', handoff: { state: 'requested', since: at(4), operator: null } }),
      makeSession({ id: 'sess_d', createdAt: at(3), widgetId: 'wgt_2', handoff: { state: 'active', since: at(5), operator: { id: 'op_1', name: 'Ana' } } }),
      makeSession({ id: 'sess_x', createdAt: at(4), accountId: 'acct_other' }),
    ];
    for (const session of sessions) await store().insertSession(session);
    const ids = async (query: Partial<Parameters<Store['listSessions']>[0]>): Promise<string[]> =>
      (await store().listSessions({ accountId: 'acct_fixture', limit: 10, ...query })).map((session) => session.id);

    expect(await ids({})).toEqual(['sess_d', 'sess_c', 'sess_b', 'sess_a']);
    expect(await ids({ widgetId: 'wgt_1' })).toEqual(['sess_c', 'sess_a']);
    expect(await ids({ handoff: 'requested' })).toEqual(['sess_c']);
    expect(await ids({ handoff: 'active' })).toEqual(['sess_d']);
    expect(await ids({ handoff: 'none' })).toEqual(['sess_b', 'sess_a']);
    expect(await ids({ status: 'resolved', rating: 'positive' })).toEqual(['sess_b']);
    expect(await ids({ from: at(2), to: at(3) })).toEqual(['sess_b']);
    expect(await ids({ limit: 2 })).toEqual(['sess_d', 'sess_c']);
    expect(await ids({ before: { createdAt: at(3), widgetId: 'wgt_1', sessionId: 'sess_c' } })).toEqual(['sess_b', 'sess_a']);
    expect(await store().listSessions({ accountId: 'acct_fixture', handoff: 'active', limit: 10 })).toEqual([sessions[3]]);
  });
}
