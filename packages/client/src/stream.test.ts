import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { http, HttpResponse, passthrough } from 'msw';
import { describe, expect, it } from 'vitest';
import { isSvcApiError, type TurnStreamEvent } from './index.js';
import { meta, reply, SESSION, WIDGET } from './testing/fixtures.js';
import { BASE_URL, testClient, useMockServer } from './testing/mock-server.js';

const { server, requests } = useMockServer();
const messages = `${BASE_URL}/widgets/${WIDGET}/conversations/${SESSION}/messages`;
const submissions = `${BASE_URL}/widgets/${WIDGET}/conversations/${SESSION}/form-submissions`;

const frame = (event: string, data: unknown): string => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/** An event-stream response writing `frames` in order, holding at a promise until it settles. */
function sse(frames: ReadonlyArray<string | Promise<unknown>>, init: { onCancel?: () => void } = {}): Response {
  const encoder = new TextEncoder();
  const queue = [...frames];
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = queue.shift();
      if (next === undefined) return controller.close();
      if (typeof next === 'string') return controller.enqueue(encoder.encode(next));
      await next;
      controller.enqueue(new Uint8Array(0));
    },
    cancel: init.onCancel,
  });
  return new Response(stream, { headers: { 'content-type': 'text/event-stream', 'x-request-id': 'req_1' } });
}

const TURN = [
  ': keep-alive\n\n',
  frame('message.start', { messageId: reply.messageId, sessionId: SESSION }),
  frame('message.delta', { text: 'We ship ' }),
  frame('message.delta', { text: 'to Canada.' }),
  frame('message.completed', { data: { ...reply, content: 'We ship to Canada.' }, meta: meta(3) }),
];

async function collect(stream: AsyncIterable<TurnStreamEvent>): Promise<TurnStreamEvent[]> {
  const events: TurnStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

describe('client.messages.stream', () => {
  it('posts response_type "stream" and yields typed events in order', async () => {
    server.use(http.post(messages, () => sse(TURN)));
    const stream = await testClient().messages.stream(WIDGET, SESSION, { content: 'Do you ship to Canada?' }, { idempotencyKey: 'k-9' });
    const events = await collect(stream);
    expect(stream.requestId).toBe('req_1');
    expect(events.map((event) => event.type)).toEqual(['message.start', 'message.delta', 'message.delta', 'message.completed']);
    expect(events[0]).toEqual({ type: 'message.start', messageId: reply.messageId, sessionId: SESSION });
    const text = events.flatMap((event) => (event.type === 'message.delta' ? [event.text] : [])).join('');
    const last = events.at(-1);
    if (last?.type !== 'message.completed') throw new Error('expected message.completed last');
    expect(last.data.content).toBe(text);
    expect(last.meta.creditsConsumed).toBe(3);
    const sent = requests[0]!;
    expect(await sent.json()).toEqual({ content: 'Do you ship to Canada?', response_type: 'stream' });
    expect(sent.headers.get('accept')).toBe('text/event-stream');
    expect(sent.headers.get('idempotency-key')).toBe('k-9');
    expect(sent.headers.get('x-api-key')).toMatch(/^sk_live_/);
  });

  it('yields message.failed as the last event when the turn fails after acceptance', async () => {
    server.use(
      http.post(messages, () =>
        sse([
          frame('message.start', { messageId: 'msg_1', sessionId: SESSION }),
          frame('message.failed', { error: { code: 'agent_unavailable', message: 'The AI could not answer.' }, meta: meta(0) }),
        ]),
      ),
    );
    const events = await collect(await testClient().messages.stream(WIDGET, SESSION, { content: 'Hi' }));
    expect(events.at(-1)).toEqual({ type: 'message.failed', error: { code: 'agent_unavailable', message: 'The AI could not answer.' }, meta: { creditsConsumed: 0 } });
  });

  it('rejects with the SvcApiError of a refusal before acceptance, like other calls', async () => {
    server.use(
      http.post(messages, () =>
        HttpResponse.json(
          { error: { code: 'session_not_active', message: 'The session is resolved.' }, meta: meta(0) },
          { status: 409, headers: { 'x-request-id': 'req_409' } },
        ),
      ),
    );
    const error = await testClient()
      .messages.stream(WIDGET, SESSION, { content: 'Hi' })
      .catch((caught: unknown) => caught);
    expect(isSvcApiError(error)).toBe(true);
    expect(error).toMatchObject({ status: 409, code: 'session_not_active', requestId: 'req_409' });
  });

  it('shows a turn the server answered as JSON (an idempotent replay) as its events', async () => {
    server.use(http.post(messages, () => HttpResponse.json({ data: reply, meta: meta(2) })));
    const events = await collect(await testClient().messages.stream(WIDGET, SESSION, { content: 'Hi' }));
    expect(events).toEqual([
      { type: 'message.start', messageId: reply.messageId, sessionId: SESSION },
      { type: 'message.delta', text: reply.content },
      { type: 'message.completed', data: reply, meta: meta(2) },
    ]);
  });

  it('throws invalid_response when the stream ends before the turn completed', async () => {
    server.use(http.post(messages, () => sse(TURN.slice(0, 3))));
    const events: TurnStreamEvent[] = [];
    const error = await (async () => {
      for await (const event of await testClient().messages.stream(WIDGET, SESSION, { content: 'Hi' })) events.push(event);
    })().catch((caught: unknown) => caught);
    expect(events.map((event) => event.type)).toEqual(['message.start', 'message.delta']);
    expect(error).toMatchObject({ name: 'SvcApiError', code: 'invalid_response' });
  });

  it('gives up with a timeout error when the stream goes silent past idleTimeoutMs', async () => {
    server.use(http.post(messages, () => sse([frame('message.start', { messageId: 'msg_1', sessionId: SESSION }), new Promise(() => undefined)])));
    const stream = await testClient().messages.stream(WIDGET, SESSION, { content: 'Hi' }, { idleTimeoutMs: 50 });
    const started = performance.now();
    const error = await collect(stream).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'SvcApiError', code: 'timeout' });
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('closes the connection when the caller stops reading (over a real socket)', async () => {
    // msw's bodies do not see a cancelled fetch, so this one runs against a Node HTTP server on loopback.
    let closed!: () => void;
    const connectionClosed = new Promise<void>((resolve) => (closed = resolve));
    const origin = createServer((request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const chunk of TURN.slice(0, 3)) response.write(chunk);
      // The rest never comes: only the client going away ends this response.
      response.on('close', closed);
    });
    await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
    server.use(http.post(/^http:\/\/127\.0\.0\.1:/, passthrough));
    try {
      const { port } = origin.address() as AddressInfo;
      const client = testClient({ baseUrl: `http://127.0.0.1:${port}` });
      for await (const event of await client.messages.stream(WIDGET, SESSION, { content: 'Hi' })) {
        if (event.type === 'message.delta') break;
      }
      await connectionClosed;
    } finally {
      origin.closeAllConnections();
      await new Promise((resolve) => origin.close(resolve));
    }
  });

  it('rejects with the caller’s reason when aborted before acceptance', async () => {
    server.use(http.post(messages, () => new Promise<Response>(() => undefined)));
    const controller = new AbortController();
    const pending = testClient().messages.stream(WIDGET, SESSION, { content: 'Hi' }, { signal: controller.signal });
    controller.abort(new Error('navigated away'));
    await expect(pending).rejects.toThrow('navigated away');
  });
});

describe('client.forms.stream', () => {
  it('streams the answer turn of a form submission', async () => {
    server.use(http.post(submissions, () => sse(TURN)));
    const events = await collect(await testClient().forms.stream(WIDGET, SESSION, { formId: 'contact_sales', answers: { name: 'Ada' } }));
    expect(events.at(-1)?.type).toBe('message.completed');
    expect(await requests[0]!.json()).toEqual({ formId: 'contact_sales', answers: { name: 'Ada' }, response_type: 'stream' });
  });

  it('rejects a refused submission with form_rejected naming the question', async () => {
    server.use(
      http.post(submissions, () =>
        HttpResponse.json({ error: { code: 'form_rejected', message: 'email is required', field: 'answers.email' }, meta: meta(0) }, { status: 400 }),
      ),
    );
    await expect(testClient().forms.stream(WIDGET, SESSION, { formId: 'contact_sales', answers: {} })).rejects.toMatchObject({
      status: 400,
      code: 'form_rejected',
      field: 'answers.email',
    });
  });
});
