import { describe, expect, it } from 'vitest';
import type { Agent } from '../agent.js';
import { createCore } from '../core.js';
import { createMemoryStore } from '../store/memory-store.js';
import { agentReply } from '../testing/engine-harness.js';
import { makeAccount, makeApiKey, makeWidget } from '../testing/fixtures.js';
import { checkExpectations, parseEvalSuite } from './evals.js';

const TENTS = { documentId: 'doc_tents', title: 'Tents and shelters', url: 'https://shop.example/tents' };

/** A shop assistant: tents are answered with a source, the weather is declined, a person is a handoff, bye ends. */
function shopAgent(state: { forgetTents: boolean }): Agent {
  return {
    async reply(request) {
      const text = request.message.toLowerCase();
      if (text.includes('person')) return agentReply('Connecting you to a person.', { handoff: true, outcome: 'handed_off' });
      if (text.includes('bye')) return agentReply('Goodbye!', { sessionEnded: true, outcome: 'ended' });
      if (text.includes('tent') && !state.forgetTents) return agentReply('Our tents sleep 2 to 6 people.', { sources: [TENTS], outcome: 'answered', confidence: 0.9 });
      return agentReply("I don't know that, sorry.", { sources: [], outcome: 'unanswered', confidence: 0.1 });
    },
  };
}

async function setup() {
  const store = createMemoryStore();
  const state = { forgetTents: false };
  const account = makeAccount({ balance: 100 });
  const widget = makeWidget({ accountId: account.id, knowledgeBaseIds: [] });
  const key = makeApiKey({ accountId: account.id, callbackUrl: null, callbackSecret: null });
  await store.insertAccount(account);
  await store.insertWidget(widget);
  await store.insertApiKey(key);
  const core = createCore({ store, agent: shopAgent(state), cursorSecret: 'evals-test-cursor-secret', urlProblem: () => null });
  return { store, state, account, widget, key, core };
}

const SUITE = {
  name: 'shop',
  cases: [
    { name: 'tents', question: 'Which tents do you sell?', expect: { answered: true, cites: ['Tents and shelters'], contains: 'tents' } },
    { name: 'weather', question: 'Will it rain tomorrow?', expect: { answered: false, notContains: 'tents' } },
    { name: 'person', turns: ['Hello', 'I want a person'], expect: { handoff: true } },
    { name: 'bye', question: 'bye', expect: { ended: true } },
    { name: 'wrong', question: 'Which tents?', expect: { answered: false, form: true } },
  ],
};

describe('eval runs', () => {
  it('runs each case as a conversation on evaluation sessions: verdicts and failures, nothing billed, counted or listed', async () => {
    const { store, account, widget, core } = await setup();
    const run = await core.admin.runEvalSuite(account.id, widget.id, SUITE);
    expect(run).toMatchObject({ suite: 'shop', status: 'failed', total: 5, passed: 4, failed: 1, previousRunId: null, regressions: [], error: null });
    expect(run.id).toMatch(/^evr_/);
    expect(run.cases.map((c) => [c.name, c.passed])).toEqual([
      ['tents', true],
      ['weather', true],
      ['person', true],
      ['bye', true],
      ['wrong', false],
    ]);
    expect(run.cases[0]).toMatchObject({ reply: 'Our tents sleep 2 to 6 people.', sources: [TENTS], failures: [] });
    expect(run.cases[4]!.failures).toEqual(['answered: expected false, got true (outcome answered)', 'form: expected true, got no form']);

    // Never billed: the balance stands and no ledger row was written.
    expect((await store.getAccount(account.id))!.balance).toBe(100);
    expect(await store.listLedgerEntries(account.id, 10)).toEqual([]);
    // The sessions are evaluation ones: out of the conversations list unless asked for, out of analytics.
    const session = await store.getSession(widget.id, run.cases[0]!.sessionId!);
    expect(session).toMatchObject({ purpose: 'evaluation', visitorId: `eval_${run.id}`, status: 'resolved' });
    expect((await core.admin.listConversations(account.id)).items).toEqual([]);
    expect((await core.admin.listConversations(account.id, { purpose: 'evaluation' })).items).toHaveLength(5);
    const report = await core.admin.analytics(account.id, {});
    expect(report.totals).toMatchObject({ conversations: 0, messages: 0, credits: 0 });
    expect(report.turns.turns).toBe(0);
    // The handoff asked for no operator: no session event, no webhook.
    expect(await store.listAccountEvents({ accountId: account.id, afterId: null, limit: 10 })).toEqual([]);

    expect(await core.admin.getEvalRun(account.id, { widgetId: widget.id, runId: run.id })).toEqual(run);
  });

  it('compares a run with the previous one of its suite and names the regressions', async () => {
    const { state, account, widget, core } = await setup();
    const first = await core.admin.runEvalSuite(account.id, widget.id, SUITE);
    state.forgetTents = true;
    const second = await core.admin.runEvalSuite(account.id, widget.id, SUITE);
    expect(second).toMatchObject({ previousRunId: first.id, regressions: ['tents'], status: 'failed' });
    // "wrong" failed before and fails now: not a regression; another suite's runs are not compared with.
    expect(second.cases.find((c) => c.name === 'wrong')!.passed).toBe(false);
    const other = await core.admin.runEvalSuite(account.id, widget.id, { ...SUITE, name: 'other' });
    expect(other.previousRunId).toBeNull();

    const page = await core.admin.listEvalRuns(account.id, widget.id, { limit: 2 });
    expect(page.items.map((r) => r.id)).toEqual([other.id, second.id]);
    const rest = await core.admin.listEvalRuns(account.id, widget.id, { limit: 2, cursor: page.nextCursor! });
    expect(rest).toEqual({ items: [expect.objectContaining({ id: first.id })], nextCursor: null });
    expect((await core.admin.listEvalRuns(account.id, widget.id, { suite: 'other' })).items.map((r) => r.id)).toEqual([other.id]);
  });

  it('starts a run in the background: queued at once, finished later', async () => {
    const { account, widget, core } = await setup();
    const queued = await core.admin.startEvalRun(account.id, widget.id, SUITE);
    expect(queued).toMatchObject({ status: 'queued', cases: [], total: 0 });
    let run = queued;
    for (let i = 0; i < 100 && (run.status === 'queued' || run.status === 'running'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      run = await core.admin.getEvalRun(account.id, { widgetId: widget.id, runId: queued.id });
    }
    expect(run).toMatchObject({ status: 'failed', total: 5, passed: 4 });
  });

  it('refuses a bad suite naming the case and the field, and another account\'s widget as missing', async () => {
    const { account, widget, core } = await setup();
    const bad = { name: 'shop', cases: [{ name: 'ok', question: 'hi' }, { name: 'refunds', question: 'Refunds?', expect: { answered: 'yes' } }] };
    await expect(core.admin.startEvalRun(account.id, widget.id, bad)).rejects.toMatchObject({
      code: 'validation_failed',
      status: 400,
      field: 'cases.1.expect.answered',
      message: expect.stringContaining('Case 2 "refunds"'),
    });
    await expect(core.admin.startEvalRun(account.id, widget.id, { name: 'x', cases: [{ name: 'both', question: 'a', turns: ['b'] }] })).rejects.toMatchObject({
      field: 'cases.0.turns',
      message: expect.stringContaining('Case 1 "both"'),
    });
    await expect(core.admin.startEvalRun(account.id, widget.id, { name: 'x', cases: [{ name: 'a', question: 'a' }, { name: 'a', question: 'b' }] })).rejects.toMatchObject({
      field: 'cases.1.name',
    });
    await expect(core.admin.startEvalRun(account.id, widget.id, { cases: [{ name: 'a', question: 'a' }] })).rejects.toMatchObject({ field: 'name' });
    await expect(core.admin.startEvalRun('acct_other', widget.id, SUITE)).rejects.toMatchObject({ code: 'widget_not_found', status: 404 });
    expect(parseEvalSuite({ cases: [{ name: 'a', question: 'a' }] }, { name: 'from-file' }).name).toBe('from-file');
  });

  it('stores suites per widget and turns a conversation into a case', async () => {
    const { account, widget, key, core } = await setup();
    const principal = { accountId: account.id, keyId: key.id, kind: 'secret' as const, scopes: key.scopes, callbackUrl: null, replyFormat: key.replyFormat, widgetId: null, identity: null };
    const { data } = await core.api.createSession(principal, widget.id, { visitorId: 'v1' });
    await core.api.sendMessage(principal, widget.id, data.sessionId, { content: 'Hello there' });
    await core.api.sendMessage(principal, widget.id, data.sessionId, { content: 'Which tent for 4 people?' });

    const suite = await core.admin.addEvalCase(account.id, { widgetId: widget.id, name: 'from-chats' }, { sessionId: data.sessionId });
    expect(suite.cases).toEqual([{ name: 'Hello there', turns: ['Hello there', 'Which tent for 4 people?'], expect: { cites: ['Tents and shelters'], answered: true } }]);
    const again = await core.admin.addEvalCase(account.id, { widgetId: widget.id, name: 'from-chats' }, { sessionId: data.sessionId });
    expect(again.cases.map((c) => c.name)).toEqual(['Hello there', 'Hello there (2)']);
    await expect(core.admin.addEvalCase(account.id, { widgetId: widget.id, name: 'from-chats' }, { sessionId: 'sess_nope' })).rejects.toMatchObject({
      code: 'session_not_found',
      field: 'sessionId',
    });

    await core.admin.putEvalSuite(account.id, { widgetId: widget.id, name: 'shop' }, { cases: SUITE.cases });
    expect((await core.admin.listEvalSuites(account.id, widget.id)).map((s) => s.name)).toEqual(['from-chats', 'shop']);
    expect((await core.admin.getEvalSuite(account.id, { widgetId: widget.id, name: 'shop' })).cases).toHaveLength(5);
    await expect(core.admin.getEvalSuite(account.id, { widgetId: widget.id, name: 'none' })).rejects.toMatchObject({ code: 'not_found', status: 404 });
    await expect(core.admin.putEvalSuite(account.id, { widgetId: widget.id, name: 'shop' }, { name: 'other', cases: SUITE.cases })).rejects.toMatchObject({ field: 'name' });
    // A stored suite runs again: the run of the stored cases passes the replayed conversation.
    const run = await core.admin.runEvalSuite(account.id, widget.id, await core.admin.getEvalSuite(account.id, { widgetId: widget.id, name: 'from-chats' }).then((s) => ({ name: s.name, cases: s.cases })));
    expect(run).toMatchObject({ status: 'passed', passed: 2 });
  });

  it('runs 200 cases with bounded concurrency, quickly', async () => {
    const { account, widget, core } = await setup();
    const cases = Array.from({ length: 200 }, (_, i) => ({ name: `case ${i}`, turns: ['Hello', `Which tent number ${i}?`], expect: { answered: true } }));
    const started = Date.now();
    const run = await core.admin.runEvalSuite(account.id, widget.id, { name: 'big', cases });
    expect(run).toMatchObject({ status: 'passed', total: 200, passed: 200 });
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe('checkExpectations', () => {
  const reply = { content: 'Our Tents sleep four.', sources: [TENTS], outcome: 'answered' as const, forms: [], sessionEnded: false };
  const observed = { replies: [reply as never], session: null };
  it('matches sources by id, title (any case) or URL, and phrases ignoring case', () => {
    expect(checkExpectations({ cites: ['doc_tents', 'tents and shelters', 'https://shop.example/tents'], contains: ['tents', 'FOUR'] }, observed)).toEqual([]);
    expect(checkExpectations({ cites: ['Returns'], notContains: 'four' }, observed)).toEqual([
      'cites: "Returns" is not among the sources [Tents and shelters]',
      'notContains: the reply contains "four"',
    ]);
  });
});
