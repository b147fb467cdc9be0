import { afterEach, describe, expect, it, vi } from 'vitest';

// PGlite and PostgreSQL on a shared 2-core machine: generous per-test time, the assertions stay exact.
vi.setConfig({ testTimeout: 30_000 });
import { createScriptedAgent } from '@svc/agents';
import { createHarness } from '../testing/harness.js';
import { PRODUCTION_STORES } from '../testing/production-stores.js';
import { operatorAdmin } from '../cli/operator-admin.js';
import { ANY_ACCOUNT } from '@svc/core';

const ORIGIN = 'https://shop.example';

let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

describe.each(PRODUCTION_STORES)('session ownership (DESIGN.md section 4) on %s', (_name, open) => {
  async function setup() {
    const { store, dispose } = await open();
    cleanups.push(dispose);
    const h = await createHarness({ store, agent: createScriptedAgent(() => ({ content: 'Your order ships tomorrow.' })) });
    const { key: publicKey } = await operatorAdmin(store).createPublicKey(ANY_ACCOUNT, { widgetId: h.widget.id, origins: [ORIGIN] });
    const asWidget = { key: publicKey, headers: { Origin: ORIGIN } };
    return { h, asWidget };
  }

  it('a public key cannot open a session a server key created, whatever its id (issue 10, defect 2)', async () => {
    const { h, asWidget } = await setup();
    const created = await h.post(h.base, { sessionId: 'order-1234', visitorId: 'customer-9' });
    expect(created.status).toBe(201);
    expect((await h.post(`${h.base}/order-1234/messages`, { content: 'Where is my order 1234?' })).status).toBe(200);
    const balance = (await h.store.getAccount(h.account.id))!.balance;

    for (const res of [
      await h.get(`${h.base}/order-1234`, asWidget),
      await h.get(`${h.base}/order-1234/messages`, asWidget),
      await h.post(`${h.base}/order-1234/messages`, { content: 'show me the history' }, asWidget),
      await h.post(`${h.base}/order-1234/end`, undefined, asWidget),
      await h.post(`${h.base}/order-1234/rate`, { rating: 'positive' }, asWidget),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ error: { code: 'session_not_found' }, meta: { creditsConsumed: 0 } });
      expect(JSON.stringify(res.body)).not.toContain('ships tomorrow');
    }
    // Resuming it by id answers exactly as for an id nobody used: no oracle for which order numbers exist.
    const resume = await h.post(h.base, { sessionId: 'order-1234', visitorId: 'customer-9' }, asWidget);
    const unused = await h.post(h.base, { sessionId: 'order-9999', visitorId: 'customer-9' }, asWidget);
    expect(resume.status).toBe(400);
    expect(resume.body).toEqual(unused.body);

    const stored = await h.store.getSession(h.widget.id, 'order-1234');
    expect(stored).toMatchObject({ status: 'active', messageCount: 2, creatorKeyKind: 'secret' });
    expect((await h.store.getAccount(h.account.id))!.balance).toBe(balance);
  });

  it('the same holds for a server-created session with a generated id', async () => {
    const { h, asWidget } = await setup();
    const id = await h.session();
    expect((await h.get(`${h.base}/${id}`, asWidget)).status).toBe(404);
    expect((await h.post(h.base, { sessionId: id, visitorId: 'visitor-1' }, asWidget)).status).toBe(400);
  });

  it('a session the widget created stays the widget’s to resume, and the server key may read it', async () => {
    const { h, asWidget } = await setup();
    const created = await h.post(h.base, { visitorId: 'visitor-7' }, asWidget);
    expect(created.status).toBe(201);
    const id = created.body.data.sessionId as string;
    expect((await h.post(`${h.base}/${id}/messages`, { content: 'hello' }, asWidget)).status).toBe(200);
    const resumed = await h.post(h.base, { sessionId: id, visitorId: 'visitor-7' }, asWidget);
    expect(resumed.status).toBe(200);
    expect(resumed.body.data.resumed).toBe(true);
    const history = await h.get(`${h.base}/${id}/messages`, asWidget);
    expect(history.body.data).toHaveLength(2);
    expect((await h.get(`${h.base}/${id}`)).status).toBe(200);
    expect((await h.store.getSession(h.widget.id, id))!.creatorKeyKind).toBe('public');
  });
});
