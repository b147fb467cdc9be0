import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY } from './index.js';
import { parseRetryAfter, resolveRetry, retryDelay } from './retry.js';
import { endedSession, meta, session, SESSION, WIDGET } from './testing/fixtures.js';
import { BASE_URL, testClient, useMockServer } from './testing/mock-server.js';

const { server, requests } = useMockServer();
const sessionUrl = `${BASE_URL}/widgets/${WIDGET}/conversations/${SESSION}`;

const errorBody = (code: string) => ({ error: { code, message: code }, meta: meta(0) });

/** Answers with each of `responses` in turn, then keeps answering the last one. */
function sequence(method: 'get' | 'post', url: string, responses: Array<() => Response>) {
  let calls = 0;
  return http[method](url, () => responses[Math.min(calls++, responses.length - 1)]!());
}

const unavailable = () => HttpResponse.json(errorBody('internal_error'), { status: 503 });
const ok = () => HttpResponse.json({ data: session, meta: meta(1) });

describe('retries', () => {
  it('retries a GET on 503, 502, 504 and network errors, then returns the success', async () => {
    server.use(
      sequence('get', sessionUrl, [unavailable, () => HttpResponse.error(), () => new HttpResponse('bad gateway', { status: 502 }), ok]),
    );
    const res = await testClient({ retry: { limit: 3, baseDelayMs: 1 } }).sessions.get(WIDGET, SESSION);
    expect(res.data).toEqual(session);
    expect(requests).toHaveLength(4);
  });

  it('gives up after the default 2 retries with the last error', async () => {
    server.use(sequence('get', sessionUrl, [() => HttpResponse.json(errorBody('internal_error'), { status: 504 })]));
    await expect(testClient().sessions.get(WIDGET, SESSION)).rejects.toMatchObject({ status: 504 });
    expect(requests).toHaveLength(1 + DEFAULT_RETRY.limit);
  });

  it('never retries a POST without an Idempotency-Key, even on a network error', async () => {
    server.use(sequence('post', `${sessionUrl}/end`, [() => HttpResponse.error()]));
    await expect(testClient().sessions.end(WIDGET, SESSION)).rejects.toMatchObject({ code: 'network_error' });
    expect(requests).toHaveLength(1);
  });

  it('retries a POST that carries an Idempotency-Key, sending the same key and body each time', async () => {
    server.use(sequence('post', `${sessionUrl}/messages`, [() => HttpResponse.error(), unavailable, () => HttpResponse.json({ data: { messageId: null, status: 'processing' }, meta: meta(0) }, { status: 202 })]));
    const res = await testClient().messages.send(WIDGET, SESSION, { content: 'Hi' }, { idempotencyKey: 'turn-1' });
    expect(res.status).toBe(202);
    expect(requests.map((r) => r.headers.get('idempotency-key'))).toEqual(['turn-1', 'turn-1', 'turn-1']);
    expect(await Promise.all(requests.map((r) => r.text()))).toEqual(Array(3).fill('{"content":"Hi"}'));
  });

  it('does not retry statuses outside the policy (400, 409, 500)', async () => {
    for (const status of [400, 409, 500]) {
      server.use(sequence('get', sessionUrl, [() => HttpResponse.json(errorBody('x'), { status })]));
      await expect(testClient().sessions.get(WIDGET, SESSION)).rejects.toMatchObject({ status });
    }
    expect(requests).toHaveLength(3);
  });

  it('honours Retry-After on a 429', async () => {
    server.use(
      sequence('post', `${sessionUrl}/end`, [
        () => HttpResponse.json(errorBody('rate_limited'), { status: 429, headers: { 'Retry-After': '1' } }),
        () => HttpResponse.json({ data: endedSession, meta: meta(0) }),
      ]),
    );
    const started = Date.now();
    await testClient().sessions.end(WIDGET, SESSION, { idempotencyKey: 'end-1' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(requests).toHaveLength(2);
  });

  it('throws at once when Retry-After asks for more than maxDelayMs', async () => {
    server.use(sequence('get', sessionUrl, [() => HttpResponse.json(errorBody('rate_limited'), { status: 429, headers: { 'Retry-After': '3600' } })]));
    const started = Date.now();
    await expect(testClient().sessions.get(WIDGET, SESSION)).rejects.toMatchObject({ status: 429, code: 'rate_limited' });
    expect(Date.now() - started).toBeLessThan(500);
    expect(requests).toHaveLength(1);
  });

  it('retry: false turns retries off; statuses can be chosen', async () => {
    server.use(sequence('get', sessionUrl, [unavailable, ok]));
    await expect(testClient({ retry: false }).sessions.get(WIDGET, SESSION)).rejects.toMatchObject({ status: 503 });
    server.use(sequence('get', sessionUrl, [() => HttpResponse.json(errorBody('internal_error'), { status: 500 }), ok]));
    await expect(testClient({ retry: { statuses: [500], baseDelayMs: 1 } }).sessions.get(WIDGET, SESSION)).resolves.toMatchObject({ status: 200 });
    expect(requests).toHaveLength(3);
  });

  it('stops waiting between retries when the caller aborts', async () => {
    server.use(sequence('get', sessionUrl, [unavailable]));
    const controller = new AbortController();
    const call = testClient({ retry: { baseDelayMs: 5_000 } }).sessions.get(WIDGET, SESSION, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('stop')), 50);
    const started = Date.now();
    await expect(call).rejects.toThrow('stop');
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});

describe('retry policy', () => {
  it('parses Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-11-21T10:00:00Z');
    expect(parseRetryAfter('2', now)).toBe(2000);
    expect(parseRetryAfter('Sat, 21 Nov 2026 10:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Sat, 21 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });

  it('backs off exponentially with jitter, capped at maxDelayMs', () => {
    const policy = resolveRetry({ limit: 10, baseDelayMs: 100, maxDelayMs: 1000 });
    for (const [retry, full] of [[0, 100], [1, 200], [2, 400], [5, 1000]] as const) {
      const delay = retryDelay(policy, retry, undefined)!;
      expect(delay).toBeGreaterThanOrEqual(full / 2);
      expect(delay).toBeLessThanOrEqual(full);
    }
    expect(retryDelay(policy, 10, undefined)).toBeUndefined();
  });

  it('defaults to 2 retries on 429, 502, 503, 504', () => {
    expect(resolveRetry(undefined)).toEqual({ limit: 2, statuses: new Set([429, 502, 503, 504]), baseDelayMs: 300, maxDelayMs: 10_000 });
    expect(resolveRetry(false).limit).toBe(0);
  });
});
