import { fireEvent } from '@testing-library/preact';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { API_KEY, BASE, EVERY_KIND_FORM } from '../test/fake-service.js';
import { byTestId, messages, queryTestId, reply, send, storedKeys, useFakeService, waitFor } from '../test/harness.js';
import { testToken } from '../test/jwt.js';
import { POLL_MS } from './turn-stream.js';
import { bubble, chatbox, setIdentityTokenProvider } from './index.js';

const service = useFakeService();
const config = { apiKey: API_KEY, apiBase: BASE };
const quiet = () => vi.spyOn(console, 'warn').mockImplementation(() => undefined);
const posts = (suffix: string) => service.requests.filter((request) => request.method === 'POST' && request.url.endsWith(suffix));
const sessionKey = `svc-widget:session:${API_KEY}`;
const status = () => queryTestId('svc-status');

let current: { destroy(): void } | null = null;

/** Shows the widget as a page load would; a bubble is opened by the visitor. */
function open(kind: 'bubble' | 'chatbox' = 'bubble'): void {
  if (kind === 'chatbox') current = chatbox(config);
  else (current = bubble(config)).open();
}

/** A page reload: the widget goes, storage stays. */
function reload(): void {
  current?.destroy();
}

describe('a conversation', () => {
  it('creates its session with the first message, without choosing its id, then reuses it', async () => {
    open();
    expect(posts('/conversations')).toHaveLength(0); // opening costs nothing
    send('Do you ship to Canada?');
    await reply('Echo: Do you ship to Canada?');
    send('And to Mexico?');
    await reply('Echo: And to Mexico?');
    const [create] = posts('/conversations');
    expect(create!.body).toMatchObject({ visitorId: expect.stringMatching(/^v_/), language: 'en', timezone: expect.any(String) });
    expect(create!.body).not.toHaveProperty('sessionId');
    expect(posts('/messages').map((request) => request.body)).toEqual([
      { content: 'Do you ship to Canada?', timezone: expect.any(String), response_type: 'stream' },
      { content: 'And to Mexico?', timezone: expect.any(String), response_type: 'stream' },
    ]);
    expect(posts('/conversations')).toHaveLength(1);
    for (const request of service.requests) expect(request.headers['x-api-key']).toBe(API_KEY);
    expect(messages().map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
  });

  it('restores the history after a reload, following the pages in order, without announcing it', async () => {
    open();
    for (const text of ['one', 'two', 'three']) {
      send(text);
      await reply(`Echo: ${text}`);
    }
    reload();
    service.state.pageSize = 2;
    open();
    await waitFor(() => expect(messages()).toHaveLength(6));
    expect(messages().map((message) => message.text)).toEqual(['one', 'Echo: one', 'two', 'Echo: two', 'three', 'Echo: three']);
    const pages = service.requests.filter((request) => request.method === 'GET' && request.url.includes('/messages'));
    expect(pages.map((request) => new URL(request.url).searchParams.get('cursor'))).toEqual([null, '2', '4']);
    expect(byTestId('svc-live').textContent).toBe('');
    send('four');
    await reply('Echo: four');
    expect(posts('/conversations')).toHaveLength(1);
  });

  it('sends a message typed while the history still loads to the restored conversation', async () => {
    open();
    send('one');
    await reply('Echo: one');
    reload();
    open();
    send('two'); // before the history has arrived
    await reply('Echo: two');
    expect(messages().map((message) => message.text)).toEqual(['one', 'Echo: one', 'two', 'Echo: two']);
    expect(posts('/conversations')).toHaveLength(1);
  });

  it('announces new replies, products included, in the polite live region', async () => {
    service.state.next.push({ reply: { content: '**Tents** we sell:', products: [{ id: 't', name: 'Trail Tent 2P', price: 249, currency: 'EUR' }] } });
    open();
    send('Which tents?');
    await reply('Tents we sell:');
    expect(byTestId('svc-live').getAttribute('aria-live')).toBe('polite');
    expect(byTestId('svc-live').textContent).toBe('Tents we sell:. Trail Tent 2P');
    expect(byTestId('svc-product').textContent).toContain('Trail Tent 2P');
  });

  it('offers the rating once the reply ends the session, then starts afresh', async () => {
    service.state.next.push({ reply: { content: 'Goodbye!', sessionEnded: true } });
    open();
    send('Bye');
    await reply('Goodbye!');
    expect(queryTestId('svc-input')).toBeNull();
    fireEvent.click(byTestId('svc-rate-positive'));
    await waitFor(() => expect(posts('/rate')).toHaveLength(1));
    expect(posts('/rate')[0]!.body).toEqual({ rating: 'positive' });
    expect(byTestId('svc-rate-positive').getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(byTestId('svc-restart'));
    expect(storedKeys()[sessionKey]).toBeUndefined();
    send('Hello again');
    await reply('Echo: Hello again');
    expect(posts('/conversations')).toHaveLength(2);
  });

  it('keeps an ended, unrated conversation for rating after a reload; a rated one is forgotten', async () => {
    service.state.next.push({ reply: { content: 'Goodbye!', sessionEnded: true } });
    open();
    send('Bye');
    await reply('Goodbye!');
    reload();
    open();
    await waitFor(() => byTestId('svc-rating'));
    expect(messages().map((message) => message.text)).toEqual(['Bye', 'Goodbye!']);
    fireEvent.click(byTestId('svc-rate-negative'));
    await waitFor(() => expect(posts('/rate')).toHaveLength(1));
    reload();
    open();
    await waitFor(() => expect(storedKeys()[sessionKey]).toBeUndefined());
    expect(messages()).toEqual([]);
    expect(queryTestId('svc-input')).not.toBeNull();
  });

  it('ends the conversation on request', async () => {
    open();
    send('Hi');
    await reply('Echo: Hi');
    fireEvent.click(byTestId('svc-end'));
    await waitFor(() => byTestId('svc-rating'));
    expect(posts('/end')).toHaveLength(1);
  });

  it('treats 409 session_not_active as the end of the conversation', async () => {
    open();
    send('Hi');
    await reply('Echo: Hi');
    service.sessions.get('sess_1')!.status = 'expired';
    send('Still there?');
    await waitFor(() => byTestId('svc-rating'));
    expect(messages().at(-1)!.text).toContain('Not sent');
  });

  it('forgets a stored session the service no longer knows', async () => {
    localStorage.setItem('svc-widget:visitor', 'v_known');
    localStorage.setItem(sessionKey, 'v_known sess_gone');
    open();
    await waitFor(() => expect(storedKeys()[sessionKey]).toBeUndefined());
    send('Hi');
    await reply('Echo: Hi');
  });
});

describe('failures', () => {
  it('402: says the chat is unavailable, and retries the same message with the same Idempotency-Key', async () => {
    open();
    service.state.next.push({ status: 402, code: 'insufficient_credits' });
    send('Hi');
    await waitFor(() => expect(status()?.getAttribute('data-kind')).toBe('unavailable'));
    expect(messages()[0]!.text).toContain('Not sent');
    fireEvent.click(byTestId('svc-retry'));
    await reply('Echo: Hi');
    const [first, second] = posts('/messages');
    expect(second!.headers['idempotency-key']).toBe(first!.headers['idempotency-key']);
    expect(status()).toBeNull();
    expect(messages().map((message) => message.text)).toEqual(['Hi', 'Echo: Hi']);
  });

  it('429: says so, keeps the message waiting and sends it by itself after Retry-After', async () => {
    open();
    service.state.next.push({ status: 429, code: 'rate_limited', headers: { 'Retry-After': '1' } });
    send('Hi');
    await waitFor(() => expect(status()?.getAttribute('data-kind')).toBe('busy'));
    expect(status()!.textContent).toContain('Try again in 1 s.');
    expect(byTestId<HTMLButtonElement>('svc-retry').disabled).toBe(true);
    expect(byTestId('svc-message').getAttribute('data-state')).toBe('queued');
    await reply('Echo: Hi', 2500);
    const [first, second] = posts('/messages');
    expect(second!.headers['idempotency-key']).toBe(first!.headers['idempotency-key']);
  });

  it('service unreachable while the browser is online: says so (not "offline"), retries by itself with the same key', async () => {
    open();
    send('Hi');
    await reply('Echo: Hi');
    let refusedKey: string | null = null;
    service.server.use(
      http.post(
        `${BASE}/widgets/:w/conversations/:s/messages`,
        ({ request }) => {
          refusedKey = request.headers.get('idempotency-key');
          return HttpResponse.error();
        },
        { once: true },
      ),
    );
    send('Still there?');
    await waitFor(() => expect(status()?.getAttribute('data-kind')).toBe('unreachable'));
    expect(status()!.textContent).toContain('Cannot reach the chat service');
    expect(messages()[2]).toEqual({ role: 'user', text: 'Still there? · Waiting to send' });
    await reply('Echo: Still there?', 2500);
    expect(status()).toBeNull();
    const keys = posts('/messages').map((request) => request.headers['idempotency-key']);
    expect(keys).toHaveLength(2);
    expect(refusedKey).toBeTruthy();
    expect(keys[1]).toBe(refusedKey);
    expect(messages().map((message) => message.text)).toEqual(['Hi', 'Echo: Hi', 'Still there?', 'Echo: Still there?']);
  });

  it('browser offline: says so, queues what is typed, and sends it when the browser is back online', async () => {
    open();
    send('Hi');
    await reply('Echo: Hi');
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    window.dispatchEvent(new Event('offline'));
    await waitFor(() => expect(status()?.getAttribute('data-kind')).toBe('offline'));
    expect(byTestId<HTMLButtonElement>('svc-send').disabled).toBe(false);
    send('Are you there?');
    await waitFor(() => expect(messages()[2]?.text).toBe('Are you there? · Waiting to send'));
    expect(posts('/messages')).toHaveLength(1);
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
    window.dispatchEvent(new Event('online'));
    await reply('Echo: Are you there?');
    expect(status()).toBeNull();
    expect(posts('/messages')).toHaveLength(2);
  });

  it('keeps unsent messages across a reload and delivers each once, in order, with its first Idempotency-Key', async () => {
    open();
    send('Hi');
    await reply('Echo: Hi');
    service.server.use(http.post(`${BASE}/widgets/:w/conversations/:s/messages`, () => HttpResponse.error()));
    send('First');
    send('Second');
    await waitFor(() => expect(messages().slice(2).map((message) => message.text)).toEqual(['First · Waiting to send', 'Second · Waiting to send']));
    const stored = JSON.parse(storedKeys()[`svc-widget:outbox:${API_KEY}`]!) as { items: { content: string; idempotencyKey: string }[] };
    expect(stored.items.map((item) => item.content)).toEqual(['First', 'Second']);
    reload();
    service.server.resetHandlers();
    // The outbox goes out on the next page without waiting for the visitor to open the bubble.
    const next = bubble(config);
    current = next;
    await waitFor(() => expect(posts('/messages').filter((request) => (request.body as { content: string }).content === 'Second').length).toBeGreaterThan(0), { timeout: 2000 });
    next.open();
    await reply('Echo: Second');
    expect(messages().map((message) => message.text)).toEqual(['Hi', 'Echo: Hi', 'First', 'Echo: First', 'Second', 'Echo: Second']);
    const delivered = posts('/messages').filter((request) => (request.body as { content: string }).content === 'Second');
    expect(new Set(delivered.map((request) => request.headers['idempotency-key']))).toEqual(new Set([stored.items[1]!.idempotencyKey]));
    expect(storedKeys()[`svc-widget:outbox:${API_KEY}`]).toBeUndefined();
  });

  it('Enter while a reply is pending queues the message instead of dropping it', async () => {
    service.state.next.push({ processing: { content: 'Slow answer' }, afterPolls: 1 });
    open();
    send('Think hard');
    await waitFor(() => byTestId('svc-typing'));
    send('And another thing');
    await reply('Slow answer', POLL_MS * 2);
    await reply('Echo: And another thing');
    expect(messages().map((message) => message.text)).toEqual(['Think hard', 'Slow answer', 'And another thing', 'Echo: And another thing']);
  }, 10_000);

  it('"Try again" sends every message that failed, not only the last', async () => {
    open();
    service.state.next.push({ status: 402, code: 'insufficient_credits' }, { status: 402, code: 'insufficient_credits' });
    send('One');
    await waitFor(() => expect(status()?.getAttribute('data-kind')).toBe('unavailable'));
    send('Two');
    await waitFor(() => expect(messages().map((message) => message.text)).toEqual(['One · Not sent', 'Two · Not sent']));
    fireEvent.click(byTestId('svc-retry'));
    await reply('Echo: Two');
    expect(messages().map((message) => message.text)).toEqual(['One', 'Echo: One', 'Two', 'Echo: Two']);
  });

  it('reopening the bubble of a first visit does not show the conversation twice', async () => {
    const widget = bubble(config);
    current = widget;
    widget.open();
    send('Hi');
    await reply('Echo: Hi');
    widget.close();
    widget.open();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(messages().map((message) => message.text)).toEqual(['Hi', 'Echo: Hi']);
    expect(service.requests.filter((request) => request.method === 'GET' && request.url.includes('/messages'))).toHaveLength(0);
  });

  it('5xx: shows an error with a retry', async () => {
    open();
    service.state.next.push({ status: 502, code: 'agent_unavailable' });
    send('Hi');
    await waitFor(() => expect(status()?.getAttribute('data-kind')).toBe('error'));
    fireEvent.click(byTestId('svc-retry'));
    await reply('Echo: Hi');
  });

  it('a refused key: says the chat is unavailable here, offers no retry, tells the developer', async () => {
    const warn = quiet();
    bubble({ apiKey: 'pk_live_unknown', apiBase: BASE }).open();
    await waitFor(() => expect(status()?.getAttribute('data-kind')).toBe('unavailable'));
    expect(queryTestId('svc-retry')).toBeNull();
    expect(warn.mock.calls.join('\n')).toContain('invalid_api_key');
  });

  it('a stream broken before any text: the typing indicator stays while the reply is read from the history', async () => {
    service.state.next.push({ processing: { content: 'Slow but here' }, afterPolls: 1 });
    open();
    send('Think hard');
    await waitFor(() => byTestId('svc-typing'));
    await reply('Slow but here', POLL_MS * 2);
    expect(queryTestId('svc-typing')).toBeNull();
  }, 10_000);
});

describe('forms', () => {
  it('submits answers through form-submissions; a rejection shows on its question', async () => {
    service.state.next.push({ reply: { content: 'Happy to help:', forms: [EVERY_KIND_FORM] } });
    open();
    send('Talk to sales');
    await waitFor(() => byTestId('svc-form'));
    const input = (id: string) => byTestId<HTMLInputElement>(`svc-input-${id}`);
    for (const [id, value] of [['name', 'Ada'], ['email', 'ada@bad.example'], ['seats', '3'], ['newsletter', 'yes'], ['plan', 'Pro']] as const) {
      fireEvent.input(input(id), { target: { value } });
    }
    service.state.next.push({ status: 400, code: 'form_rejected', field: 'answers.email', message: 'Email: this domain does not accept mail' });
    fireEvent.submit(byTestId('svc-form'));
    await waitFor(() => expect(byTestId('svc-error-email').textContent).toBe('Email: this domain does not accept mail'));
    expect(status()).toBeNull();
    fireEvent.input(input('email'), { target: { value: 'ada@example.com' } });
    fireEvent.submit(byTestId('svc-form'));
    await reply('Echo: Submitted form');
    const submissions = posts('/form-submissions');
    expect(submissions.at(-1)!.body).toEqual({
      formId: 'contact_sales',
      answers: { name: 'Ada', email: 'ada@example.com', seats: 3, newsletter: true, plan: 'Pro' },
      response_type: 'stream',
      timezone: expect.any(String),
    });
    expect(queryTestId('svc-form')).toBeNull();
    expect(byTestId('svc-form-sent').textContent).toContain('Talk to sales');
    expect(messages().some((message) => message.role === 'user' && message.text.includes('Email: ada@example.com'))).toBe(true);
  });
});

describe('identity', () => {
  it('sends the token in a header only; a null answer after it signs out: new visitor, new conversation', async () => {
    let token: string | null = testToken('user-1');
    setIdentityTokenProvider(() => token);
    open();
    send('Hi');
    await reply('Echo: Hi');
    const firstVisitor = storedKeys()['svc-widget:visitor'];
    expect(posts('/messages')[0]!.headers['x-identity-token']).toBe(token);
    token = null;
    setIdentityTokenProvider(() => token); // the host page signed out and says so
    send('Who am I?');
    await reply('Echo: Who am I?');
    expect(messages().map((message) => message.text)).toEqual(['Who am I?', 'Echo: Who am I?']);
    const newVisitor = storedKeys()['svc-widget:visitor'];
    expect(newVisitor).not.toBe(firstVisitor);
    expect(storedKeys()[sessionKey]).toBe(`${newVisitor} sess_2`);
    expect(posts('/messages')[1]!.headers['x-identity-token']).toBeUndefined();
    setIdentityTokenProvider(null);
  });

  it('after a sign-out, storage holds a new visitorId and no sessionId', async () => {
    let token: string | null = testToken('user-1');
    setIdentityTokenProvider(() => token);
    open();
    send('Hi');
    await reply('Echo: Hi');
    const before = storedKeys();
    token = null;
    setIdentityTokenProvider(() => token);
    service.state.failNext.push({ status: 503, code: 'unavailable' }); // the new conversation cannot start yet
    send('Still me?');
    await waitFor(() => expect(status()?.getAttribute('data-kind')).toBe('error'));
    const after = storedKeys();
    expect(after['svc-widget:visitor']).toMatch(/^v_[0-9a-f]{32}$/);
    expect(after['svc-widget:visitor']).not.toBe(before['svc-widget:visitor']);
    expect(after[sessionKey]).toBeUndefined();
    setIdentityTokenProvider(null);
  });

  it('a token for another person starts a new visitor and conversation', async () => {
    let token = testToken('user-1');
    setIdentityTokenProvider(() => token);
    open();
    send('Hi');
    await reply('Echo: Hi');
    token = testToken('user-2');
    setIdentityTokenProvider(() => token);
    send('Hello');
    await reply('Echo: Hello');
    const creates = posts('/conversations');
    expect(creates).toHaveLength(2);
    expect((creates[0]!.body as { visitorId: string }).visitorId).not.toBe((creates[1]!.body as { visitorId: string }).visitorId);
    setIdentityTokenProvider(null);
  });

  it('identity_mismatch on a reloaded conversation starts over as a new visitor', async () => {
    setIdentityTokenProvider(() => testToken('user-1'));
    open();
    send('Hi');
    await reply('Echo: Hi');
    reload();
    setIdentityTokenProvider(() => testToken('user-2')); // another person, after a reload: no token in memory to compare
    open();
    await waitFor(() => expect(service.requests.some((request) => request.method === 'GET' && request.url.endsWith('/sess_1'))).toBe(true));
    send('Mine?');
    await reply('Echo: Mine?');
    expect(messages().map((message) => message.text)).toEqual(['Mine?', 'Echo: Mine?']);
    expect(posts('/conversations')).toHaveLength(2);
    setIdentityTokenProvider(null);
  });
});

it('a chatbox restores its conversation at once', async () => {
  open('chatbox');
  send('Hi');
  await reply('Echo: Hi');
  reload();
  open('chatbox');
  await waitFor(() => expect(messages()).toHaveLength(2));
});
