import { MESSAGE_CREATED, SESSION_UPDATED } from '@svc/core/event-stream';
import { describe, expect, it, vi, type Mock } from 'vitest';
import { eventStream, fakeContext } from '../test/context.js';
import { API_KEY, BASE } from '../test/fake-service.js';
import { byTestId, messages, reply, send, shadow, useFakeService, waitFor } from '../test/harness.js';
import { ApiError, type RequestOptions } from './api.js';
import type { HistoryItem } from './api-types.js';
import type { Context } from './context.js';
import { bubble, chatbox } from './index.js';
import { createLiveEvents } from './live-events.js';
import { chatMessage } from './messages.js';

/** DESIGN.md 6 and 7: operator messages and handoff changes reach the open widget through the session event stream. */
const service = useFakeService();
const config = { apiKey: API_KEY, apiBase: BASE };
const SARAH = { state: 'active' as const, since: new Date().toISOString(), operator: { id: 'op_1', name: 'Sarah' } };
const streams = () => service.requests.filter((request) => request.url.endsWith('/events'));
const operatorBubbles = () => [...shadow().querySelectorAll('[part~="message-operator"]')].map((element) => element.textContent);

/** An open bubble with a session, following its event stream. */
async function openConversation() {
  const widget = bubble(config);
  widget.open();
  send('I want to talk to a person');
  await reply('Echo: I want to talk to a person');
  await waitFor(() => expect(service.openStreams()).toBe(1));
  return widget;
}

describe('the session event stream', () => {
  it("shows a person's reply live, by name and marked as a person", async () => {
    await openConversation();
    service.setHandoff('sess_1', { state: 'requested', since: new Date().toISOString(), operator: null });
    service.setHandoff('sess_1', SARAH);

    service.operatorReply('sess_1', 'Sarah', 'Hi, Sarah here. How can I help?');
    await reply('Sarah here');
    expect(byTestId('svc-author').textContent).toBe('Sarah (person)');
    expect(operatorBubbles()).toEqual(['Sarah (person)Hi, Sarah here. How can I help?']);
    expect(byTestId('svc-live').textContent).toBe('Sarah: Hi, Sarah here. How can I help?');
    // The AI's replies carry no such label.
    expect(shadow().querySelectorAll('[data-testid="svc-author"]')).toHaveLength(1);

    service.setHandoff('sess_1', null);
  });

  it('resumes after a dropped connection from the last event seen: nothing missing, nothing twice', async () => {
    await openConversation();
    service.operatorReply('sess_1', 'Sarah', 'First');
    await reply('First');
    service.dropStreams();
    service.operatorReply('sess_1', 'Sarah', 'Second, while the connection was down');
    await reply('Second', 4000);
    expect(operatorBubbles()).toEqual(['Sarah (person)First', 'Sarah (person)Second, while the connection was down']);
    // The first connection asked for the session's whole log; the second for what followed the last event seen.
    const [first, resumed] = streams();
    expect(first!.headers['last-event-id']).toBe('0');
    expect(resumed!.headers['last-event-id']).toBe('1');
    expect(streams()).toHaveLength(2);
  });

  it('reconnects after a failing attempt, and gives up on a refusal that asking again cannot change', async () => {
    await openConversation();
    service.state.failNext.push({ status: 503, code: 'unavailable' });
    service.dropStreams();
    await waitFor(() => expect(service.openStreams()).toBe(1), { timeout: 5000 });
    expect(streams()).toHaveLength(3);
    service.operatorReply('sess_1', 'Sarah', 'Back');
    await reply('Back');

    service.state.failNext.push({ status: 404, code: 'session_not_found' });
    service.dropStreams();
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(streams()).toHaveLength(4);
    expect(service.openStreams()).toBe(0);
  }, 15_000);

  it('stops listening when the panel closes; reopened, it shows what came meanwhile, once', async () => {
    const widget = await openConversation();
    service.operatorReply('sess_1', 'Sarah', 'Before closing');
    await reply('Before closing');
    widget.close();
    await waitFor(() => expect(service.openStreams()).toBe(0));
    service.operatorReply('sess_1', 'Sarah', 'While closed');
    widget.open();
    await reply('While closed');
    expect(operatorBubbles()).toEqual(['Sarah (person)Before closing', 'Sarah (person)While closed']);
    expect(streams().at(-1)!.headers['last-event-id']).toBe('1');
  });

  it("reads the session's whole log when it has no event to resume from, and a reload shows operator messages once", async () => {
    const widget = await openConversation();
    widget.close();
    await waitFor(() => expect(service.openStreams()).toBe(0));
    // Nothing was seen on the stream before it closed: the reopened one asks for the log from its start.
    service.setHandoff('sess_1', SARAH);
    service.operatorReply('sess_1', 'Sarah', 'Sent while the panel was closed');
    widget.open();
    await reply('Sent while the panel was closed');

    widget.destroy();
    bubble(config).open();
    await waitFor(() => expect(messages()).toHaveLength(3));
    await waitFor(() => expect(service.openStreams()).toBe(1));
    expect(operatorBubbles()).toEqual(['Sarah (person)Sent while the panel was closed']);
  });

  it('stops when the session ends, and follows a chatbox from the start', async () => {
    chatbox(config);
    send('Hello');
    await reply('Echo: Hello');
    await waitFor(() => expect(service.openStreams()).toBe(1));
    byTestId('svc-end').click();
    await waitFor(() => byTestId('svc-rating'));
    await waitFor(() => expect(service.openStreams()).toBe(0));
  });
});

/** live-events.ts alone, on a fake context whose `GET` answers with the streams a test gives it. */
describe('live-events.ts', () => {
  const operator = (messageId: string, content: string): HistoryItem => ({
    messageId,
    role: 'assistant',
    content,
    author: { type: 'operator', name: 'Sarah' },
    createdAt: new Date().toISOString(),
  });
  /** A connection that sends these events, then stays open until it is aborted. */
  const open =
    (...events: [string, unknown, string?][]) =>
    (_session: string | null, _suffix: string, request?: RequestOptions): Promise<ReadableStream<Uint8Array>> => {
      const sent = eventStream(...events).getReader();
      return Promise.resolve(
        new ReadableStream<Uint8Array>({
          async start(controller) {
            request?.signal?.addEventListener('abort', () => controller.error(new DOMException('aborted', 'AbortError')));
            for (let chunk = await sent.read(); !chunk.done; chunk = await sent.read()) controller.enqueue(chunk.value);
          },
        }),
      );
    };
  function live(GET: Mock, current: string | null = 'sess_1') {
    const c = fakeContext({ GET, current });
    Object.assign(c, createLiveEvents(c));
    const lastEventIds = () => GET.mock.calls.map(([, , request]) => (request as RequestOptions).headers!['Last-Event-ID']);
    return { c, lastEventIds, shown: () => c.store.get().messages.map((message) => [message.author, message.content]) };
  }

  it('waits for the stored conversation, follows the session from its first event and shows an operator’s message once, announced', async () => {
    const GET = vi.fn(open([MESSAGE_CREATED, operator('msg_1', 'Hi, Sarah here'), '1'], [MESSAGE_CREATED, operator('msg_1', 'Hi, Sarah here'), '2']));
    const { c, shown, lastEventIds } = live(GET);
    let restored = (): void => undefined;
    c.restoring = new Promise((resolve) => (restored = resolve));
    c.listen(true);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(GET).not.toHaveBeenCalled();
    restored();
    await vi.waitFor(() => expect(shown()).toEqual([['Sarah', 'Hi, Sarah here']]));
    expect(GET).toHaveBeenCalledWith('sess_1', '/events', { headers: { 'Last-Event-ID': '0' }, signal: expect.any(AbortSignal) });
    expect(lastEventIds()).toEqual(['0']);
    expect(c.store.get().announcement).toBe('Sarah: Hi, Sarah here');
    c.listen(false);
  });

  it('does not show again what is on screen already, nor the AI’s own replies', async () => {
    const { c, shown } = live(vi.fn(open([MESSAGE_CREATED, operator('msg_1', 'From the history')], [MESSAGE_CREATED, { ...operator('msg_2', 'AI'), author: undefined }])));
    c.store.set({ messages: [chatMessage('assistant', 'From the history', { id: 'msg_1', author: 'Sarah' })] });
    c.listen(true);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(shown()).toEqual([['Sarah', 'From the history']]);
    c.listen(false);
  });

  it('resumes after a dropped connection 1 s later, from the last event seen', async () => {
    vi.useFakeTimers();
    // Each connection sends one event and ends.
    const GET = vi.fn(async () => eventStream([MESSAGE_CREATED, operator('msg_1', 'First'), '5']));
    const { c, lastEventIds } = live(GET);
    c.listen(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(lastEventIds()).toEqual(['0']);
    await vi.advanceTimersByTimeAsync(999);
    expect(lastEventIds()).toEqual(['0']);
    await vi.advanceTimersByTimeAsync(1);
    expect(lastEventIds()).toEqual(['0', '5']);
    c.listen(false);
    vi.useRealTimers();
  });

  it('tries again after a failure, 1 s then 2 s; a refusal that asking again cannot change ends it', async () => {
    vi.useFakeTimers();
    const GET = vi.fn<Context['GET']>().mockRejectedValueOnce(new ApiError(503, 'unavailable', '')).mockRejectedValueOnce(new ApiError(0, 'network_error', '')).mockRejectedValue(new ApiError(404, 'session_not_found', ''));
    const { c } = live(GET);
    c.listen(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(GET).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(GET).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1999);
    expect(GET).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(GET).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(GET).toHaveBeenCalledTimes(3);
    vi.useRealTimers();
  });

  it('a session that ended: shown as ended, and the stream stops', async () => {
    const GET = vi.fn(open([SESSION_UPDATED, { status: 'resolved' }, '1']));
    const { c } = live(GET);
    c.listen(true);
    await vi.waitFor(() => expect(c.store.get().session).toBe('ended'));
    const [, , request] = GET.mock.calls[0]!;
    await vi.waitFor(() => expect(request!.signal!.aborted).toBe(true));
    expect(GET).toHaveBeenCalledOnce();
  });

  it('stops when the panel closes, and resumes where it left off when it opens again', async () => {
    const GET = vi.fn(open([MESSAGE_CREATED, operator('msg_1', 'First'), '3']));
    const { c, lastEventIds, shown } = live(GET);
    c.listen(true);
    await vi.waitFor(() => expect(shown()).toHaveLength(1));
    c.listen(false);
    expect(GET.mock.calls[0]![2]!.signal!.aborted).toBe(true);
    c.listen(true);
    await vi.waitFor(() => expect(GET).toHaveBeenCalledTimes(2));
    expect(lastEventIds()).toEqual(['0', '3']);
    c.listen(false);
  });

  it('follows a new session from its first event; no session, no stream', async () => {
    const GET = vi.fn(open([MESSAGE_CREATED, operator('msg_1', 'First'), '3']));
    const { c, shown } = live(GET, null);
    c.listen(true);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(GET).not.toHaveBeenCalled();
    c.current = 'sess_2';
    c.follow();
    await vi.waitFor(() => expect(shown()).toHaveLength(1));
    c.current = 'sess_3';
    c.follow();
    await vi.waitFor(() => expect(GET).toHaveBeenCalledTimes(2));
    expect(GET.mock.calls[0]![2]!.signal!.aborted).toBe(true);
    expect(GET.mock.calls.map(([session, , request]) => [session, request!.headers!['Last-Event-ID']])).toEqual([
      ['sess_2', '0'],
      ['sess_3', '0'],
    ]);
    c.listen(false);
  });

  it('a conversation that started over gets nothing from the old stream', async () => {
    let push = (): void => undefined;
    const GET = vi.fn(async () =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          push = () => controller.enqueue(new TextEncoder().encode(`event: ${MESSAGE_CREATED}\ndata: ${JSON.stringify(operator('msg_9', 'Late'))}\n\n`));
        },
      }),
    );
    const { c, shown } = live(GET);
    c.listen(true);
    await vi.waitFor(() => expect(GET).toHaveBeenCalledOnce());
    c.generation++;
    push();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(shown()).toEqual([]);
    c.listen(false);
  });
});
