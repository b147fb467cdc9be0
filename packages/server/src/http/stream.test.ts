import { describe, expect, it } from 'vitest';
import { DEMO_FORMS, createScriptedAgent } from '@svc/agents';
import { readEventStream } from '@svc/core/schemas';
import { createLogger } from '../logger.js';
import { createHarness, type Harness } from '../testing/harness.js';
import { createApp } from './app.js';

interface StreamEvent {
  event: string;
  // Tests read arbitrary event fields; the client's types pin them elsewhere.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  data: any;
}

async function readEvents(response: Response): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const { event, data } of readEventStream(response.body!)) events.push({ event, data: JSON.parse(data) as unknown });
  return events;
}

function streamPost(h: Harness, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return Promise.resolve(
    h.runtime.app.request(path, {
      method: 'POST',
      headers: { 'X-API-Key': h.key, 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(body),
    }),
  );
}

const deltasOf = (events: StreamEvent[]): string[] => events.filter((e) => e.event === 'message.delta').map((e) => e.data.text as string);

describe('POST …/messages with response_type "stream" (DESIGN.md section 4)', () => {
  it('answers 200 text/event-stream: start, deltas that concatenate to the content, then the reply exactly as sync', async () => {
    const h = await createHarness();
    const streamed = await h.session();
    const res = await streamPost(h, `${h.base}/${streamed}/messages`, { content: 'Do you ship to Canada?', response_type: 'stream' });

    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-accel-buffering')).toBe('no');
    const events = await readEvents(res);
    const names = events.map((e) => e.event);
    expect(names[0]).toBe('message.start');
    expect(names.at(-1)).toBe('message.completed');
    expect(names.slice(1, -1).every((name) => name === 'message.delta')).toBe(true);
    // The local agent streams sentence by sentence: a several-sentence answer is several deltas.
    expect(names.length - 2).toBeGreaterThan(1);

    const completed = events.at(-1)!.data;
    expect(events[0]!.data).toEqual({ messageId: completed.data.messageId, sessionId: streamed });
    expect(deltasOf(events).join('')).toBe(completed.data.content);

    // The same question asked sync in another session: the same object, field for field.
    const sync = await h.post(`${h.base}/${await h.session({ visitorId: 'visitor-2' })}/messages`, { content: 'Do you ship to Canada?' });
    expect(Object.keys(completed.data).sort()).toEqual(Object.keys(sync.body.data).sort());
    expect({ ...completed.data, messageId: 'x' }).toEqual({ ...sync.body.data, messageId: 'x' });
    expect(completed.meta).toEqual(sync.body.meta);

    const history = await h.get(`${h.base}/${streamed}/messages`);
    expect(history.body.data.map((item: { role: string }) => item.role)).toEqual(['user', 'assistant']);
    expect(history.body.data[1]).toMatchObject({ messageId: completed.data.messageId, content: completed.data.content });
  });

  it('streams a non-streaming agent’s reply as one delta', async () => {
    const h = await createHarness({ agent: createScriptedAgent(() => ({ content: 'Plain reply. Two sentences.' })) });
    const id = await h.session();
    const events = await readEvents(await streamPost(h, `${h.base}/${id}/messages`, { content: 'Hi', response_type: 'stream' }));
    expect(deltasOf(events)).toEqual(['Plain reply. Two sentences.']);
    expect(events.at(-1)!.data.data.content).toBe('Plain reply. Two sentences.');
  });

  it('answers refusals before acceptance as ordinary JSON errors with their status', async () => {
    const h = await createHarness({ credits: 1 });
    const id = await h.session();
    const cases: Array<[string, unknown, Record<string, string>, number, string, string?]> = [
      [`${h.base}/sess_missing/messages`, { content: 'Hi', response_type: 'stream' }, {}, 404, 'session_not_found'],
      [`${h.base}/${id}/messages`, { response_type: 'stream' }, {}, 400, 'validation_failed', 'content'],
      [`${h.base}/${id}/messages`, { content: 'Hi', response_type: 'streaming' }, {}, 400, 'validation_failed', 'response_type'],
      [`${h.base}/${id}/messages`, { content: 'Hi', response_type: 'stream' }, { 'X-API-Key': 'sk_live_unknownunknownunknown' }, 401, 'invalid_api_key'],
    ];
    for (const [path, body, headers, status, code, field] of cases) {
      const res = await streamPost(h, path, body, headers);
      expect(res.status, code).toBe(status);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      const json = (await res.json()) as { error: { code: string; field?: string }; meta: unknown };
      expect(json.error.code).toBe(code);
      if (field) expect(json.error.field).toBe(field);
      expect(json.meta).toEqual({ creditsConsumed: 0 });
    }
    // Spend the last credit, then a stream is refused with 402 before anything is stored.
    await h.post(`${h.base}/${id}/messages`, { content: 'Hello' });
    const broke = await streamPost(h, `${h.base}/${id}/messages`, { content: 'Hi again', response_type: 'stream' });
    expect(broke.status).toBe(402);
    expect(((await broke.json()) as { error: { code: string } }).error.code).toBe('insufficient_credits');
  });

  it('reports a failure after acceptance as message.failed, keeping the visitor’s message and billing nothing', async () => {
    const h = await createHarness({
      agent: createScriptedAgent(({ onDelta }) => {
        onDelta?.('Half an ans');
        throw new Error('model crashed');
      }),
    });
    const id = await h.session();
    const before = (await h.store.getAccount(h.account.id))!.balance;
    const events = await readEvents(await streamPost(h, `${h.base}/${id}/messages`, { content: 'Hi', response_type: 'stream' }));
    expect(events.map((e) => e.event)).toEqual(['message.start', 'message.delta', 'message.failed']);
    expect(events[2]!.data).toEqual({
      error: { code: 'agent_unavailable', message: expect.any(String) },
      meta: { creditsConsumed: 0 },
    });
    expect((await h.store.getAccount(h.account.id))!.balance).toBe(before);
    const history = await h.get(`${h.base}/${id}/messages`);
    expect(history.body.data.map((item: { role: string; content: string }) => [item.role, item.content])).toEqual([['user', 'Hi']]);
  });

  it('replays a repeated Idempotency-Key as the same stream, running and billing nothing twice', async () => {
    const h = await createHarness();
    const id = await h.session();
    const body = { content: 'Do you ship to Canada?', response_type: 'stream' };
    const original = await streamPost(h, `${h.base}/${id}/messages`, body, { 'Idempotency-Key': 'turn-1' });
    expect(original.headers.get('idempotent-replayed')).toBeNull();
    const first = await readEvents(original);
    const balance = (await h.store.getAccount(h.account.id))!.balance;

    const again = await streamPost(h, `${h.base}/${id}/messages`, body, { 'Idempotency-Key': 'turn-1' });
    expect(again.status).toBe(200);
    expect(again.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const replay = await readEvents(again);

    expect(replay.map((e) => e.event)).toEqual(['message.start', 'message.delta', 'message.completed']);
    expect(replay[0]!.data).toEqual(first[0]!.data);
    expect(deltasOf(replay).join('')).toBe(deltasOf(first).join(''));
    expect(replay[2]!.data.data).toEqual(first.at(-1)!.data.data);
    expect(replay[2]!.data.meta).toEqual({ creditsConsumed: 0 });
    expect((await h.store.getAccount(h.account.id))!.balance).toBe(balance);
    expect((await h.get(`${h.base}/${id}/messages`)).body.data).toHaveLength(2);

    const reused = await streamPost(h, `${h.base}/${id}/messages`, { ...body, content: 'Something else' }, { 'Idempotency-Key': 'turn-1' });
    expect(reused.status).toBe(422);
    expect(((await reused.json()) as { error: { code: string } }).error.code).toBe('idempotency_key_reused');
  });

  it('leaves sync and callback turns to the ordinary handler', async () => {
    const h = await createHarness();
    const id = await h.session();
    const res = await h.post(`${h.base}/${id}/messages`, { content: 'Hello', response_type: 'sync' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body.data.content).toEqual(expect.any(String));
  });
});

describe('POST …/form-submissions with response_type "stream"', () => {
  it('streams the answer turn of an accepted submission, and refuses a bad one as JSON before any stream', async () => {
    const h = await createHarness();
    await h.admin.setWidgetForms(h.account.id, h.widget.id, DEMO_FORMS);
    const id = await h.session();
    const surfaced = await h.post(`${h.base}/${id}/messages`, { content: 'I would like to talk to sales' });
    const form = surfaced.body.data.forms[0];
    expect(form.formId).toBe('contact_sales');

    const rejected = await streamPost(h, `${h.base}/${id}/form-submissions`, { formId: form.formId, answers: { name: 'Ada' }, response_type: 'stream' });
    expect(rejected.status).toBe(400);
    expect(((await rejected.json()) as { error: { code: string; field: string } }).error).toMatchObject({ code: 'form_rejected', field: 'answers.email' });

    const res = await streamPost(h, `${h.base}/${id}/form-submissions`, {
      formId: form.formId,
      answers: { name: 'Ada', email: 'ada@example.com' },
      response_type: 'stream',
    });
    expect(res.status).toBe(200);
    const events = await readEvents(res);
    expect(events[0]!.event).toBe('message.start');
    const completed = events.at(-1)!;
    expect(completed.event).toBe('message.completed');
    expect(deltasOf(events).join('')).toBe(completed.data.data.content);
    expect(completed.data.data.content).toContain('Talk to sales');
  });
});

describe('stream keep-alive', () => {
  it('writes a comment line at the keep-alive interval while the agent is silent', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const h = await createHarness({
      agent: createScriptedAgent(async () => {
        await released;
        return { content: 'Done.' };
      }),
    });
    const id = await h.session();
    // The real route table with a short interval; the principal comes from the real key check.
    const app = createApp({ core: h.runtime.core, store: h.store, logger: createLogger('silent'), streamKeepAliveMs: 20 });
    const res = await app.request(`${h.base}/${id}/messages`, {
      method: 'POST',
      headers: { 'X-API-Key': h.key, 'Content-Type': 'application/json' },
      body: JSON.stringify({ content: 'Hi', response_type: 'stream' }),
    });
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    while ((text.match(/^: keep-alive$/gm) ?? []).length < 2) text += decoder.decode((await reader.read()).value, { stream: true });
    release();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += decoder.decode(chunk.value, { stream: true });
    expect(text.startsWith('event: message.start\n')).toBe(true);
    expect(text).toContain('event: message.completed\n');
  });
});

describe('POST …/chat (AI SDK UI message stream)', () => {
  const userMessage = (text: string, id = 'u1') => ({ id, role: 'user', parts: [{ type: 'text', text }] });

  it('answers in the UI message stream protocol: start, text, products, finish with credits, [DONE]', async () => {
    const h = await createHarness();
    const id = await h.session();
    const res = await streamPost(h, `${h.base}/${id}/chat`, {
      id: 'chat-1',
      messages: [userMessage('Which tents do you sell?')],
      trigger: 'submit-message',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const frames: string[] = [];
    for await (const { data } of readEventStream(res.body!)) frames.push(data);
    expect(frames.at(-1)).toBe('[DONE]');
    const chunks = frames.slice(0, -1).map((frame) => JSON.parse(frame) as { type: string; [key: string]: unknown });
    const types = chunks.map((chunk) => chunk.type);
    expect(types.slice(0, 2)).toEqual(['start', 'text-start']);
    expect(types.slice(-3)).toEqual(['text-end', 'data-products', 'finish']);
    const text = chunks.filter((chunk) => chunk.type === 'text-delta').map((chunk) => chunk['delta']).join('');
    const history = await h.get(`${h.base}/${id}/messages`);
    const reply = history.body.data[1];
    expect(text).toBe(reply.content);
    expect(chunks[0]).toEqual({ type: 'start', messageId: reply.messageId, messageMetadata: { sessionId: id } });
    const products = chunks.find((chunk) => chunk.type === 'data-products')!['data'] as Array<{ name: string }>;
    expect(products.map((product) => product.name).some((name) => /tent/i.test(name))).toBe(true);
    const finish = chunks.at(-1)!;
    expect(finish['messageMetadata']).toMatchObject({ creditsConsumed: expect.any(Number), sessionEnded: false });
    expect((finish['messageMetadata'] as { creditsConsumed: number }).creditsConsumed).toBeGreaterThan(0);
  });

  it('refuses what it cannot answer as JSON errors naming the field', async () => {
    const h = await createHarness();
    const id = await h.session();
    const cases: Array<[unknown, string]> = [
      [{ id: 'c', messages: [] }, 'messages'],
      [{ id: 'c', messages: [userMessage('Hi'), { id: 'a1', role: 'assistant', parts: [{ type: 'text', text: 'Hello' }] }] }, 'messages.1.role'],
      [{ id: 'c', messages: [{ id: 'u1', role: 'user', parts: [{ type: 'file', url: 'x' }] }] }, 'messages.0.parts'],
      [{ id: 'c', messages: [userMessage('Hi')], trigger: 'regenerate-message', messageId: 'm1' }, 'trigger'],
      [{ id: 'c', messages: [userMessage('Hi')], response_type: 'sync' }, 'response_type'],
      [{ id: 'c', messages: [userMessage('x'.repeat(4001))] }, 'messages.0.parts'],
    ];
    for (const [body, field] of cases) {
      const res = await streamPost(h, `${h.base}/${id}/chat`, body);
      expect(res.status, field).toBe(400);
      const json = (await res.json()) as { error: { code: string; field: string } };
      expect(json.error).toMatchObject({ code: 'validation_failed', field });
    }
    expect((await h.get(`${h.base}/${id}/messages`)).body.data).toEqual([]);
  });

  it('takes a widget public key from an allowed origin, and refuses another origin', async () => {
    const h = await createHarness();
    const origin = 'https://shop.example';
    const { key } = await h.admin.createPublicKey(h.account.id, { widgetId: h.widget.id, origins: [origin] });
    const created = await h.post(h.base, { visitorId: 'browser-1' }, { key, headers: { Origin: origin } });
    const id = created.body.data.sessionId as string;
    const body = { id: 'c', messages: [userMessage('Hello')], trigger: 'submit-message' };

    const ok = await streamPost(h, `${h.base}/${id}/chat`, body, { 'X-API-Key': key, Origin: origin });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe(origin);
    await ok.body!.cancel();

    const refused = await streamPost(h, `${h.base}/${id}/chat`, body, { 'X-API-Key': key, Origin: 'https://evil.example' });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('origin_not_allowed');
  });
});
