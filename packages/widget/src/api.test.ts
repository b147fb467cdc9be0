import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError, createApi, parseRetryAfter } from './api.js';

describe('parseRetryAfter', () => {
  it('reads seconds or an HTTP date, falls back to 10 s, and stays within 1 s to 1 h', () => {
    vi.setSystemTime(Date.UTC(2026, 10, 21, 10, 0, 0));
    expect(parseRetryAfter('7')).toBe(7);
    expect(parseRetryAfter('Sat, 21 Nov 2026 10:00:30 GMT')).toBe(30);
    expect(parseRetryAfter(null)).toBe(10);
    expect(parseRetryAfter('soon')).toBe(10);
    expect(parseRetryAfter('0.2')).toBe(1);
    expect(parseRetryAfter('86400')).toBe(3600);
    vi.useRealTimers();
  });
});

describe('createApi', () => {
  const server = setupServer(
    http.post('https://api.test/fail', () =>
      HttpResponse.json({ error: { code: 'form_rejected', message: 'Email: invalid', field: 'answers.email' }, meta: { creditsConsumed: 0 } }, { status: 400 }),
    ),
    http.get('https://api.test/busy', () => new HttpResponse('slow down', { status: 429, headers: { 'Retry-After': '5' } })),
    http.get('https://api.test/down', () => HttpResponse.error()),
  );
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => server.close());
  const api = createApi({ base: 'https://api.test', apiKey: 'pk_live_x', token: () => null, signal: new AbortController().signal });

  it("turns the service's error body into an ApiError naming the code and field", async () => {
    const error = await api('POST', '/fail', { body: {} }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, code: 'form_rejected', message: 'Email: invalid', field: 'answers.email' });
  });

  it('reads Retry-After on a 429 even without a JSON body', async () => {
    await expect(api('GET', '/busy')).rejects.toMatchObject({ status: 429, code: 'http_429', retryAfter: 5 });
  });

  it('reports a request that got no answer as status 0', async () => {
    await expect(api('GET', '/down')).rejects.toMatchObject({ status: 0, code: 'network_error' });
  });
});
