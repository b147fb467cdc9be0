import { afterAll, afterEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import { setTimeout as sleep } from 'node:timers/promises';
import { DefaultChatTransport, generateId, readUIMessageStream, type UIMessage } from 'ai';
import { DEMO_FORMS, createScriptedAgent } from '@svc/agents';
import { randomBase62, type Store } from '@svc/core';
import { readEventStream } from '@svc/core/schemas';
import { createPostgresStore } from '@svc/store-postgres';
import { listen, type RunningServer } from '../node-server.js';
import { createHarness, type Harness, type HarnessOptions } from '../testing/harness.js';
import { createTimedDeltaAgent, percentile, timeStreamedTurn } from '../testing/stream-timing.js';

/** Streaming over a real socket: Node's HTTP server in front of the app, real clients in front of it. */

const servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const DATABASE_URL = process.env.SVC_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const dropSchemas: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const drop of dropSchemas) await drop();
});

/** A real PostgreSQL store in a schema of its own, dropped after the file. */
async function postgresStore(): Promise<Store> {
  const schema = `t_stream_${randomBase62(8).toLowerCase()}`;
  const store = await createPostgresStore({ connectionString: DATABASE_URL, schema, max: 10 });
  dropSchemas.push(async () => {
    await store.close();
    const admin = new pg.Client({ connectionString: DATABASE_URL });
    await admin.connect();
    await admin.query(`drop schema if exists "${schema}" cascade`);
    await admin.end();
  });
  return store;
}

async function live(options: HarnessOptions = {}): Promise<{ h: Harness; url: string }> {
  const h = await createHarness(options);
  const server = await listen(h.runtime, { port: 0, host: '127.0.0.1' });
  servers.push(server);
  return { h, url: server.url };
}

async function historyOf(h: Harness, sessionId: string): Promise<Array<{ role: string; content: string; messageId: string }>> {
  return (await h.get(`${h.base}/${sessionId}/messages`)).body.data;
}

describe('streaming over a live server', () => {
  it.each(['memory', 'PostgreSQL'] as const)('keeps the reply of a client that disconnected mid-stream: it lands in the history (%s store)', async (kind) => {
    let clientGone!: () => void;
    const gone = new Promise<void>((resolve) => (clientGone = resolve));
    const { h, url } = await live({
      ...(kind === 'PostgreSQL' ? { store: await postgresStore() } : {}),
      agent: createScriptedAgent(async ({ onDelta }) => {
        onDelta?.('First sentence. ');
        await gone;
        onDelta?.('Second sentence.');
        return { content: 'First sentence. Second sentence.' };
      }),
    });
    const id = await h.session();
    // A plain fetch aborted after the first delta: what a closed browser tab does to the connection.
    const abort = new AbortController();
    const response = await fetch(`${url}${h.base}/${id}/messages`, {
      method: 'POST',
      headers: { 'X-API-Key': h.key, 'Content-Type': 'application/json' },
      body: JSON.stringify({ content: 'Tell me two things.', response_type: 'stream' }),
      signal: abort.signal,
    });
    const events: Array<{ event: string; data: { messageId?: string } }> = [];
    for await (const { event, data } of readEventStream(response.body!)) {
      events.push({ event, data: JSON.parse(data) as { messageId?: string } });
      if (event === 'message.delta') break;
    }
    abort.abort();
    expect(events.map((e) => e.event)).toEqual(['message.start', 'message.delta']);
    const start = events[0]!.data;
    clientGone();

    let history = await historyOf(h, id);
    for (let waited = 0; history.length < 2 && waited < 5000; waited += 20) {
      await sleep(20);
      history = await historyOf(h, id);
    }
    expect(history.map((item) => [item.role, item.content])).toEqual([
      ['user', 'Tell me two things.'],
      ['assistant', 'First sentence. Second sentence.'],
    ]);
    expect(history[1]!.messageId).toBe(start.messageId);
  }, 20_000);

  it('delivers each delta within milliseconds of the agent writing it (first token to first SSE byte)', async () => {
    // Pieces 20 ms apart: a server that held deltas back until the end would show ≥ 60 ms here.
    const timed = createTimedDeltaAgent({ deltas: 4, intervalMs: 20 });
    const { h, url } = await live({ agent: timed.agent, credits: 100_000 });
    const warmUp = 5;
    const turns = warmUp + 50;
    const latencies: number[] = [];
    let id = '';
    for (let turn = 0; turn < turns; turn++) {
      // A session per few turns, as visitors come and go.
      if (turn % 10 === 0) id = await h.session({ visitorId: `visitor-${turn}` });
      const content = `Question ${turn}`;
      const timing = await timeStreamedTurn({ url: `${url}${h.base}/${id}/messages`, headers: { 'x-api-key': h.key }, content });
      expect(timing.status).toBe(200);
      expect(timing.body).toContain('event: message.completed\n');
      // The first turns run cold code (JIT, lazy imports); a running server has long passed them.
      if (turn >= warmUp) latencies.push(timing.firstDeltaAt - timed.firstDeltaAt.get(content)!);
    }
    const p50 = percentile(latencies, 50);
    console.info(
      `stream: agent's first token → first SSE byte over ${latencies.length} turns: p50 ${p50.toFixed(2)} ms, p99 ${percentile(latencies, 99).toFixed(2)} ms`,
    );
    expect(latencies.every((ms) => ms >= 0)).toBe(true);
    // The target is p99 ≤ 5 ms (issue 9; `pnpm bench` reports it). The machines running the suite are shared and
    // their scheduling stalls land in the tail, so the test holds the median to the target and nine turns in ten
    // below the 60 ms that a stream holding deltas back would need at the least.
    expect(p50).toBeLessThanOrEqual(5);
    expect(percentile(latencies, 90)).toBeLessThan(60);
  }, 30_000);
});

describe('POST …/chat driven by the AI SDK’s own client (DefaultChatTransport, readUIMessageStream)', () => {
  async function chat(url: string, h: Harness, sessionId: string, text: string): Promise<UIMessage> {
    const transport = new DefaultChatTransport<UIMessage>({ api: `${url}${h.base}/${sessionId}/chat`, headers: { 'X-API-Key': h.key } });
    const stream = await transport.sendMessages({
      trigger: 'submit-message',
      chatId: `chat-${sessionId}`,
      messageId: undefined,
      messages: [{ id: `user-${text.length}`, role: 'user', parts: [{ type: 'text', text }] }],
      abortSignal: undefined,
    });
    let last: UIMessage | undefined;
    const errors: unknown[] = [];
    for await (const message of readUIMessageStream<UIMessage>({ stream, onError: (error) => errors.push(error), terminateOnError: true })) last = message;
    expect(errors).toEqual([]);
    if (last === undefined) throw new Error('the stream produced no message');
    return last;
  }

  it('receives the text, the products and the credits of a reply', async () => {
    const { h, url } = await live();
    const id = await h.session();

    const message = await chat(url, h, id, 'Which tents do you sell?');

    const [, reply] = await historyOf(h, id);
    expect(message.id).toBe(reply!.messageId);
    expect(message.role).toBe('assistant');
    const text = message.parts.filter((part) => part.type === 'text').map((part) => (part as { text: string }).text).join('');
    expect(text).toBe(reply!.content);
    const products = message.parts.find((part) => part.type === 'data-products') as { data: Array<{ id: string; name: string }> } | undefined;
    expect(products?.data.map((product) => product.id)).toEqual(expect.arrayContaining(['prod_trailhead_2_tent']));
    expect(message.metadata).toMatchObject({ sessionId: id, sessionEnded: false, creditsConsumed: expect.any(Number) });
    expect((message.metadata as { creditsConsumed: number }).creditsConsumed).toBeGreaterThan(0);
  });

  it('receives a surfaced form as a data-forms part', async () => {
    const { h, url } = await live();
    await h.admin.setWidgetForms(h.account.id, h.widget.id, DEMO_FORMS);
    const id = await h.session();

    const message = await chat(url, h, id, 'I would like to talk to sales');

    const forms = message.parts.find((part) => part.type === 'data-forms') as { data: Array<{ formId: string; questions: unknown[] }> } | undefined;
    expect(forms?.data.map((form) => form.formId)).toEqual(['contact_sales']);
    expect(forms?.data[0]?.questions.length).toBeGreaterThan(0);
    const session = await h.get(`${h.base}/${id}`);
    expect(session.status).toBe(200);
  });

  it('reports a turn that fails after acceptance as the SDK’s error, the text so far kept', async () => {
    const { h, url } = await live({
      agent: createScriptedAgent(({ onDelta }) => {
        onDelta?.('Let me look that up');
        throw new Error('model crashed');
      }),
    });
    const id = await h.session();
    const transport = new DefaultChatTransport<UIMessage>({ api: `${url}${h.base}/${id}/chat`, headers: { 'X-API-Key': h.key } });
    const stream = await transport.sendMessages({
      trigger: 'submit-message',
      chatId: 'c',
      messageId: undefined,
      messages: [{ id: 'u', role: 'user', parts: [{ type: 'text', text: 'Hi' }] }],
      abortSignal: undefined,
    });
    const errors: unknown[] = [];
    let last: UIMessage | undefined;
    for await (const message of readUIMessageStream<UIMessage>({ stream, onError: (error) => errors.push(error) })) last = message;
    expect(errors).toHaveLength(1);
    expect(String((errors[0] as Error).message ?? errors[0])).toMatch(/^agent_unavailable: /);
    expect(last?.parts.filter((part) => part.type === 'text').map((part) => (part as { text: string }).text)).toEqual(['Let me look that up']);
  });

  it('takes a long conversation when the transport sends only its last message (prepareSendMessagesRequest)', async () => {
    const { h, url } = await live();
    const id = await h.session();
    // Past 64 KiB of history the full body would be refused (413); the service needs only the new message.
    const earlier: UIMessage[] = Array.from({ length: 40 }, (_, i) => ({
      id: `m${i}`,
      role: i % 2 === 0 ? 'user' : 'assistant',
      parts: [{ type: 'text', text: `${'A long message. '.repeat(120)}${i}` }],
    }));
    const messages: UIMessage[] = [...earlier, { id: 'new', role: 'user', parts: [{ type: 'text', text: 'Do you ship to Canada?' }] }];
    const request = { trigger: 'submit-message' as const, chatId: 'long', messageId: undefined, messages, abortSignal: undefined };
    const api = `${url}${h.base}/${id}/chat`;

    const full = await new DefaultChatTransport<UIMessage>({ api, headers: { 'X-API-Key': h.key } }).sendMessages(request).catch((error: unknown) => error);
    expect(JSON.parse((full as Error).message)).toMatchObject({ error: { code: 'payload_too_large' } });

    const transport = new DefaultChatTransport<UIMessage>({
      api,
      headers: { 'X-API-Key': h.key },
      prepareSendMessagesRequest: ({ id: chatId, messages: all }) => ({ body: { id: chatId, messages: all.slice(-1) } }),
    });
    let last: UIMessage | undefined;
    for await (const message of readUIMessageStream<UIMessage>({ stream: await transport.sendMessages(request) })) last = message;
    const text = last?.parts.filter((part) => part.type === 'text').map((part) => (part as { text: string }).text).join('');
    expect(text).toMatch(/Canada/);
    expect((await historyOf(h, id)).map((item) => item.role)).toEqual(['user', 'assistant']);
  });

  it('rejects in the transport with the JSON error of a refused request', async () => {
    const { h, url } = await live();
    const transport = new DefaultChatTransport<UIMessage>({ api: `${url}${h.base}/sess_missing/chat`, headers: { 'X-API-Key': h.key } });
    const error = await transport
      .sendMessages({ trigger: 'submit-message', chatId: 'c', messageId: undefined, messages: [{ id: 'u', role: 'user', parts: [{ type: 'text', text: 'Hi' }] }], abortSignal: undefined })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect(JSON.parse((error as Error).message)).toMatchObject({ error: { code: 'session_not_found' } });
  });
});

describe('POST /widgets/{widgetId}/chat: useChat with only `api` and `headers` (DESIGN.md section 4, revised)', () => {
  /** One turn as `useChat` does it: the transport posts the whole conversation, the reply is read by the SDK. */
  async function turn(chat: { transport: DefaultChatTransport<UIMessage>; chatId: string; messages: UIMessage[] }, text: string): Promise<UIMessage> {
    const { transport, chatId, messages } = chat;
    messages.push({ id: generateId(), role: 'user', parts: [{ type: 'text', text }] });
    const stream = await transport.sendMessages({ trigger: 'submit-message', chatId, messageId: undefined, messages, abortSignal: undefined });
    let last: UIMessage | undefined;
    const errors: unknown[] = [];
    for await (const message of readUIMessageStream<UIMessage>({ stream, onError: (error) => errors.push(error), terminateOnError: true })) last = message;
    expect(errors).toEqual([]);
    messages.push(last!);
    return last!;
  }

  it('holds a 60-turn conversation with the default transport, created on first use (regression: 404 for an unknown chat id, 413 at turn 50)', async () => {
    const { h, url } = await live();
    const transport = new DefaultChatTransport<UIMessage>({ api: `${url}/widgets/${h.widget.id}/chat`, headers: { 'X-API-Key': h.key } });
    const chatId = generateId();
    const messages: UIMessage[] = [];
    const questions = ['Which tents do you sell?', 'Do you ship to Canada?', 'How do I return an item?', 'What sleeping bags do you have?'];
    for (let i = 0; i < 60; i++) {
      const reply = await turn({ transport, chatId, messages }, `${questions[i % questions.length]} (${i + 1})`);
      expect(reply.role).toBe('assistant');
      expect(reply.parts.some((part) => part.type === 'text' && part.text.length > 0)).toBe(true);
    }
    // A longer conversation than this, re-sent whole, is read up to 1 MB (other bodies stop at 64 KiB).
    const long = { id: chatId, trigger: 'submit-message', messages: [...messages, ...messages, ...messages, { id: generateId(), role: 'user', parts: [{ type: 'text', text: 'And gloves?' }] }] };
    expect(JSON.stringify(long).length).toBeGreaterThan(150 * 1024);
    const accepted = await fetch(`${url}/widgets/${h.widget.id}/chat`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': h.key }, body: JSON.stringify(long) });
    expect(accepted.status).toBe(200);
    await accepted.text();
    messages.push(long.messages.at(-1) as UIMessage, { id: 'reply', role: 'assistant', parts: [] });

    // The chat id named one session, which the service keeps: its history, as UI messages for useChat's initial messages.
    const first = await h.get(`/widgets/${h.widget.id}/chat/${chatId}/messages?limit=100`);
    expect(first.status).toBe(200);
    const second = await h.get(`/widgets/${h.widget.id}/chat/${chatId}/messages?limit=100&cursor=${encodeURIComponent(first.body.pagination.cursor)}`);
    const history = [...first.body.data, ...second.body.data] as UIMessage[];
    expect(second.body.pagination.hasMore).toBe(false);
    // 60 turns, then the long body's turn: 122 messages.
    expect(history).toHaveLength(122);
    // Replies keep the id the stream gave them; every text is the one the SDK assembled.
    const replies = (list: UIMessage[]) => list.slice(0, 120).filter((_, index) => index % 2 === 1).map((message) => message.id);
    expect(replies(history)).toEqual(replies(messages));
    const text = (message: UIMessage) => message.parts.filter((part) => part.type === 'text').map((part) => (part as { text: string }).text).join('');
    expect(history.slice(0, 120).map(text)).toEqual(messages.slice(0, 120).map(text));
    expect(text(history[120]!)).toBe('And gloves?');
    expect(history[1]!.parts.find((part) => part.type === 'data-products')).toBeDefined();
  }, 120_000);

  it('refuses a chat id shorter than 16 characters naming `id`; each key\'s chat id names a conversation of its own, so a public key never reaches a server key\'s', async () => {
    const { h, url } = await live();
    const post = (key: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${url}/widgets/${h.widget.id}/chat`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key, ...headers }, body: JSON.stringify(body) });
    const ask = (id: string) => ({ id, trigger: 'submit-message', messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Hi' }] }] });
    const short = await post(h.key, ask('abc'));
    expect(short.status).toBe(400);
    expect(((await short.json()) as { error: { field: string } }).error.field).toBe('id');

    const chatId = generateId();
    const asServer = await post(h.key, ask(chatId));
    expect(asServer.status).toBe(200);
    await asServer.text();
    const { key: publicKey } = await h.admin.createPublicKey(h.account.id, { widgetId: h.widget.id, origins: ['https://shop.example'] });
    const headers = { Origin: 'https://shop.example' };
    // The same chat id from the widget's public key is a conversation of its own: the server key's stays out of reach.
    const asWidget = await post(publicKey, ask(chatId), headers);
    expect(asWidget.status).toBe(200);
    await asWidget.text();
    const widgetsView = await h.get(`/widgets/${h.widget.id}/chat/${chatId}/messages`, { key: publicKey, headers });
    const serversView = await h.get(`/widgets/${h.widget.id}/chat/${chatId}/messages`);
    expect(widgetsView.body.data).toHaveLength(2);
    expect(serversView.body.data).toHaveLength(2);
    expect(widgetsView.body.data[1].id).not.toBe(serversView.body.data[1].id);
    // A chat nobody started has no history to read.
    expect((await h.get(`/widgets/${h.widget.id}/chat/${generateId()}/messages`, { key: publicKey, headers })).status).toBe(404);
    // Public keys still cannot choose a session id through create-session.
    const chosen = await h.post(h.base, { visitorId: 'v', sessionId: `chat_${'0'.repeat(32)}` }, { key: publicKey, headers });
    expect(chosen.status).toBe(400);
  });
});
