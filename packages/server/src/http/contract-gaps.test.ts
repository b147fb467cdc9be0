import { describe, expect, it } from 'vitest';
import { createHarness } from '../testing/harness.js';
import { allowedMethods, ROUTES } from './routes.js';

/** Issue 10, defects 5 and 8: contract gaps a user hit, each answered as DESIGN.md section 4 says. */

describe('wrong methods and HEAD', () => {
  it('answers a wrong method on a known path with 405 method_not_allowed and Allow from the route table (it was 404)', async () => {
    const h = await createHarness();
    const sessionId = await h.session();
    const res = await h.request('DELETE', `${h.base}/${sessionId}`);
    expect(res.status).toBe(405);
    expect(res.body).toEqual({ error: { code: 'method_not_allowed', message: expect.stringContaining('GET') }, meta: { creditsConsumed: 0 } });
    expect(res.headers.get('allow')).toBe('GET, OPTIONS');

    const messages = await h.request('PUT', `${h.base}/${sessionId}/messages`, { content: 'hi' });
    expect(messages.status).toBe(405);
    expect(messages.headers.get('allow')).toBe('GET, POST, OPTIONS');
    const product = await h.request('PATCH', `/knowledge-bases/${h.knowledgeBase.id}/products/p1`, { price: 1 });
    expect(product.headers.get('allow')).toBe('PUT, DELETE, OPTIONS');
  });

  it('answers 405 before the key check, and still 404 for paths that do not exist', async () => {
    const h = await createHarness();
    const res = await h.request('DELETE', `${h.base}/s1`, undefined, { key: null });
    expect(res.status).toBe(405);
    const unknown = await h.request('GET', '/no-such-endpoint');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('not_found');
  });

  it('answers HEAD on a metered read with 405 without running or billing it (HEAD ran the GET handler and billed 1 credit)', async () => {
    const h = await createHarness();
    const sessionId = await h.session();
    await h.post(`${h.base}/${sessionId}/messages`, { content: 'What are your opening hours?' });
    const before = (await h.store.getAccount(h.account.id))!.balance;
    for (const path of [`${h.base}/${sessionId}/messages`, `${h.base}/${sessionId}`]) {
      const res = await h.runtime.app.request(path, { method: 'HEAD', headers: { 'X-API-Key': h.key } });
      expect(res.status, path).toBe(405);
      expect(res.headers.get('allow'), path).not.toContain('HEAD');
      expect(await res.text()).toBe('');
    }
    expect((await h.store.getAccount(h.account.id))!.balance).toBe(before);
    // The same read by GET is billed, so the assertion above can fail.
    await h.get(`${h.base}/${sessionId}/messages`);
    expect((await h.store.getAccount(h.account.id))!.balance).toBeLessThan(before);
  });

  it('answers HEAD on the free health check', async () => {
    const h = await createHarness();
    const res = await h.runtime.app.request('/healthz', { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
  });

  it('derives Allow from the table for every documented path', () => {
    for (const route of ROUTES) {
      const concrete = route.path.replace(/\{\w+\}/g, 'x');
      expect(allowedMethods(ROUTES, concrete), route.path).toContain(route.method.toUpperCase());
    }
  });
});

describe('request bodies', () => {
  it('refuses an unknown top-level field by name: {"responseType":"callback"} answered sync', async () => {
    const h = await createHarness();
    const sessionId = await h.session();
    const res = await h.post(`${h.base}/${sessionId}/messages`, { content: 'hi', responseType: 'callback' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'validation_failed', field: 'responseType' });
    expect(res.body.meta).toEqual({ creditsConsumed: 0 });
  });

  it('reads a wrong type as a type error naming the field: language 42 read "language is required"', async () => {
    const h = await createHarness();
    const res = await h.post(h.base, { visitorId: 'v1', language: 42 });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({ code: 'validation_failed', message: 'language must be a string', field: 'language' });
  });

  it('keeps accepting extra identity claims (an open object)', async () => {
    const h = await createHarness();
    const key = await h.newKey(['conversations:chat', 'identity:assert']);
    const sessionId = await h.session();
    const res = await h.post(`${h.base}/${sessionId}/messages`, { content: 'hi', identity: { sub: 'u1', plan: 'pro' } }, { key });
    expect(res.status).toBe(200);
  });
});

describe('text PostgreSQL cannot store (these answered 500)', () => {
  it.each([
    ['NUL in content', (s: string) => [`/${s}/messages`, { content: 'a\u0000b' }], 'content'],
    ['NUL in visitorContext', () => ['', { visitorId: 'v1', visitorContext: { name: 'a\u0000' } }], 'visitorContext.name'],
    ['an unpaired surrogate in visitorContext', () => ['', { visitorId: 'v1', visitorContext: { company: 'x\uD800y' } }], 'visitorContext.company'],
  ] as const)('refuses %s with 400 naming the field', async (_name, make, field) => {
    const h = await createHarness();
    const sessionId = await h.session();
    const [suffix, body] = make(sessionId);
    const res = await h.post(`${h.base}${suffix}`, body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'validation_failed', field });
  });

  it('refuses a lone surrogate sent as a JSON escape, which JSON.parse turns into one', async () => {
    const h = await createHarness();
    const sessionId = await h.session();
    const res = await h.request('POST', `${h.base}/${sessionId}/messages`, undefined, {
      raw: '{"content":"hi \\udc00 there"}',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.field).toBe('content');
  });

  it.each([
    ['a NUL in a session id (GET …/conversations/a%00b)', (h: { base: string }) => `${h.base}/a%00b`, 'sessionId'],
    ['a session id over 128 characters', (h: { base: string }) => `${h.base}/${'s'.repeat(129)}`, 'sessionId'],
    ['a widget id with characters no id has', () => '/widgets/w%20x/conversations/s1', 'widgetId'],
    ['a NUL in a history read', (h: { base: string }) => `${h.base}/a%00b/messages`, 'sessionId'],
    ['a NUL in a knowledge base id', () => '/knowledge-bases/kb%00x', 'kbId'],
  ])('validates path ids before any query: %s is 400 JSON naming the field', async (_name, path, field) => {
    const h = await createHarness();
    const key = await h.newKey(['conversations:chat', 'knowledge:read']);
    const res = await h.get(path(h), { key });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body.error).toMatchObject({ code: 'validation_failed', field });
  });
});

describe('CORS preflights with malformed ids (found by the fuzz run: 500)', () => {
  it.each(['%E0%A4%A', '%ED%A0%80'])('refuses a preflight for widget %s with 403 JSON', async (widget) => {
    const h = await createHarness();
    await h.admin.createPublicKey(h.account.id, { widgetId: h.widget.id, origins: ['https://shop.example'] });
    const res = await h.request('OPTIONS', `/widgets/${widget}/conversations`, undefined, {
      key: null,
      headers: { Origin: 'https://shop.example', 'Access-Control-Request-Method': 'POST' },
    });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('origin_not_allowed');
  });
});

describe('response headers', () => {
  it('puts Cache-Control: no-store on session and history reads (they were cacheable)', async () => {
    const h = await createHarness();
    const sessionId = await h.session();
    for (const path of [`${h.base}/${sessionId}`, `${h.base}/${sessionId}/messages`]) {
      const res = await h.get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('cache-control'), path).toBe('no-store');
    }
    const notFound = await h.get(`${h.base}/missing-session`);
    expect(notFound.headers.get('cache-control')).toBe('no-store');
  });

  it('answers a 201 with Location naming the new resource (it had none)', async () => {
    const h = await createHarness();
    const created = await h.post(h.base, { visitorId: 'v1' });
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    // Relative to the request URL, so it also holds under a mount prefix the app cannot see.
    expect(location).toBe(`conversations/${created.body.data.sessionId}`);
    const resolved = new URL(location, `http://api.example${h.base}`).pathname;
    expect(resolved).toBe(`${h.base}/${created.body.data.sessionId}`);
    expect((await h.get(resolved)).body.data.sessionId).toBe(created.body.data.sessionId);

    const kb = await h.post('/knowledge-bases', { name: 'Spring' }, { key: await h.newKey(['knowledge:write']) });
    expect(new URL(kb.headers.get('location')!, 'http://api.example/knowledge-bases').pathname).toBe(`/knowledge-bases/${kb.body.data.id}`);
    const resumed = await h.post(h.base, { visitorId: 'v1', sessionId: created.body.data.sessionId });
    expect(resumed.status).toBe(200);
    expect(resumed.headers.get('location')).toBeNull();
  });

  it('lets the widget read a 401 for a bad pk_live_ key: CORS headers on it (the widget saw a network error)', async () => {
    const h = await createHarness();
    const origin = 'https://shop.example';
    await h.admin.createPublicKey(h.account.id, { widgetId: h.widget.id, origins: [origin] });
    const res = await h.post(h.base, { visitorId: 'v1' }, { key: 'pk_live_ABCDEFGHIJKLMNOPQRSTUVWXYZ012345', headers: { Origin: origin } });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('invalid_api_key');
    expect(res.headers.get('access-control-allow-origin')).toBe(origin);
    expect(res.headers.get('vary')).toContain('Origin');
  });
});
