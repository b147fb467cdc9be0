import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { createdSession, endedSession, meta, ratedSession, session, SESSION, WIDGET } from './testing/fixtures.js';
import { API_KEY, BASE_URL, testClient, useMockServer } from './testing/mock-server.js';

const { server, requests } = useMockServer();
const conversations = `${BASE_URL}/widgets/${WIDGET}/conversations`;

describe('client.sessions', () => {
  it('create POSTs the body as JSON with the API key and returns 201 with data, meta and the request id', async () => {
    server.use(
      http.post(conversations, () =>
        HttpResponse.json({ data: createdSession, meta: meta(1) }, { status: 201, headers: { 'X-Request-Id': 'req-1' } }),
      ),
    );
    const res = await testClient().sessions.create(WIDGET, { visitorId: 'visitor-1', language: 'en', visitorContext: { name: 'Ada' } });
    expect(res).toEqual({ status: 201, data: createdSession, meta: { creditsConsumed: 1 }, requestId: 'req-1' });
    const [request] = requests;
    expect(request!.method).toBe('POST');
    expect(request!.headers.get('x-api-key')).toBe(API_KEY);
    expect(request!.headers.get('content-type')).toBe('application/json');
    expect(request!.headers.get('idempotency-key')).toBeNull();
    expect(await request!.json()).toEqual({ visitorId: 'visitor-1', language: 'en', visitorContext: { name: 'Ada' } });
  });

  it('create reports a resumed session as 200', async () => {
    server.use(http.post(conversations, () => HttpResponse.json({ data: { ...createdSession, resumed: true }, meta: meta(1) })));
    const res = await testClient().sessions.create(WIDGET, { visitorId: 'visitor-1', sessionId: SESSION });
    expect(res.status).toBe(200);
    expect(res.data.resumed).toBe(true);
  });

  it('get reads the session', async () => {
    server.use(http.get(`${conversations}/${SESSION}`, () => HttpResponse.json({ data: session, meta: meta(1) })));
    const res = await testClient().sessions.get(WIDGET, SESSION);
    expect(res.data).toEqual(session);
    expect(res.meta.creditsConsumed).toBe(1);
    expect(requests[0]!.method).toBe('GET');
  });

  it('end POSTs without a body', async () => {
    server.use(http.post(`${conversations}/${SESSION}/end`, () => HttpResponse.json({ data: endedSession, meta: meta(1) })));
    const res = await testClient().sessions.end(WIDGET, SESSION);
    expect(res.data).toEqual(endedSession);
    expect(await requests[0]!.text()).toBe('');
    expect(requests[0]!.headers.get('content-type')).toBeNull();
  });

  it('rate POSTs { rating }', async () => {
    server.use(http.post(`${conversations}/${SESSION}/rate`, () => HttpResponse.json({ data: ratedSession, meta: meta(1) })));
    const res = await testClient().sessions.rate(WIDGET, SESSION, { rating: 'positive' });
    expect(res.data).toEqual(ratedSession);
    expect(await requests[0]!.json()).toEqual({ rating: 'positive' });
  });

  it('sends the Idempotency-Key of any POST, and client and call headers', async () => {
    server.use(http.post(`${conversations}/${SESSION}/end`, () => HttpResponse.json({ data: endedSession, meta: meta(0) })));
    await testClient({ headers: { 'X-Tenant': 'acme' } }).sessions.end(WIDGET, SESSION, {
      idempotencyKey: 'end-1',
      headers: { 'X-Trace': 't-1' },
    });
    const headers = requests[0]!.headers;
    expect([headers.get('idempotency-key'), headers.get('x-tenant'), headers.get('x-trace')]).toEqual(['end-1', 'acme', 't-1']);
  });

  it('encodes ids into the path and refuses dot segments, which URL parsers would resolve', async () => {
    server.use(http.get(`${BASE_URL}/widgets/:widgetId/conversations/:sessionId`, () => HttpResponse.json({ data: session, meta: meta(1) })));
    await testClient().sessions.get('wgt 1', 'a/b?c');
    expect(new URL(requests[0]!.url).pathname).toBe('/widgets/wgt%201/conversations/a%2Fb%3Fc');
    expect(() => testClient().sessions.get(WIDGET, '..')).toThrow(/sessionId must be an id/);
    expect(() => testClient().sessions.get('', SESSION)).toThrow(/widgetId must be an id/);
  });

  it('joins a base URL that has a path, with or without a trailing slash', async () => {
    server.use(http.get(`${BASE_URL}/chat-api/widgets/${WIDGET}/conversations/${SESSION}`, () => HttpResponse.json({ data: session, meta: meta(1) })));
    await testClient({ baseUrl: `${BASE_URL}/chat-api` }).sessions.get(WIDGET, SESSION);
    await testClient({ baseUrl: `${BASE_URL}/chat-api/` }).sessions.get(WIDGET, SESSION);
    expect(requests).toHaveLength(2);
  });
});
