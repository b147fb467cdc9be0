import { createServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, isSvcApiError, type SvcApiError, type SvcClient } from './index.js';
import { startLiveServer, type LiveServer } from './testing/live-server.js';

// The client against the real service over a real socket: every endpoint, and the errors a caller meets.
describe('client against a real server', () => {
  let live: LiveServer;
  let client: SvcClient;
  let widget: string;

  beforeAll(async () => {
    live = await startLiveServer({ syncTimeoutMs: 1_000 });
    client = createClient({ baseUrl: live.url, apiKey: live.keys.chat });
    widget = live.widgetId;
  });

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
