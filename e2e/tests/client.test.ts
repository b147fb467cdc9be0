import { createServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, isSvcApiError, type SvcApiError, type SvcClient } from '@svc/client';
import { startLiveServer, type LiveServer } from '../support/live-server.js';

// The client against the real service over a real socket: every endpoint, and the errors a caller meets.
describe('client against a real server', () => {
  let live: LiveServer;
  let client: SvcClient;
  let widget: string;

  beforeAll(async () => {
    live = await startLiveServer({ syncTimeoutMs: 1_000 });
    client = createClient({ baseUrl: live.url, apiKey: live.keys.chat });
    widget = live.widgetId;
    // PGlite start-up, migrations and the knowledge import take seconds on a loaded CI machine.
  }, 60_000);

  afterAll(() => live.close());

  async function failure(promise: Promise<unknown>): Promise<SvcApiError> {
    const error = await promise.then(() => undefined, (e: unknown) => e);
    if (!isSvcApiError(error)) throw new Error(`expected a SvcApiError, got ${String(error)}`);
    return error;
  }

  it('creates a session (201), resumes it (200) and reads it', async () => {
    const created = await client.sessions.create(widget, { visitorId: 'visitor-1', sessionId: 'e2e-1', language: 'en', visitorContext: { name: 'Ada' } });
    expect(created).toMatchObject({ status: 201, data: { sessionId: 'e2e-1', widgetId: widget, status: 'active', resumed: false }, meta: { creditsConsumed: 1 } });
    expect(created.requestId).toEqual(expect.any(String));
    const resumed = await client.sessions.create(widget, { visitorId: 'visitor-1', sessionId: 'e2e-1' });
    expect(resumed).toMatchObject({ status: 200, data: { resumed: true } });
    const read = await client.sessions.get(widget, 'e2e-1');
    expect(read.data).toMatchObject({ sessionId: 'e2e-1', status: 'active', messageCount: 0, rating: null, resolvedAt: null });
  });

  it('sends messages and gets replies with credits; an Idempotency-Key replays the first reply', async () => {
    const { data: session } = await client.sessions.create(widget, { visitorId: 'visitor-2' });
    const reply = await client.messages.send(widget, session.sessionId, { content: 'Do you ship to Canada?' });
    if (reply.status !== 200) throw new Error(`expected a sync reply, got ${reply.status}`);
    expect(reply.data.content).toMatch(/canada/i);
    expect(reply.meta.creditsConsumed).toBeGreaterThan(0);
    expect(Object.keys(reply.data.credits)).toHaveLength(8);
    const first = await client.messages.send(widget, session.sessionId, { content: 'Which tents do you sell?' }, { idempotencyKey: 'tents-1' });
    const again = await client.messages.send(widget, session.sessionId, { content: 'Which tents do you sell?' }, { idempotencyKey: 'tents-1' });
    expect(again.data).toEqual(first.data);
    if (first.status === 200) expect(first.data.products.length).toBeGreaterThan(0);
    expect((await client.sessions.get(widget, session.sessionId)).data.messageCount).toBe(4);
  });

  it('answers 202 processing when the AI is slower than the sync wait; the reply lands in the history', async () => {
    const { data: session } = await client.sessions.create(widget, { visitorId: 'visitor-3' });
    const res = await client.messages.send(widget, session.sessionId, { content: 'Please take your time: do you ship to Canada?' });
    expect(res.status).toBe(202);
    if (res.status !== 202) return;
    expect(res.data).toEqual({ messageId: expect.stringMatching(/^msg_/), status: 'processing' });
    expect(res.meta.creditsConsumed).toBe(0);
    let ids: string[] = [];
    for (let i = 0; i < 50 && !ids.includes(res.data.messageId!); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      ids = (await client.messages.list(widget, session.sessionId)).data.map((item) => item.messageId);
    }
    expect(ids).toContain(res.data.messageId);
  });

  it('lists the history page by page and iterates it, oldest first', async () => {
    const { data: session } = await client.sessions.create(widget, { visitorId: 'visitor-4' });
    for (const content of ['Hello', 'Do you ship to Canada?', 'Which tents do you sell?']) await client.messages.send(widget, session.sessionId, { content });
    const page = await client.messages.list(widget, session.sessionId, { limit: 2 });
    expect(page.data.map((item) => item.role)).toEqual(['user', 'assistant']);
    expect(page.pagination).toEqual({ cursor: expect.any(String), hasMore: true });
    expect(page.meta.creditsConsumed).toBe(1);
    const next = await client.messages.list(widget, session.sessionId, { limit: 2, cursor: page.pagination.cursor! });
    expect(next.data[0]!.content).toBe('Do you ship to Canada?');
    const all = [];
    for await (const item of client.messages.iterate(widget, session.sessionId, { limit: 2 })) all.push(item);
    expect(all.map((item) => item.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user', 'assistant']);
    expect(all[0]!.content).toBe('Hello');
  });

  it('submits a surfaced form; a wrong answer is form_rejected naming the question', async () => {
    const { data: session } = await client.sessions.create(widget, { visitorId: 'visitor-5' });
    const reply = await client.messages.send(widget, session.sessionId, { content: 'I would like to talk to sales' });
    if (reply.status !== 200) throw new Error('expected a sync reply');
    const form = reply.data.forms?.[0];
    expect(form?.formId).toBe('contact_sales');
    const rejected = await failure(client.forms.submit(widget, session.sessionId, { formId: 'contact_sales', answers: { name: 'Ada', email: 'not-an-email' } }));
    expect(rejected).toMatchObject({ status: 400, code: 'form_rejected', field: expect.stringContaining('email') });
    const accepted = await client.forms.submit(widget, session.sessionId, { formId: form!.formId, answers: { name: 'Ada', email: 'ada@example.com' } });
    expect(accepted.status).toBe(200);
    expect(accepted.meta.creditsConsumed).toBeGreaterThan(0);
  });

  it('ends and rates a session; ending again is free; sending to it is session_not_active', async () => {
    const { data: session } = await client.sessions.create(widget, { visitorId: 'visitor-6' });
    await expect(failure(client.sessions.rate(widget, session.sessionId, { rating: 'positive' }))).resolves.toMatchObject({ status: 409, code: 'session_active' });
    const ended = await client.sessions.end(widget, session.sessionId);
    expect(ended.data).toMatchObject({ sessionId: session.sessionId, status: 'resolved', resolvedAt: expect.any(String) });
    const endedAgain = await client.sessions.end(widget, session.sessionId, { idempotencyKey: 'end-again' });
    expect(endedAgain).toMatchObject({ data: { resolvedAt: ended.data.resolvedAt }, meta: { creditsConsumed: 0 } });
    const rated = await client.sessions.rate(widget, session.sessionId, { rating: 'positive' });
    expect(rated.data).toEqual({ sessionId: session.sessionId, rating: 'positive' });
    expect((await client.sessions.get(widget, session.sessionId)).data).toMatchObject({ status: 'resolved', rating: 'positive' });
    const refused = await failure(client.messages.send(widget, session.sessionId, { content: 'One more thing' }));
    expect(refused).toMatchObject({ status: 409, code: 'session_not_active' });
  });

  it("lists and iterates a knowledge base's products with a knowledge key", async () => {
    const knowledge = createClient({ baseUrl: live.url, apiKey: live.keys.knowledge });
    const page = await knowledge.products.list(live.knowledgeBaseId, { limit: 5 });
    expect(page.data).toHaveLength(5);
    expect(page.pagination).toMatchObject({ hasMore: true, total: 12 });
    const ids = [];
    for await (const product of knowledge.products.iterate(live.knowledgeBaseId, { limit: 5 })) ids.push(product.id);
    expect(ids).toEqual(Array.from({ length: 12 }, (_, i) => `tent-${String(i + 1).padStart(2, '0')}`));
    expect(await failure(client.products.list(live.knowledgeBaseId))).toMatchObject({ status: 403, code: 'insufficient_scope' });
  });

  it('manages a knowledge base end to end: create, list, get, products, documents, search', async () => {
    const writer = createClient({ baseUrl: live.url, apiKey: live.keys.knowledgeWrite });
    const reader = createClient({ baseUrl: live.url, apiKey: live.keys.knowledge });

    const created = await writer.knowledgeBases.create({ name: 'Winter catalogue' }, { idempotencyKey: 'kb-winter' });
    expect(created).toMatchObject({ status: 201, data: { id: expect.stringMatching(/^kb_/), name: 'Winter catalogue' }, meta: { creditsConsumed: 0 } });
    const kb = created.data.id;
    const page = await reader.knowledgeBases.list({ limit: 1 });
    expect(page.pagination).toMatchObject({ hasMore: true, total: 2 });
    const all = [];
    for await (const item of reader.knowledgeBases.iterate({ limit: 1 })) all.push(item.id);
    expect(all).toEqual([live.knowledgeBaseId, kb]);
    expect((await reader.knowledgeBases.get(kb)).data).toMatchObject({ id: kb, products: 0, documents: 0 });

    // Products: put one, upsert a batch, delete one (the second delete is product_not_found).
    const put = await writer.products.put(kb, 'bivy-1', { name: 'Summit 1 Bivy Tent', price: 189, currency: 'EUR' });
    expect(put.data).toEqual({ id: 'bivy-1', name: 'Summit 1 Bivy Tent', price: 189, currency: 'EUR' });
    expect((await writer.products.upsert(kb, { products: [{ id: 'stove-1', name: 'Jet Stove', price: 89 }, { id: 'mug-1', name: 'Enamel Mug', price: 12 }] })).data).toEqual({ upserted: 2 });
    expect((await reader.products.list(kb)).data.map((p) => p.id)).toEqual(['bivy-1', 'mug-1', 'stove-1']);
    expect((await writer.products.delete(kb, 'mug-1')).data).toEqual({ id: 'mug-1', deleted: true });
    expect(await failure(writer.products.delete(kb, 'mug-1'))).toMatchObject({ status: 404, code: 'product_not_found' });
    expect(await failure(writer.products.put(kb, 'bad', { name: 'Bad', price: -1 }))).toMatchObject({ status: 400, code: 'validation_failed', field: 'price' });

    // Documents: add, find by search, replace (old text gone), delete; pages with total.
    const added = await writer.documents.add(kb, { title: 'Gift cards', content: '# Gift cards\n\nGift cards never expire and work in our Reykjavik stores.' });
    expect(added).toMatchObject({ status: 201, data: { knowledgeBaseId: kb, title: 'Gift cards', url: null } });
    const found = await reader.knowledge.search(kb, { query: 'Do gift cards expire?' });
    expect(found.data.passages[0]).toMatchObject({ documentId: added.data.id, content: expect.stringContaining('never expire') });
    expect(found.meta.creditsConsumed).toBeGreaterThan(0);
    expect((await reader.knowledge.search(kb, { query: 'bivy tent' })).data.products[0]).toMatchObject({ id: 'bivy-1', rank: expect.any(Number) });
    const replaced = await writer.documents.replace(kb, added.data.id, { title: 'Rentals', content: 'Kayak rentals cost 40 euros per day.' });
    expect(replaced.data).toMatchObject({ id: added.data.id, title: 'Rentals' });
    expect((await reader.knowledge.search(kb, { query: 'gift cards Reykjavik' })).data.passages).toEqual([]);
    expect((await reader.knowledge.search(kb, { query: 'kayak rentals' })).data.passages[0]).toMatchObject({ documentId: added.data.id });
    for (const title of ['Guide 1', 'Guide 2']) await writer.documents.add(kb, { title, content: `${title} text.` });
    const docs = await reader.documents.list(kb, { limit: 2 });
    expect(docs.pagination).toMatchObject({ hasMore: true, total: 3 });
    const titles = [];
    for await (const doc of reader.documents.iterate(kb, { limit: 2 })) titles.push(doc.title);
    expect(titles).toEqual(['Rentals', 'Guide 1', 'Guide 2']);
    expect((await writer.documents.delete(kb, added.data.id)).data).toEqual({ id: added.data.id, deleted: true });
    expect(await failure(writer.documents.delete(kb, added.data.id))).toMatchObject({ status: 404, code: 'document_not_found' });
    expect((await reader.knowledgeBases.get(kb)).data).toMatchObject({ products: 2, documents: 2 });

    // Scopes: a read key cannot write, a chat key cannot read.
    expect(await failure(reader.documents.add(kb, { title: 'T', content: 'C' }))).toMatchObject({ status: 403, code: 'insufficient_scope' });
    expect(await failure(client.knowledge.search(kb, { query: 'tent' }))).toMatchObject({ status: 403, code: 'insufficient_scope' });
  });

  it("answers a visitor from a document added to the widget's knowledge base through the client", async () => {
    const writer = createClient({ baseUrl: live.url, apiKey: live.keys.knowledgeWrite });
    await writer.documents.add(live.knowledgeBaseId, { title: 'Repairs', content: '# Repairs\n\nWe repair torn tent fabric for free within two years of purchase.' });
    const { data: session } = await client.sessions.create(widget, { visitorId: 'visitor-kb' });
    const reply = await client.messages.send(widget, session.sessionId, { content: 'Do you repair torn tent fabric?' });
    if (reply.status !== 200) throw new Error(`expected a sync reply, got ${reply.status}`);
    expect(reply.data.content).toMatch(/repair torn tent fabric for free/i);
  });

  it('sends a verified identity with an identity:assert key, and is refused it without the scope', async () => {
    const asserting = createClient({ baseUrl: live.url, apiKey: live.keys.identity });
    const { data: session } = await asserting.sessions.create(widget, { visitorId: 'visitor-7' });
    const identity = { sub: 'user-42', email: 'ada@example.com', email_verified: true };
    await expect(asserting.messages.send(widget, session.sessionId, { content: 'Where is my order?', identity })).resolves.toMatchObject({ status: 200 });
    const refused = await failure(client.messages.send(widget, session.sessionId, { content: 'Where is my order?', identity }));
    expect(refused).toMatchObject({ status: 403, code: 'identity_scope_required', field: 'identity' });
    const invalid = await failure(asserting.messages.send(widget, session.sessionId, { content: 'Hi', identity: { sub: '' } }));
    expect(invalid).toMatchObject({ status: 400, code: 'invalid_identity', field: 'identity.sub' });
  });

  it('reports the errors a caller meets with code, field and request id', async () => {
    const invalid = await failure(client.sessions.create(widget, { visitorId: 'not a label!' }));
    expect(invalid).toMatchObject({ status: 400, code: 'validation_failed', field: 'visitorId', requestId: expect.any(String) });
    expect(await failure(client.sessions.get(widget, 'no-such-session'))).toMatchObject({ status: 404, code: 'session_not_found' });
    expect(await failure(client.sessions.get('wgt_missing', 'x'))).toMatchObject({ status: 404, code: 'widget_not_found' });
    const badKey = createClient({ baseUrl: live.url, apiKey: 'sk_live_0000000000000000000000' });
    expect(await failure(badKey.sessions.get(widget, 'x'))).toMatchObject({ status: 401, code: 'invalid_api_key' });
    const badCursor = await failure(client.messages.list(widget, 'e2e-1', { cursor: 'forged' }));
    expect(badCursor).toMatchObject({ status: 400, code: 'invalid_cursor', field: 'cursor' });
    expect(await failure(client.messages.list(widget, 'e2e-1', { limit: 101 }))).toMatchObject({ status: 400, field: 'limit' });
  });

  it('reports an unreachable server as network_error', async () => {
    // A port that was just free: nothing listens there.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    const offline = createClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: live.keys.chat, retry: false });
    expect(await failure(offline.sessions.get(widget, 'x'))).toMatchObject({ status: 0, code: 'network_error' });
  });
});
