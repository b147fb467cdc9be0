import { describe, expect, it, vi } from 'vitest';
import { API_KEY, BASE, EVERY_KIND_FORM } from '../test/fake-service.js';
import { byTestId, messages, queryTestId, reply, send, shadow, useFakeService, waitFor } from '../test/harness.js';
import { POLL_MS } from './turn-stream.js';
import { readEvents } from './event-stream.js';
import { bubble } from './index.js';

const service = useFakeService();
const posts = (suffix: string) => service.requests.filter((request) => request.method === 'POST' && request.url.endsWith(suffix));
const historyReads = () => service.requests.filter((request) => request.method === 'GET' && request.url.includes('/messages?'));
const assistant = () => messages().filter((message) => message.role === 'assistant');

/** A stream the test releases: the service sends `message.start` and two deltas, then waits. */
function held(): { hold: Promise<void>; release(): void } {
  let release = (): void => undefined;
  const hold = new Promise<void>((resolve) => (release = resolve));
  return { hold, release };
}

describe('streamed replies (response_type "stream")', () => {
  it('shows the reply as it is written, then the completed reply once, announced only when complete', async () => {
    const gate = held();
    service.state.next.push({ reply: { content: 'Standard shipping takes **3-5** days.' }, hold: gate.hold });
    bubble({ apiKey: API_KEY, apiBase: BASE }).open();
    send('How long does shipping take?');
    // The first words are on screen while the service still writes: the typing indicator has given way to them.
    await waitFor(() => expect(assistant().map((message) => message.text)).toEqual(['Standard shipping ']));
    expect(queryTestId('svc-typing')).toBeNull();
    expect(byTestId('svc-live').textContent).toBe('');
    expect(posts('/messages')[0]!.body).toMatchObject({ response_type: 'stream' });

    gate.release();
    await reply('Standard shipping takes 3-5 days.');
    // One bubble for the reply (the draft became the final reply), and the live region reads it once, whole.
    expect(messages().map((message) => message.text)).toEqual(['How long does shipping take?', 'Standard shipping takes 3-5 days.']);
    expect(byTestId('svc-live').textContent).toBe('Standard shipping takes 3-5 days.');
    expect(shadow().querySelectorAll('[data-testid="svc-message"]')[1]!.querySelector('strong')?.textContent).toBe('3-5');
  });

  it('takes products and forms from message.completed', async () => {
    const gate = held();
    service.state.next.push({
      reply: { content: 'Here is a tent and a form.', products: [{ id: 't', name: 'Trail Tent 2P', price: 249, currency: 'EUR' }], forms: [EVERY_KIND_FORM] },
      hold: gate.hold,
    });
    bubble({ apiKey: API_KEY, apiBase: BASE }).open();
    send('Tents?');
    await waitFor(() => expect(assistant()).toHaveLength(1));
    expect(queryTestId('svc-product')).toBeNull();
    expect(queryTestId('svc-form')).toBeNull();
    gate.release();
    await waitFor(() => byTestId('svc-product'));
    expect(byTestId('svc-product').textContent).toContain('Trail Tent 2P');
    expect(byTestId('svc-form')).toBeTruthy();
    expect(assistant().map((message) => message.text)).toEqual(['Here is a tent and a form.']);
  });

  it('message.failed: no half-written reply stays, the banner offers a retry, the visitor message is kept', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    service.state.next.push({ failed: { code: 'agent_unavailable', message: 'The AI failed.' } });
    bubble({ apiKey: API_KEY, apiBase: BASE }).open();
    send('Hello?');
    await waitFor(() => expect(queryTestId('svc-status')?.getAttribute('data-kind')).toBe('error'));
    expect(queryTestId('svc-retry')).toBeTruthy();
    expect(messages()).toEqual([{ role: 'user', text: 'Hello?' }]);
    expect(queryTestId('svc-typing')).toBeNull();
  });

  it('a stream dropped after message.start is not re-sent: the reply is read from the history under its id', async () => {
    service.state.next.push({ processing: { content: 'Your order ships tomorrow.' }, deltas: 2, afterPolls: 1 });
    bubble({ apiKey: API_KEY, apiBase: BASE }).open();
    send('Where is my order?');
    // What arrived before the break stays on screen meanwhile.
    await waitFor(() => expect(assistant().map((message) => message.text)).toEqual(['Your order ']));
    await reply('Your order ships tomorrow.', POLL_MS * 3);
    expect(messages().map((message) => message.text)).toEqual(['Where is my order?', 'Your order ships tomorrow.']);
    expect(posts('/messages')).toHaveLength(1);
    expect(historyReads().length).toBeGreaterThan(0);
    expect(byTestId('svc-live').textContent).toBe('Your order ships tomorrow.');
    expect(queryTestId('svc-status')).toBeNull();
  }, 10_000);

  it('a stream broken before message.start: "unreachable" with a retry that replays the turn (same key), shown once', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    bubble({ apiKey: API_KEY, apiBase: BASE }).open();
    // The service runs the turn, but the connection breaks before the first event.
    service.state.cutBeforeStart = true;
    send('Hi');
    await waitFor(() => expect(queryTestId('svc-status')?.getAttribute('data-kind')).toBe('unreachable'));
    service.state.cutBeforeStart = false;
    byTestId('svc-retry').click();
    await reply('Echo: Hi');
    const [first, second] = posts('/messages');
    expect(second!.headers['idempotency-key']).toBe(first!.headers['idempotency-key']);
    // The replayed stream is the first turn's reply: one question, one answer, nothing run twice.
    expect(messages().map((message) => message.text)).toEqual(['Hi', 'Echo: Hi']);
    expect(service.sessions.get('sess_1')!.history.map((item) => item.content)).toEqual(['Hi', 'Echo: Hi']);
    expect(queryTestId('svc-status')).toBeNull();
  });
});

describe('a turn during a handoff to a person', () => {
  it('ends with message.handoff: the message counts as sent, with no AI reply, no retry and no banner', async () => {
    bubble({ apiKey: API_KEY, apiBase: BASE }).open();
    send('Hello');
    await reply('Echo: Hello');
    service.state.next.push({ handoff: true });
    send('Are you there?');
    await waitFor(() => expect([...shadow().querySelectorAll('[data-testid="svc-message"]')].at(-1)?.getAttribute('data-state')).toBe('sent'));
    await waitFor(() => expect(queryTestId('svc-typing')).toBeNull());
    expect(messages()).toEqual([
      { role: 'user', text: 'Hello' },
      { role: 'assistant', text: 'Echo: Hello' },
      { role: 'user', text: 'Are you there?' },
    ]);
    expect(posts('/messages')).toHaveLength(2);
    expect(historyReads()).toHaveLength(0);
    expect(queryTestId('svc-status')).toBeNull();
  });
});

describe('readEvents', () => {
  const stream = (...chunks: string[]): ReadableStream<Uint8Array> =>
    new ReadableStream({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
        controller.close();
      },
    });
  const all = async (body: ReadableStream<Uint8Array>) => {
    const events: [string, unknown, string?][] = [];
    for await (const event of readEvents(body)) events.push(event);
    return events;
  };

  it('reads events split anywhere, CRLF and CR line ends (even a CRLF split between chunks), comments, ids and multi-line data', async () => {
    const events = await all(
      stream(': keep-alive\n\nevent: message.st', 'art\r\ndata: {"messageId":"msg_1"}\r', '\n\r\nid: 42\revent: message.delta\rdata: {"text":\rdata: "é"}\r\r', 'data: 1\n\n', 'event: cut\ndata: 2\n'),
    );
    expect(events).toEqual([
      ['message.start', { messageId: 'msg_1' }, undefined],
      ['message.delta', { text: 'é' }, '42'],
      ['message', 1, undefined],
    ]);
  });
});
