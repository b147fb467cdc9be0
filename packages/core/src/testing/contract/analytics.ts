import { expect, it } from 'vitest';
import { zeroCredits } from '../../credits.js';
import type { Session } from '../../domain.js';
import type { AnalyticsQuery } from '../../store/analytics-store.js';
import type { Store } from '../../store/store.js';
import { makeLedgerEntry, makeMessage, makeSession } from '../fixtures.js';

const ACCOUNT = 'acct_an';
const WIDGET = 'wgt_an';
const day = (date: string, hour = 12): Date => new Date(`${date}T${String(hour).padStart(2, '0')}:00:00.000Z`);

/** March 2026: sessions on the 2nd (two), the 3rd, and outside the range or the account. */
const QUERY: AnalyticsQuery = { accountId: ACCOUNT, from: day('2026-03-02', 0), to: day('2026-03-04', 0), now: day('2026-03-10') };

async function session(store: Store, overrides: Partial<Session>): Promise<Session> {
  const created = makeSession({ accountId: ACCOUNT, widgetId: WIDGET, expiresAt: day('2026-04-01'), ...overrides });
  await store.insertSession(created);
  return created;
}

export function analyticsContract(store: () => Store): void {
  it('counts sessions per UTC day, how they ended, their ratings and messages, within the range and account only', async () => {
    const s = store();
    // Concluded by the agent: a reply marked sessionEnded.
    const byAgent = await session(s, { id: 'sess_agent', createdAt: day('2026-03-02', 0), status: 'resolved', rating: 'positive', messageCount: 4 });
    await s.insertMessage(makeMessage({ widgetId: WIDGET, sessionId: byAgent.id, seq: 1, role: 'user', sessionEnded: false, credits: null, usage: null }));
    await s.insertMessage(makeMessage({ widgetId: WIDGET, sessionId: byAgent.id, seq: 2, sessionEnded: true }));
    // Ended by the visitor: resolved with no concluding reply.
    const ended = await session(s, { id: 'sess_ended', createdAt: day('2026-03-02', 23), status: 'resolved', rating: 'negative', messageCount: 2 });
    await s.insertMessage(makeMessage({ widgetId: WIDGET, sessionId: ended.id, seq: 1, sessionEnded: false }));
    await session(s, { id: 'sess_expired', createdAt: day('2026-03-03'), status: 'expired', rating: 'positive', messageCount: 1 });
    // Still marked active but idle past its expiry at `now`: expired, as any read would show it.
    await session(s, { id: 'sess_idle', createdAt: day('2026-03-03', 1), status: 'active', expiresAt: day('2026-03-04') });
    await session(s, { id: 'sess_open', createdAt: day('2026-03-03', 2), status: 'active', messageCount: 3 });
    // Outside: the day after the range, the instant `to`, another account, another widget of the account (kept).
    await session(s, { id: 'sess_late', createdAt: day('2026-03-04', 0) });
    await session(s, { id: 'sess_early', createdAt: new Date(day('2026-03-02', 0).getTime() - 1) });
    await session(s, { id: 'sess_other', accountId: 'acct_other', createdAt: day('2026-03-02') });
    await session(s, { id: 'sess_w2', widgetId: 'wgt_an2', createdAt: day('2026-03-03'), status: 'resolved', messageCount: 5 });

    expect(await s.analyzeSessions(QUERY)).toEqual({
      sessions: 6,
      messages: 15,
      perDay: [
        { date: '2026-03-02', count: 2 },
        { date: '2026-03-03', count: 4 },
      ],
      resolutions: { agent: 1, ended: 2, operator: 0, expired: 2 },
      ratings: { positive: 2, negative: 1 },
      handedOff: 0,
      turnsPerDay: [],
    });
    expect(await s.analyzeSessions({ ...QUERY, widgetId: WIDGET })).toMatchObject({
      sessions: 5,
      messages: 10,
      perDay: [
        { date: '2026-03-02', count: 2 },
        { date: '2026-03-03', count: 3 },
      ],
      resolutions: { agent: 1, ended: 1, operator: 0, expired: 2 },
    });
    expect(await s.analyzeSessions({ ...QUERY, accountId: 'acct_nobody' })).toEqual({
      sessions: 0,
      messages: 0,
      perDay: [],
      resolutions: { agent: 0, ended: 0, operator: 0, expired: 0 },
      ratings: { positive: 0, negative: 0 },
      handedOff: 0,
      turnsPerDay: [],
    });
  });

  it('counts the sessions ever handed off and those an operator resolved, apart from the agent and the visitor', async () => {
    const s = store();
    // Taken over, then resolved by the operator: the handoff ends with the resolution, what happened stays recorded.
    await session(s, { id: 'sess_taken', createdAt: day('2026-03-02') });
    await s.updateSession(WIDGET, 'sess_taken', { handoff: { state: 'active', since: day('2026-03-02', 13), operator: { id: null, name: 'Ana' } }, handedOff: true });
    await s.updateSession(WIDGET, 'sess_taken', { status: 'resolved', resolvedAt: day('2026-03-02', 14), handoff: null, resolvedByOperator: true });
    expect(await s.getSession(WIDGET, 'sess_taken')).toMatchObject({ status: 'resolved', handoff: null, handedOff: true, resolvedByOperator: true });
    // Asked for a person, released back to the AI, then concluded by the agent: handed off, resolved by the agent.
    const released = await session(s, { id: 'sess_released', createdAt: day('2026-03-02', 15), status: 'resolved', handedOff: true });
    await s.insertMessage(makeMessage({ widgetId: WIDGET, sessionId: released.id, seq: 1, sessionEnded: true }));
    // Still waiting for a person.
    await session(s, { id: 'sess_waiting', createdAt: day('2026-03-03'), handoff: { state: 'requested', since: day('2026-03-03'), operator: null }, handedOff: true });
    // Resolved by an operator without a takeover; and one the visitor ended, never handed off.
    await session(s, { id: 'sess_closed', createdAt: day('2026-03-03', 5), status: 'resolved', resolvedByOperator: true });
    await session(s, { id: 'sess_plain', createdAt: day('2026-03-03', 6), status: 'resolved' });
    // Outside the range, and of another account.
    await session(s, { id: 'sess_late', createdAt: day('2026-03-04', 0), status: 'resolved', handedOff: true, resolvedByOperator: true });
    await session(s, { id: 'sess_other', accountId: 'acct_other', createdAt: day('2026-03-02'), status: 'resolved', handedOff: true, resolvedByOperator: true });

    expect(await s.analyzeSessions(QUERY)).toMatchObject({
      sessions: 5,
      resolutions: { agent: 1, ended: 1, operator: 2, expired: 0 },
      handedOff: 3,
    });
    expect(await s.analyzeSessions({ ...QUERY, from: day('2026-03-03', 0) })).toMatchObject({
      sessions: 3,
      resolutions: { agent: 0, ended: 1, operator: 1, expired: 0 },
      handedOff: 1,
    });
  });

  it('sums ledger credits per bucket and in all, within the range, account and widget', async () => {
    const s = store();
    const entry = (id: string, overrides: Parameters<typeof makeLedgerEntry>[0]) => s.insertLedgerEntry(makeLedgerEntry({ id, accountId: ACCOUNT, widgetId: WIDGET, ...overrides }));
    await entry('led_1', { createdAt: day('2026-03-02'), credits: { ...zeroCredits(), chat: 0.1, retrieval: 1 }, total: 1.1 });
    await entry('led_2', { createdAt: day('2026-03-03'), credits: { ...zeroCredits(), chat: 0.2, rerank: 0.5 }, total: 0.7 });
    await entry('led_3', { createdAt: day('2026-03-03'), widgetId: null, operation: 'knowledge.search', credits: { ...zeroCredits(), retrieval: 1 }, total: 1 });
    await entry('led_late', { createdAt: day('2026-03-04', 0), credits: { ...zeroCredits(), chat: 50 }, total: 50 });
    await entry('led_other', { accountId: 'acct_other', createdAt: day('2026-03-02'), credits: { ...zeroCredits(), chat: 70 }, total: 70 });

    expect(await s.analyzeLedger(QUERY)).toEqual({ credits: { ...zeroCredits(), chat: 0.3, retrieval: 2, rerank: 0.5 }, total: 2.8 });
    expect(await s.analyzeLedger({ ...QUERY, widgetId: WIDGET })).toEqual({ credits: { ...zeroCredits(), chat: 0.3, retrieval: 1, rerank: 0.5 }, total: 1.8 });
    expect(await s.analyzeLedger({ ...QUERY, accountId: 'acct_nobody' })).toEqual({ credits: zeroCredits(), total: 0 });
  });

  it('counts turns by outcome on the day of the reply, and never an evaluation session or its turns', async () => {
    const s = store();
    const visitor = await session(s, { id: 'sess_turns', createdAt: day('2026-03-01', 23), messageCount: 4 });
    type Reply = { seq: number; outcome: 'answered' | 'unanswered' | 'handed_off' | 'form'; at: Date; sessionId?: string };
    const reply = ({ seq, outcome, at, sessionId = visitor.id }: Reply) => s.insertMessage(makeMessage({ widgetId: WIDGET, sessionId, seq, outcome, createdAt: at }));
    // The session started the day before the range; its turns count on their own days.
    await reply({ seq: 1, outcome: 'answered', at: day('2026-03-02', 1) });
    await reply({ seq: 2, outcome: 'unanswered', at: day('2026-03-02', 2) });
    await reply({ seq: 3, outcome: 'handed_off', at: day('2026-03-03', 3) });
    await reply({ seq: 4, outcome: 'form', at: day('2026-03-03', 4) });
    await s.insertMessage(makeMessage({ widgetId: WIDGET, sessionId: visitor.id, seq: 5, role: 'user', credits: null, usage: null, createdAt: day('2026-03-03', 5) }));
    await reply({ seq: 6, outcome: 'answered', at: day('2026-03-04', 0) });
    const evaluation = await session(s, { id: 'sess_eval', createdAt: day('2026-03-02'), purpose: 'evaluation', status: 'resolved', messageCount: 2 });
    await reply({ seq: 1, outcome: 'answered', at: day('2026-03-02', 3), sessionId: evaluation.id });
    await s.updateSession(WIDGET, evaluation.id, { rating: 'negative', handedOff: true });

    const report = await s.analyzeSessions(QUERY);
    expect(report.turnsPerDay).toEqual([
      { date: '2026-03-02', turns: 2, answered: 1, unanswered: 1, handedOff: 0, feedbackUp: 0, feedbackDown: 0 },
      { date: '2026-03-03', turns: 2, answered: 0, unanswered: 0, handedOff: 1, feedbackUp: 0, feedbackDown: 0 },
    ]);
    expect(report).toMatchObject({ sessions: 0, messages: 0, perDay: [], ratings: { positive: 0, negative: 0 }, handedOff: 0 });
    expect(report.resolutions).toEqual({ agent: 0, ended: 0, operator: 0, expired: 0 });
    expect((await s.analyzeSessions({ ...QUERY, widgetId: 'wgt_none' })).turnsPerDay).toEqual([]);
  });
}
