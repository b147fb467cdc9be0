import { describe, expect, it } from 'vitest';
import type { Agent } from '../agent.js';
import { manualClock } from '../clock.js';
import { defaultIds } from '../ids.js';
import { createEngineHarness, agentReply } from '../testing/engine-harness.js';
import { makeWidget } from '../testing/fixtures.js';
import { createAdmin } from './admin.js';
import { acceptHandoff, releaseHandoff, replyAsOperator, resolveConversation } from './conversations.js';

/** Concludes the conversation when the visitor says bye, asks for a person when they ask for one; echoes otherwise. */
const agent: Agent = {
  async reply(request) {
    return agentReply(`echo: ${request.message}`, { sessionEnded: request.message === 'bye', handoff: request.message.includes('person') });
  },
};

async function setup() {
  const clock = manualClock('2026-06-01T10:00:00.000Z');
  const h = await createEngineHarness({ agent, clock });
  const admin = createAdmin({ store: h.store, clock, urlProblem: () => null });
  const start = async (visitorId: string) => (await h.engine.createSession(h.principal, h.widget.id, { visitorId })).data.sessionId;
  const say = (sessionId: string, content: string) => h.engine.sendMessage(h.principal, h.widget.id, sessionId, { content });
  return { clock, h, admin, start, say };
}

describe('admin.analytics', () => {
  it('reports conversations per day, how they ended, ratings, credits by bucket and totals, from what the engine did', async () => {
    const { clock, h, admin, start, say } = await setup();
    const concluded = await start('v1');
    await say(concluded, 'hello');
    await say(concluded, 'bye');
    await h.engine.rateSession(h.principal, h.widget.id, concluded, { rating: 'positive' });
    clock.advance(86_400_000);
    const ended = await start('v2');
    await say(ended, 'hi');
    await h.engine.endSession(h.principal, h.widget.id, ended);
    await h.engine.rateSession(h.principal, h.widget.id, ended, { rating: 'negative' });
    const open = await start('v3');
    await say(open, 'still here');

    const report = await admin.analytics(h.accountId, { from: '2026-05-31', to: '2026-06-04' });
    expect(report.conversationsPerDay).toEqual([
      { date: '2026-05-31', count: 0 },
      { date: '2026-06-01', count: 1 },
      { date: '2026-06-02', count: 2 },
      { date: '2026-06-03', count: 0 },
    ]);
    expect(report.resolutions).toEqual({ agent: 1, ended: 1, operator: 0, expired: 0 });
    expect(report.ratings).toEqual({ positive: 1, negative: 1 });
    expect(report.handoffRate).toBe(0);
    const ledger = await h.store.listLedgerEntries(h.accountId, 100);
    const charged = ledger.reduce((sum, entry) => sum + entry.total, 0);
    expect(report.totals).toEqual({ conversations: 3, messages: 8, credits: expect.closeTo(charged, 6) });
    expect(report.totals.credits).toBeGreaterThan(0);
    expect(report.creditsByBucket.map((b) => b.bucket)).toEqual(['chat', 'retrieval', 'orchestration', 'embedding', 'rerank', 'plugin', 'pluginRerank', 'crawler']);
    expect(report.creditsByBucket.reduce((sum, b) => sum + b.credits, 0)).toBeCloseTo(charged, 6);

    // Idle past the widget's TTL, the open conversation counts as expired even before any sweep marks it.
    clock.advance(h.widget.sessionTtlSeconds * 1000 + 1);
    expect((await admin.analytics(h.accountId, { from: '2026-05-31', to: '2026-06-04' })).resolutions).toEqual({ agent: 1, ended: 1, operator: 0, expired: 1 });
    // One day only.
    expect((await admin.analytics(h.accountId, { from: new Date('2026-06-01T00:00:00Z'), to: new Date('2026-06-02T00:00:00Z') })).totals.conversations).toBe(1);
  });

  it('counts conversations ever handed to a person in the handoff rate, and those an operator resolved as operator', async () => {
    const { clock, h, admin, start, say } = await setup();
    const ports = { store: h.store, clock, ids: defaultIds };
    const operator = { id: null, name: 'Dana' };
    // Asked for a person through the agent, answered and resolved by the operator.
    const taken = await start('v1');
    await say(taken, 'a person please');
    await replyAsOperator(ports, h.accountId, h.widget.id, taken, operator, 'Dana here, how can I help?');
    await resolveConversation(ports, h.accountId, h.widget.id, taken);
    // Taken over straight from the inbox, released back to the AI, then concluded by the agent.
    const released = await start('v2');
    await say(released, 'hello');
    await acceptHandoff(ports, h.accountId, h.widget.id, released, operator);
    await releaseHandoff(ports, h.accountId, h.widget.id, released);
    await say(released, 'bye');
    // Resolved by an operator without a handoff.
    const closed = await start('v3');
    await say(closed, 'hi');
    await resolveConversation(ports, h.accountId, h.widget.id, closed);
    // Ended by the visitor, and one still waiting for a person.
    const ended = await start('v4');
    await h.engine.endSession(h.principal, h.widget.id, ended);
    await say(await start('v5'), 'I need a person');

    const report = await admin.analytics(h.accountId, { from: '2026-06-01', to: '2026-06-02' });
    expect(report.resolutions).toEqual({ agent: 1, ended: 1, operator: 2, expired: 0 });
    expect(report.handoffRate).toBeCloseTo(3 / 5, 10);
    expect(report.totals.conversations).toBe(5);
    // Resolving an already resolved conversation changes nothing.
    await resolveConversation(ports, h.accountId, h.widget.id, ended);
    expect((await admin.analytics(h.accountId, { from: '2026-06-01', to: '2026-06-02' })).resolutions).toEqual({ agent: 1, ended: 1, operator: 2, expired: 0 });
  });

  it("is the caller's account only: another account sees nothing, and another account's widget is a 404", async () => {
    const { h, admin, start } = await setup();
    await start('v1');
    const other = await admin.createAccount({ name: 'Other' });
    const report = await admin.analytics(other.id, { from: '2026-06-01', to: '2026-06-02' });
    expect(report.totals).toEqual({ conversations: 0, messages: 0, credits: 0 });
    await expect(admin.analytics(other.id, { from: '2026-06-01', to: '2026-06-02', widgetId: h.widget.id })).rejects.toMatchObject({ code: 'widget_not_found', status: 404 });
    const second = makeWidget({ id: 'wgt_second', accountId: h.accountId });
    await h.store.insertWidget(second);
    expect((await admin.analytics(h.accountId, { from: '2026-06-01', to: '2026-06-02', widgetId: second.id })).totals.conversations).toBe(0);
    expect((await admin.analytics(h.accountId, { from: '2026-06-01', to: '2026-06-02', widgetId: h.widget.id })).totals.conversations).toBe(1);
  });

  it.each([
    [{ from: 'yesterday', to: '2026-06-02' }, 'from'],
    [{ from: '2026-06-01', to: '' }, 'to'],
    [{ from: '2026-06-02', to: '2026-06-01' }, 'to'],
    [{ from: '2024-01-01', to: '2026-01-01' }, 'to'],
  ])('refuses the range %j naming %s', async (range, field) => {
    const { h, admin } = await setup();
    await expect(admin.analytics(h.accountId, range)).rejects.toMatchObject({ code: 'validation_failed', status: 400, field });
  });
});
