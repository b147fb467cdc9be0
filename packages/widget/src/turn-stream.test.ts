import { MESSAGE_COMPLETED, MESSAGE_DELTA, MESSAGE_FAILED, MESSAGE_HANDOFF, MESSAGE_START } from '@svc/core/event-stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { eventStream, fakeContext, type Overrides } from '../test/context.js';
import { ApiError } from './api.js';
import type { HistoryItem } from './api-types.js';
import type { Context } from './context.js';
import { chatMessage } from './messages.js';
import { createTurnStream, POLL_MS } from './turn-stream.js';

const reply = (content: string, messageId = 'msg_1') => ({ data: { messageId, content, products: [], forms: [], sessionEnded: false } });

/** A conversation on screen: the visitor's message (its key is its Idempotency-Key), and one queued after it. */
function turns(overrides: Overrides = {}) {
  const c = fakeContext(overrides);
  c.store.set({ messages: [chatMessage('user', 'Hi', { key: 'idem_1', status: 'sending' }), chatMessage('user', 'Later', { key: 'idem_2', status: 'queued' })] });
  Object.assign(c, createTurnStream(c));
  return { c, shown: () => c.store.get().messages.map((message) => [message.role, message.content]) };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('a turn', () => {
  it('goes out as a stream with the visitor’s time zone and its Idempotency-Key; the reply is shown right after its message, and announced', async () => {
    const POST = vi.fn(async () => eventStream([MESSAGE_START, { messageId: 'msg_1' }], [MESSAGE_COMPLETED, reply('Hello!')]));
    const { c, shown } = turns({ POST });
    const accepted = vi.fn();
    expect(await c.turn({ content: 'Hi', idempotencyKey: 'idem_1' }, accepted)).toBeNull();
    expect(POST).toHaveBeenCalledWith('sess_1', '/messages', {
      body: { content: 'Hi', timezone: expect.any(String), response_type: 'stream' },
      headers: { 'Idempotency-Key': 'idem_1' },
    });
    expect(accepted).toHaveBeenCalledOnce();
    expect(shown()).toEqual([
      ['user', 'Hi'],
      ['assistant', 'Hello!'],
      ['user', 'Later'],
    ]);
    expect(c.store.get()).toMatchObject({ announcement: 'Hello!', typing: false, problem: null });
    expect(c.store.get().messages[1]!.id).toBe('msg_1');
  });

  it('shows the reply as it is written: a bubble from the first words (the typing indicator until then), replaced in place by the final reply', async () => {
    const POST = vi.fn(async () =>
      eventStream([MESSAGE_START, { messageId: 'msg_1' }], [MESSAGE_DELTA, { text: 'Hel' }], [MESSAGE_DELTA, { text: 'lo' }], [MESSAGE_COMPLETED, reply('Hello')]),
    );
    const { c } = turns({ POST });
    const seen: [boolean, string | undefined, string | undefined][] = [];
    c.store.subscribe(() => {
      const { typing, messages } = c.store.get();
      const answer = messages.find((message) => message.role === 'assistant');
      seen.push([typing, answer?.key, answer?.content]);
    });
    await c.turn({ content: 'Hi', idempotencyKey: 'idem_1' });
    const drafts = seen.filter(([, key]) => key);
    const key = drafts[0]![1];
    expect(seen[0]).toEqual([true, undefined, undefined]);
    expect(drafts.map(([typing, , content]) => [typing, content])).toEqual([
      [false, 'Hel'],
      [false, 'Hello'],
      [false, 'Hello'],
      [false, 'Hello'],
    ]);
    expect(drafts.every(([, draft]) => draft === key)).toBe(true);
  });

  it('a form submission goes to its own endpoint, and its reply at the end', async () => {
    const POST = vi.fn(async () => eventStream([MESSAGE_START, { messageId: 'msg_f' }], [MESSAGE_COMPLETED, reply('Thanks', 'msg_f')]));
    const { c, shown } = turns({ POST });
    await c.turn({ formId: 'f_1', answers: { email: 'a@b.c' }, idempotencyKey: 'idem_f' });
    expect(POST).toHaveBeenCalledWith('sess_1', '/form-submissions', {
      body: { formId: 'f_1', answers: { email: 'a@b.c' }, timezone: expect.any(String), response_type: 'stream' },
      headers: { 'Idempotency-Key': 'idem_f' },
    });
    expect(shown().at(-1)).toEqual(['assistant', 'Thanks']);
  });

  it('a failed turn resolves with its error, and no half-written reply stays on screen', async () => {
    const POST = vi.fn(async () => eventStream([MESSAGE_START, { messageId: 'msg_1' }], [MESSAGE_DELTA, { text: 'Half' }], [MESSAGE_FAILED, { error: { code: 'agent_failed', message: 'Boom' } }]));
    const { c, shown } = turns({ POST });
    const error = await c.turn({ content: 'Hi', idempotencyKey: 'idem_1' });
    expect(error).toMatchObject({ status: 502, code: 'agent_failed', message: 'Boom' });
    expect(shown()).toEqual([
      ['user', 'Hi'],
      ['user', 'Later'],
    ]);
    expect(c.store.get().typing).toBe(false);
  });

  it('a refusal before the stream resolves with it, as an ApiError', async () => {
    const refused = new ApiError(409, 'session_not_active', 'Ended');
    const { c } = turns({ POST: vi.fn(async () => Promise.reject(refused)) });
    expect(await c.turn({ content: 'Hi', idempotencyKey: 'idem_1' })).toBe(refused);
  });

  it('a stream that breaks after message.start loses nothing: the reply is read from the history, never sent again', async () => {
    vi.useFakeTimers();
    const late: HistoryItem = { messageId: 'msg_1', role: 'assistant', content: 'Here it is', createdAt: new Date().toISOString() };
    const POST = vi.fn(async () => eventStream([MESSAGE_START, { messageId: 'msg_1' }]));
    const history = vi.fn<Context['history']>().mockRejectedValueOnce(new ApiError(503, 'unavailable', '')).mockResolvedValueOnce([]).mockResolvedValue([late]);
    const { c, shown } = turns({ POST, history });
    const done = c.turn({ content: 'Hi', idempotencyKey: 'idem_1' });
    await vi.advanceTimersByTimeAsync(POLL_MS * 3);
    expect(await done).toBeNull();
    expect(history).toHaveBeenCalledTimes(3);
    expect(history).toHaveBeenCalledWith('sess_1');
    expect(POST).toHaveBeenCalledOnce();
    expect(shown()[1]).toEqual(['assistant', 'Here it is']);
  });

  it('a stream that breaks before message.start is a network error (whether the turn ran is unknown: it is sent again)', async () => {
    const { c } = turns({ POST: vi.fn(async () => eventStream()) });
    expect(await c.turn({ content: 'Hi', idempotencyKey: 'idem_1' })).toMatchObject({ status: 0, code: 'network_error' });
  });

  it('a person took over: no AI reply', async () => {
    const { c, shown } = turns({ POST: vi.fn(async () => eventStream([MESSAGE_START, { messageId: 'msg_1' }], [MESSAGE_HANDOFF, {}])) });
    expect(await c.turn({ content: 'Hi', idempotencyKey: 'idem_1' })).toBeNull();
    expect(shown()).toHaveLength(2);
    expect(c.store.get().typing).toBe(false);
  });

  it('offline: nothing goes out', async () => {
    const POST = vi.fn();
    const { c } = turns({ POST });
    c.store.set({ online: false });
    expect(await c.turn({ content: 'Hi', idempotencyKey: 'idem_1' })).toMatchObject({ status: 0, code: 'offline' });
    expect(POST).not.toHaveBeenCalled();
  });

  it('a replayed turn whose reply is on screen already shows neither twice', async () => {
    const { c, shown } = turns({ POST: vi.fn(async () => eventStream([MESSAGE_START, { messageId: 'msg_0' }], [MESSAGE_DELTA, { text: 'Old' }], [MESSAGE_COMPLETED, reply('Old', 'msg_0')])) });
    c.store.set({ messages: [chatMessage('user', 'Hi', { id: 'u_0' }), chatMessage('assistant', 'Old', { id: 'msg_0' }), ...c.store.get().messages] });
    await c.turn({ content: 'Hi', idempotencyKey: 'idem_1' });
    expect(shown()).toEqual([
      ['user', 'Hi'],
      ['assistant', 'Old'],
      ['user', 'Later'],
    ]);
  });

  it('goes out only once the turn before it has its reply', async () => {
    let finish = (): void => undefined;
    const first = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(`event: ${MESSAGE_START}\ndata: {"messageId":"msg_1"}\n\n`));
        finish = () => {
          controller.enqueue(new TextEncoder().encode(`event: ${MESSAGE_COMPLETED}\ndata: ${JSON.stringify(reply('One'))}\n\n`));
          controller.close();
        };
      },
    });
    const POST = vi.fn().mockResolvedValueOnce(first).mockResolvedValueOnce(eventStream([MESSAGE_START, { messageId: 'msg_2' }], [MESSAGE_COMPLETED, reply('Two', 'msg_2')]));
    const { c } = turns({ POST });
    const one = c.turn({ content: 'Hi', idempotencyKey: 'idem_1' });
    const two = c.turn({ content: 'Later', idempotencyKey: 'idem_2' });
    await vi.waitFor(() => expect(POST).toHaveBeenCalledOnce());
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(POST).toHaveBeenCalledOnce();
    finish();
    expect(await one).toBeNull();
    expect(await two).toBeNull();
    expect(POST).toHaveBeenCalledTimes(2);
  });

  it('a conversation started over meanwhile never shows the late reply', async () => {
    const { c, shown } = turns();
    vi.mocked(c.POST).mockImplementation(async () => {
      c.generation++;
      return eventStream([MESSAGE_START, { messageId: 'msg_1' }], [MESSAGE_COMPLETED, reply('Too late')]);
    });
    const accepted = vi.fn();
    expect(await c.turn({ content: 'Hi', idempotencyKey: 'idem_1' }, accepted)).toBeNull();
    expect(accepted).not.toHaveBeenCalled();
    expect(shown()).toHaveLength(2);
  });
});
