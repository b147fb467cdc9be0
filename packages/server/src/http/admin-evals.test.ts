import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO_KNOWLEDGE } from '@svc/agents';
import { createMemoryStore } from '@svc/core';
import { operatorAdmin } from '../cli/operator-admin.js';
import { startAdminFixture, type AdminFixture, type Console } from '../testing/admin-api.js';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

const SUITE_YAML = `name: shop
cases:
  - name: payment
    question: Which payment methods do you accept?
    expect: { answered: true, cites: [Payment methods], contains: PayPal }
  - name: weather
    question: Will it snow on Mount Hood next weekend?
    expect: { answered: false }
  - name: wrong on purpose
    question: How can I track my order?
    expect: { answered: false }
`;

/** Eval suites and runs through the admin API (DESIGN.md section 12), over a real socket, with the local agent. */
describe('admin API: evals', () => {
  let f: AdminFixture;
  let owner: Console;
  let widgetId: string;
  beforeAll(async () => {
    f = await startAdminFixture(createMemoryStore());
    owner = await f.signIn('owner@acme.example');
    const admin = operatorAdmin(f.store);
    const { knowledgeBase } = await admin.importKnowledgeBase({ accountId: f.accountA.id, content: DEMO_KNOWLEDGE });
    widgetId = (await admin.createWidget({ accountId: f.accountA.id, name: 'Shop', knowledgeBaseIds: [knowledgeBase.id] })).id;
  });
  afterAll(() => f?.close());

  const as = (method: string, path: string, opts: { body?: unknown; headers?: Record<string, string> } = {}) =>
    f.call(method, `/admin/v1/widgets/${widgetId}/evals${path}`, { cookie: owner.cookie, ...(method === 'GET' ? {} : { csrf: owner.csrf }), ...opts });

  async function finished(runId: string) {
    for (let i = 0; i < 200; i++) {
      const read = await as('GET', `/runs/${runId}`);
      if (read.body.data.status !== 'queued' && read.body.data.status !== 'running') return read.body.data;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error('the run did not finish');
  }

  it('starts a run from a YAML body (202), finishes it with each case, and names regressions on the next run', async () => {
    const balance = (await f.store.getAccount(f.accountA.id))!.balance;
    // The fixture's `call` sends JSON; a YAML body goes as the text it is.
    const res = await fetch(`${f.server.url}/admin/v1/widgets/${widgetId}/evals/runs`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${f.adminKeyA}`, 'Content-Type': 'application/yaml', 'X-Forwarded-For': f.freshAddress() },
      body: SUITE_YAML,
    });
    expect(res.status).toBe(202);
    const queued = ((await res.json()) as { data: { id: string; status: string }; meta: { creditsConsumed: number } });
    expect(queued).toMatchObject({ data: { id: expect.stringMatching(/^evr_/), status: 'queued' }, meta: { creditsConsumed: 0 } });
    const run = await finished(queued.data.id);
    expect(run).toMatchObject({ suite: 'shop', status: 'failed', total: 3, passed: 2, failed: 1, regressions: [], previousRunId: null });
    expect(run.cases[0]).toMatchObject({ name: 'payment', passed: true, sources: [expect.objectContaining({ title: 'Payment methods' })] });
    expect(run.cases[2]).toMatchObject({ name: 'wrong on purpose', passed: false, failures: ['answered: expected false, got true (outcome answered)'] });
    // Never billed; evaluation sessions stay out of the inbox.
    expect((await f.store.getAccount(f.accountA.id))!.balance).toBe(balance);
    const inbox = await f.call('GET', `/admin/v1/conversations?widgetId=${widgetId}`, { cookie: owner.cookie });
    expect(inbox.body.data).toEqual([]);

    // The same suite as JSON, with "payment" now expecting what it does not say: a regression.
    const json = { name: 'shop', cases: [{ name: 'payment', question: 'Which payment methods do you accept?', expect: { contains: 'cash on delivery is welcome' } }] };
    const second = await as('POST', '/runs', { body: json });
    expect(second.status).toBe(202);
    expect(await finished(second.body.data.id)).toMatchObject({ previousRunId: run.id, regressions: ['payment'], status: 'failed' });

    const listed = await as('GET', '/runs?limit=1');
    expect(listed.body.data.map((r: { id: string }) => r.id)).toEqual([second.body.data.id]);
    const next = await as('GET', `/runs?limit=1&cursor=${encodeURIComponent(listed.body.meta.nextCursor)}`);
    expect(next.body.data.map((r: { id: string }) => r.id)).toEqual([run.id]);
    expect(next.body.meta.nextCursor).toBeNull();
  });

  it('refuses a bad suite with a 400 naming the case and the field, and what is not YAML', async () => {
    const bad = await as('POST', '/runs', { body: { name: 'shop', cases: [{ name: 'ok', question: 'hi' }, { name: 'typo', question: 'hi', expect: { answerd: true } }] } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'validation_failed', field: 'cases.1.expect.answerd', message: expect.stringContaining('Case 2 "typo"') });
    const notYaml = await fetch(`${f.server.url}/admin/v1/widgets/${widgetId}/evals/runs`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${f.adminKeyA}`, 'Content-Type': 'application/yaml', 'X-Forwarded-For': f.freshAddress() },
      body: 'cases: [unclosed',
    });
    expect(notYaml.status).toBe(400);
    expect(((await notYaml.json()) as { error: { field: string } }).error.field).toBe('body');
    expect((await as('GET', '/runs/evr_missing')).status).toBe(404);
    const otherTenant = await f.call('GET', `/admin/v1/widgets/${widgetId}/evals/runs`, { cookie: (await f.signIn('owner@beta.example')).cookie });
    expect(otherTenant.status).toBe(404);
  });

  it('stores suites per widget and adds a conversation as a case', async () => {
    const put = await as('PUT', '/suites/faq', { body: { cases: [{ name: 'hours', question: 'What are your customer service opening hours?' }] } });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({ name: 'faq', widgetId, cases: [{ name: 'hours', question: 'What are your customer service opening hours?', expect: {} }] });

    // A visitor's conversation through the public API, then added to the suite from the console.
    const chat = (path: string, body: unknown) =>
      fetch(`${f.server.url}${path}`, { method: 'POST', headers: { 'X-API-Key': f.chatKeyA, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const session = ((await (await chat(`/widgets/${widgetId}/conversations`, { visitorId: 'v1' })).json()) as { data: { sessionId: string } }).data.sessionId;
    expect((await chat(`/widgets/${widgetId}/conversations/${session}/messages`, { content: 'How can I track my order?' })).status).toBe(200);
    const added = await as('POST', '/suites/faq/cases', { body: { sessionId: session, name: 'tracking' } });
    expect(added.status).toBe(201);
    expect(added.body.data.cases[1]).toEqual({ name: 'tracking', turns: ['How can I track my order?'], expect: { cites: ['Order tracking'], answered: true } });
    expect((await as('POST', '/suites/faq/cases', { body: { sessionId: 'sess_nope' } })).body.error).toMatchObject({ code: 'session_not_found', field: 'sessionId' });

    expect((await as('GET', '/suites')).body.data.map((s: { name: string }) => s.name)).toEqual(['faq']);
    expect((await as('GET', '/suites/faq')).body.data.cases).toHaveLength(2);
    expect((await as('GET', '/suites/none')).status).toBe(404);
    expect((await as('PUT', '/suites/bad name', { body: { cases: [] } })).status).toBe(400);
  });
});
