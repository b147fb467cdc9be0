import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { historyItem, meta, reply, SESSION, WIDGET } from './testing/fixtures.js';
import { BASE_URL, testClient, useMockServer } from './testing/mock-server.js';

const { server, requests } = useMockServer();
const messages = `${BASE_URL}/widgets/${WIDGET}/conversations/${SESSION}/messages`;

/** Serves `total` history items in pages, with cursors `c<offset>` as opaque strings. */
function pagedHistory(total: number) {
  return http.get(messages, ({ request }) => {
    const url = new URL(request.url);
    const limit = Number(url.searchParams.get('limit') ?? 50);
    const offset = Number(url.searchParams.get('cursor')?.slice(1) ?? 0);
    const data = Array.from({ length: Math.min(limit, total - offset) }, (_, i) => historyItem(offset + i + 1));
    const hasMore = offset + limit < total;
    return HttpResponse.json({ data, pagination: { cursor: hasMore ? `c${offset + limit}` : null, hasMore }, meta: meta(1) });
  });
}

describe('client.messages', () => {
  it('send returns the 200 reply with credits and meta', async () => {
    server.use(http.post(messages, () => HttpResponse.json({ data: reply, meta: meta(2) })));
    const res = await testClient().messages.send(WIDGET, SESSION, { content: 'Do you ship to Canada?', timezone: 'Europe/Paris' });
    expect(res.status).toBe(200);
    if (res.status !== 200) throw new Error('unreachable');
    expect(res.data.content).toBe(reply.content);
    expect(res.data.credits.plugin).toBe(0);
    expect(res.meta.creditsConsumed).toBe(2);
    expect(await requests[0]!.json()).toEqual({ content: 'Do you ship to Canada?', timezone: 'Europe/Paris' });
  });

  it('send returns a 202 processing result with its status visible', async () => {
    server.use(http.post(messages, () => HttpResponse.json({ data: { messageId: null, status: 'processing' }, meta: meta(0) }, { status: 202 })));
    const res = await testClient().messages.send(WIDGET, SESSION, { content: 'Hi', response_type: 'callback' }, { idempotencyKey: 'k-1' });
    expect(res).toMatchObject({ status: 202, data: { messageId: null, status: 'processing' }, meta: { creditsConsumed: 0 } });
    expect(requests[0]!.headers.get('idempotency-key')).toBe('k-1');
  });

  it('list sends limit and cursor and returns data, pagination and meta', async () => {
    server.use(pagedHistory(5));
    const page = await testClient().messages.list(WIDGET, SESSION, { limit: 2, cursor: 'c2' });
    expect(new URL(requests[0]!.url).search).toBe('?limit=2&cursor=c2');
    expect(page.data.map((m) => m.content)).toEqual(['message 3', 'message 4']);
    expect(page.pagination).toEqual({ cursor: 'c4', hasMore: true });
    expect(page.meta).toEqual({ creditsConsumed: 1 });
  });

  it('list without a query sends no query string', async () => {
    server.use(pagedHistory(1));
    await testClient().messages.list(WIDGET, SESSION);
    expect(new URL(requests[0]!.url).search).toBe('');
  });

  it('iterate follows pagination.cursor across pages until hasMore is false', async () => {
    server.use(pagedHistory(7));
    const seen: string[] = [];
    for await (const item of testClient().messages.iterate(WIDGET, SESSION, { limit: 3 })) seen.push(item.content);
    expect(seen).toEqual(Array.from({ length: 7 }, (_, i) => `message ${i + 1}`));
    expect(requests.map((r) => new URL(r.url).search)).toEqual(['?limit=3', '?limit=3&cursor=c3', '?limit=3&cursor=c6']);
  });

  it('iterate starts from a given cursor and fetches no further page once the loop stops', async () => {
    server.use(pagedHistory(10));
    const seen: string[] = [];
    for await (const item of testClient().messages.iterate(WIDGET, SESSION, { limit: 2, cursor: 'c4' })) {
      seen.push(item.content);
      if (seen.length === 3) break;
    }
    expect(seen).toEqual(['message 5', 'message 6', 'message 7']);
    expect(requests).toHaveLength(2);
  });

  it('iterate over an empty history yields nothing after one request', async () => {
    server.use(pagedHistory(0));
    const items = [];
    for await (const item of testClient().messages.iterate(WIDGET, SESSION)) items.push(item);
    expect(items).toEqual([]);
    expect(requests).toHaveLength(1);
  });
});

describe('client.messages.feedback', () => {
  it('posts the rating, reason and comment to the message and returns the feedback now on it', async () => {
    const feedback = { rating: 'down', reason: 'incomplete', comment: 'No delivery date.', updatedAt: '2026-01-01T00:00:00.000Z' };
    server.use(http.post(`${messages}/msg_1/feedback`, () => HttpResponse.json({ data: { messageId: 'msg_1', feedback }, meta: meta(0) })));
    const res = await testClient().messages.feedback({ widgetId: WIDGET, sessionId: SESSION, messageId: 'msg_1' }, { rating: 'down', reason: 'incomplete', comment: 'No delivery date.' });
    expect(res).toMatchObject({ status: 200, data: { messageId: 'msg_1', feedback }, meta: { creditsConsumed: 0 } });
    expect(await requests[0]!.json()).toEqual({ rating: 'down', reason: 'incomplete', comment: 'No delivery date.' });
  });

  it('refuses a dot segment as the message id before sending anything', async () => {
    expect(() => testClient().messages.feedback({ widgetId: WIDGET, sessionId: SESSION, messageId: '..' }, { rating: 'up' })).toThrow(TypeError);
    expect(requests).toHaveLength(0);
  });
});
