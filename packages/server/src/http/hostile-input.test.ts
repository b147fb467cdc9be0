import { describe, expect, it } from 'vitest';
import { createScriptedAgent } from '@svc/agents';
import { createHarness } from '../testing/harness.js';

/** Bodies no client should send; the service must answer each with a 4xx that says what is wrong, never a 5xx. */
const RAW_BODIES = ['null', '[]', '"text"', '42', 'true', '{', '{"a":1}}', '\u0000', '{"visitorId":"\ud800"}', '1e309'];
const BODIES: unknown[] = [
  {},
  { visitorId: null },
  { visitorId: {} },
  { visitorId: [] },
  // eslint-disable-next-line no-loss-of-precision -- 1e309 overflows to Infinity on purpose
  { visitorId: 1e309 },
  { content: null },
  { content: { toString: 'x' } },
  { content: ['a'] },
  { content: 'ok', response_type: null },
  { content: 'ok', visitorContext: 'me' },
  { content: 'ok', visitorContext: { name: 5 } },
  { content: 'ok', timezone: 5 },
  { content: 'ok', identity: [] },
  { content: 'ok', identity: null },
  { rating: {} },
  { rating: null },
  { formId: 5, answers: {} },
  { formId: 'f', answers: 'x' },
  { formId: 'f', answers: { a: { b: 1 } } },
  { formId: 'f', answers: null },
  JSON.parse('{"__proto__":{"polluted":true},"visitorId":"v"}'),
  { constructor: { prototype: { polluted: true } }, content: 'x' },
  { name: 7 },
  { title: '', content: 3 },
  { products: [{ id: 1, name: null, price: 'free' }] },
  { query: {} },
];
const deep = (levels: number): unknown => (levels === 0 ? 'x' : { nested: deep(levels - 1) });

describe('hostile input never yields a 5xx', () => {
  it('answers every malformed body on every endpoint with a 4xx error body', async () => {
    const h = await createHarness({ agent: createScriptedAgent(() => ({ content: 'ok' })) });
    const key = await h.newKey(['conversations:chat', 'identity:assert', 'knowledge:read', 'knowledge:write']);
    const id = await h.session();
    const kb = h.knowledgeBase.id;
    const endpoints: [string, string][] = [
      ['POST', h.base],
      ['POST', `${h.base}/${id}/messages`],
      ['POST', `${h.base}/${id}/form-submissions`],
      ['POST', `${h.base}/${id}/rate`],
      ['POST', `${h.base}/${id}/end`],
      ['POST', '/knowledge-bases'],
      ['POST', `/knowledge-bases/${kb}/products`],
      ['PUT', `/knowledge-bases/${kb}/products/p1`],
      ['POST', `/knowledge-bases/${kb}/documents`],
      ['POST', `/knowledge-bases/${kb}/search`],
    ];
    const failures: string[] = [];
    const check = (what: string, res: { status: number; body: { error?: { code?: string; field?: string }; meta?: unknown } }) => {
      const ok =
        res.status < 500 &&
        (res.status < 400 || (typeof res.body?.error?.code === 'string' && JSON.stringify(res.body.meta) === '{"creditsConsumed":0}')) &&
        (res.status !== 400 || res.body.error?.code !== 'validation_failed' || typeof res.body.error.field === 'string');
      if (!ok) failures.push(`${what} → ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
    };
    for (const [method, path] of endpoints) {
      for (const body of [...BODIES, deep(2000)]) check(`${method} ${path} ${JSON.stringify(body).slice(0, 60)}`, await h.request(method, path, body, { key }));
      for (const raw of RAW_BODIES) {
        check(`${method} ${path} raw ${raw}`, await h.request(method, path, undefined, { key, raw, headers: { 'Content-Type': 'application/json' } }));
      }
    }
    for (const query of ['limit=1e3', 'limit=%00', 'limit[]=1', 'cursor=%F0%9F%98%80', 'cursor=' + 'A'.repeat(5000), 'limit=1&limit=2']) {
      check(`GET messages?${query}`, await h.get(`${h.base}/${id}/messages?${query}`, { key }));
      check(`GET products?${query}`, await h.get(`/knowledge-bases/${kb}/products?${query}`, { key }));
    }
    for (const sessionId of ['%00', 'x'.repeat(10_000), '%F0%9F%98%80', '..%2F..%2Fetc', '%E0%A4%A']) {
      check(`GET session ${sessionId.slice(0, 20)}`, await h.get(`${h.base}/${sessionId}`, { key }));
      check(`POST message ${sessionId.slice(0, 20)}`, await h.post(`${h.base}/${sessionId}/messages`, { content: 'hi' }, { key }));
    }
    expect(failures).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((await h.store.getAccount(h.account.id))!.balance).toBeGreaterThan(0);
  }, 60_000);
});

describe('bodies nested 10,000 levels deep', () => {
  it('are a 400 naming the field on create, send, form-submissions and rate, not a 500 after a second of CPU', async () => {
    const h = await createHarness({ agent: createScriptedAgent(() => ({ content: 'ok' })) });
    const id = await h.session();
    const nested = (field: string): string => `{"${field}":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}`;
    const cases: [string, string, string][] = [
      [h.base, nested('visitorContext'), 'visitorContext'],
      [`${h.base}/${id}/messages`, `{"content":"hi","visitorContext":${'['.repeat(10_000)}${']'.repeat(10_000)}}`, 'visitorContext'],
      [`${h.base}/${id}/form-submissions`, nested('answers'), 'answers'],
      [`${h.base}/${id}/rate`, nested('rating'), 'rating'],
    ];
    for (const [path, raw, field] of cases) {
      const started = performance.now();
      const res = await h.request('POST', path, undefined, { raw, headers: { 'Content-Type': 'application/json' } });
      expect(res.status, path).toBe(400);
      const error = (res.body as { error: { code: string; field: string; message: string } }).error;
      expect(error.code).toBe('validation_failed');
      expect(error.field.split('.')[0]).toBe(field);
      expect(error.message).toContain('nested more than 32 levels');
      expect(performance.now() - started).toBeLessThan(1_000);
    }
    // A body at the limit is still validated as usual (here: visitorContext values must be strings, numbers or booleans).
    const atLimit = await h.request('POST', h.base, undefined, { raw: nested('visitorContext').replace(/\{"a":/g, '').replace(/\}+$/, ''), headers: { 'Content-Type': 'application/json' } });
    expect(atLimit.status).toBe(400);
  });
});
