import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBase62, type Store } from '@svc/core';
import { createPostgresStore } from '@svc/store-postgres';
import { listen, type RunningServer } from '../node-server.js';
import { createHarness, type Harness } from '../testing/harness.js';
import { ROUTES, type Route } from './routes.js';

/**
 * Issue 10: a fuzzer's 30,018 requests got 99 5xx, non-JSON answers and dropped connections. This is a seeded
 * fuzz run over a real socket (keep-alive connections, as a client sends them): every endpoint of the route
 * table, mutated types, unicode, NUL and lone surrogates, huge and malformed bodies, odd headers, methods, ids
 * and cursors. It must see no 5xx, no answer that is not JSON, and no dropped connection. On PostgreSQL, the
 * production store, which refuses what the memory store would keep (NUL, lone surrogates).
 *
 *   SVC_FUZZ_REQUESTS=30000 SVC_FUZZ_SEED=7 pnpm vitest run --project server src/http/fuzz.test.ts
 */
const REQUESTS = Number(process.env.SVC_FUZZ_REQUESTS ?? 3000);
const SEED = Number(process.env.SVC_FUZZ_SEED ?? 20261124);
const CONCURRENCY = 8;
const DATABASE_URL = process.env.SVC_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** mulberry32: small, fast and seedable, so a failure replays exactly. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ODD_STRINGS = [
  '',
  ' ',
  'a\u0000b',
  '\u0000',
  'x\uD800',
  '\uDC00y',
  '😀'.repeat(50),
  'é'.repeat(3000),
  '<script>alert(1)</script>',
  "'; DROP TABLE sessions; --",
  '\u202Eevil',
  'x'.repeat(5000),
  '../../etc/passwd',
  '%00',
  '{"nested":"json"}',
];
// eslint-disable-next-line no-loss-of-precision -- 1e309 overflows to Infinity on purpose
const ODD_VALUES: unknown[] = [42, -1, 1.5, 1e309, true, false, null, [], [1, 'a'], {}, { a: { b: { c: 1 } } }, ...ODD_STRINGS];
const ODD_IDS = ['a%00b', '%00', '..', '.', '%2e%2e', 'x'.repeat(129), '%F0%9F%98%80', '%ED%A0%80', '%E0%A4%A', 'a%2Fb', '%20', 'sess_' + 'Z'.repeat(22), "o'brien", 'a:b@c.d'];
const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'];

const VALID_BODIES: Record<string, () => Record<string, unknown>> = {
  createSession: () => ({ visitorId: 'fuzz-visitor', language: 'en', timezone: 'Europe/Paris', visitorContext: { name: 'Ada' } }),
  sendMessage: () => ({ content: 'Do you ship to Canada?' }),
  submitForm: () => ({ formId: 'contact', answers: { name: 'Ada', email: 'ada@example.com' } }),
  rateSession: () => ({ rating: 'positive' }),
  messageFeedback: () => ({ rating: 'down', reason: 'incomplete', comment: 'It did not say when.' }),
  createKnowledgeBase: () => ({ name: 'Fuzz KB' }),
  upsertProducts: () => ({ products: [{ id: 'p1', name: 'Tent', price: 10 }] }),
  putProduct: () => ({ name: 'Tent', price: 10 }),
  addDocument: () => ({ title: 'Doc', content: 'Some words about tents.' }),
  replaceDocument: () => ({ title: 'Doc', content: 'Other words.' }),
  searchKnowledge: () => ({ query: 'tent' }),
};

interface Outcome {
  status: number;
  problem?: string;
}

describe(`seeded fuzz run: ${REQUESTS} requests over a real socket (seed ${SEED})`, () => {
  let h: Harness;
  let store: Store;
  const schema = `t_fuzz_${randomBase62(8).toLowerCase()}`;
  let server: RunningServer;
  let publicKey: string;
  let fullKey: string;
  const origin = 'https://shop.example';

  beforeAll(async () => {
    store = await createPostgresStore({ connectionString: DATABASE_URL, schema });
    h = await createHarness({ credits: 10_000_000, store });
    server = await listen(h.runtime, { port: 0, host: '127.0.0.1' });
    publicKey = (await h.admin.createPublicKey(h.account.id, { widgetId: h.widget.id, origins: [origin] })).key;
    fullKey = await h.newKey(['conversations:chat', 'identity:assert', 'knowledge:read', 'knowledge:write']);
  });
  afterAll(async () => {
    await server?.close();
    await store?.close();
    const client = new pg.Client({ connectionString: DATABASE_URL });
    await client.connect();
    await client.query(`drop schema if exists "${schema}" cascade`);
    await client.end();
  });

  it('answers every request with JSON, never a 5xx, never a dropped connection', async () => {
    const random = prng(SEED);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const chance = (p: number) => random() < p;
    const sessions: string[] = [await h.session({ visitorId: 'fuzz-visitor' })];
    const ids: Record<string, () => string> = {
      widgetId: () => h.widget.id,
      sessionId: () => pick(sessions),
      kbId: () => h.knowledgeBase.id,
      productId: () => pick(['p1', 'p2', 'tent-1']),
      documentId: () => pick(['doc_missing', 'doc_x']),
      // Admin API ids: the fuzzer holds no admin credentials, so these reach the refusal, never a store.
      keyId: () => pick(['key_missing', 'key_x']),
      webhookId: () => pick(['whk_missing', 'whk_x']),
      deliveryId: () => pick(['dlv_missing', 'dlv_x']),
      sourceId: () => pick(['src_missing', 'src_x']),
      messageId: () => pick(['msg_missing', 'msg_x']),
      groupId: () => pick(['qgr_missing', 'qgr_x']),
      runId: () => pick(['evr_missing', 'evr_x']),
      suite: () => pick(['missing-suite', 'x']),
      chatId: () => pick(['chat-missing-0123456789', 'x']),
    };

    function mutate(body: Record<string, unknown>): unknown {
      const keys = Object.keys(body);
      switch (Math.floor(random() * 9)) {
        case 0:
          return body;
        case 1: // a field of the wrong type or odd content
          return { ...body, [pick(keys)]: pick(ODD_VALUES) };
        case 2: // a field dropped
          return Object.fromEntries(Object.entries(body).filter(([key]) => key !== pick(keys)));
        case 3: // an unknown field
          return { ...body, [pick(['responseType', 'extra', '__proto__x', 'a\u0000b', 'constructor'])]: pick(ODD_VALUES) };
        case 4: // nested oddities
          return { ...body, visitorContext: pick(ODD_VALUES), identity: chance(0.5) ? { sub: pick(ODD_STRINGS), extra: pick(ODD_VALUES) } : pick(ODD_VALUES) };
        case 5: // not an object
          return pick(ODD_VALUES);
        case 6: // huge
          return { ...body, [pick(keys)]: 'x'.repeat(pick([60_000, 70_000, 300_000])) };
        case 7:
          return { ...body, response_type: pick(['sync', 'callback', 'stream', 7, null]) };
        default:
          return { ...body, [pick(keys)]: pick(ODD_STRINGS) };
      }
    }

    function request(): { path: string; init: RequestInit; route: Route | undefined } {
      const route = chance(0.95) ? pick(ROUTES) : undefined;
      let path = route ? route.path : pick(['/nope', '/widgets', '/widgets/x/y/z', '/knowledge-bases/a/b/c/d', '/healthz/x', '/']);
      path = path.replace(/\{(\w+)\}/g, (_m, name: string) => (chance(0.85) ? encodeURIComponent(ids[name]!()) : pick(ODD_IDS)));
      if (route?.paginated && chance(0.6)) {
        const query = new URLSearchParams();
        if (chance(0.6)) query.set('limit', pick(['1', '50', '100', '0', '101', '-1', 'abc', '1e2', '99999999999999999999', '']));
        if (chance(0.6)) query.set('cursor', pick(['', 'garbage', 'x'.repeat(600), 'a\u0000b', 'eyJhIjoxfQ', '%00']));
        path += `?${query.toString()}`;
      }
      const method = route && chance(0.85) ? route.method.toUpperCase() : pick(METHODS);
      const headers: Record<string, string> = {};
      const keyChoice = random();
      if (keyChoice < 0.7) headers['X-API-Key'] = fullKey;
      else if (keyChoice < 0.8) headers['X-API-Key'] = publicKey;
      else if (keyChoice < 0.9) headers['X-API-Key'] = pick(['sk_live_unknownunknownunknown1234', 'pk_live_ABCDEFGHIJKLMNOPQRSTUVWXYZ012345', 'garbage', ' ', 'sk_live_' + 'a'.repeat(200)]);
      if (chance(0.2)) headers.Origin = pick([origin, 'https://evil.example', 'null']);
      if (chance(0.1)) headers['X-Identity-Token'] = pick(['a.b.c', 'not-a-token', 'eyJhbGciOiJub25lIn0.e30.', 'x'.repeat(3000)]);
      if (chance(0.15)) headers['Idempotency-Key'] = pick(['k1', 'k2', `k-${Math.floor(random() * 50)}`, 'x'.repeat(300), 'tab\tkey']);
      if (method === 'OPTIONS' && chance(0.5)) headers['Access-Control-Request-Method'] = 'POST';
      let body: string | undefined;
      if (method !== 'GET' && method !== 'HEAD' && chance(0.9)) {
        const base = route ? (VALID_BODIES[route.operationId]?.() ?? {}) : {};
        body = chance(0.05) ? pick(['{', '{"a":', 'null', '[]', '"str"', '\u0000', '{"content":"\\ud800"}', 'x'.repeat(70_000)]) : JSON.stringify(mutate(base));
        headers['Content-Type'] = chance(0.93) ? 'application/json' : pick(['text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1', '']);
      }
      return { path, init: { method, headers, ...(body === undefined ? {} : { body }) }, route };
    }

    async function send(): Promise<Outcome> {
      const { path, init, route } = request();
      let response: Response;
      try {
        response = await fetch(`${server.url}${path}`, init);
      } catch (error) {
        return { status: 0, problem: `dropped: ${init.method} ${path}: ${(error as Error).message}` };
      }
      // A session's event stream stays open by design (DESIGN.md section 6): its headers are the answer.
      const eventStream = (response.headers.get('content-type') ?? '').startsWith('text/event-stream');
      if (eventStream && response.status === 200 && /\/conversations\/[^/]+\/events$/.test(path) && init.method === 'GET') {
        await response.body?.cancel();
        return { status: response.status };
      }
      const text = await response.text();
      if (response.status >= 500) return { status: response.status, problem: `${response.status}: ${init.method} ${path}: ${text.slice(0, 300)}` };
      const bodyless = init.method === 'HEAD' || response.status === 204;
      if (bodyless) return { status: response.status };
      // A page the table declares as something else (the /docs HTML) is that; everything else, errors included, is JSON.
      const declared = route?.responses[response.status as 200]?.contentType;
      if (declared !== undefined && declared !== 'application/json') return { status: response.status };
      // An accepted streamed turn (`response_type: "stream"`, or /chat) answers as server-sent events, by design.
      const streamed = /\/conversations\/[^/]+\/(messages|form-submissions|chat)$/.test(path) && response.status === 200;
      if (streamed && (response.headers.get('content-type') ?? '').startsWith('text/event-stream')) return { status: response.status };
      if (!/^application\/json/.test(response.headers.get('content-type') ?? '')) {
        return { status: response.status, problem: `not JSON (${response.headers.get('content-type')}): ${init.method} ${path}` };
      }
      try {
        const parsed = JSON.parse(text) as { meta?: { creditsConsumed?: unknown }; data?: { sessionId?: unknown } };
        if (init.method === 'POST' && response.status === 201 && typeof parsed.data?.sessionId === 'string' && sessions.length < 20) {
          sessions.push(parsed.data.sessionId);
        }
        // Routes answer the envelope; the reference document at /openapi.json is the one JSON body without it.
        if (!path.startsWith('/openapi.json') && response.status >= 400 && typeof parsed.meta?.creditsConsumed !== 'number') {
          return { status: response.status, problem: `error without meta: ${init.method} ${path}: ${text.slice(0, 200)}` };
        }
      } catch {
        return { status: response.status, problem: `unparseable JSON: ${init.method} ${path}` };
      }
      return { status: response.status };
    }

    const outcomes: Outcome[] = [];
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < REQUESTS) {
          next++;
          outcomes.push(await send());
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const problems = outcomes.flatMap((o) => (o.problem ? [o.problem] : []));
    const byStatus = new Map<number, number>();
    for (const { status } of outcomes) byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
    const summary = {
      requests: outcomes.length,
      seed: SEED,
      seconds: Math.round(seconds * 10) / 10,
      '5xx': outcomes.filter((o) => o.status >= 500).length,
      nonJson: problems.filter((p) => p.startsWith('not JSON') || p.startsWith('unparseable')).length,
      dropped: outcomes.filter((o) => o.status === 0).length,
      statuses: Object.fromEntries([...byStatus].sort(([a], [b]) => a - b)),
    };
    console.log(`fuzz summary: ${JSON.stringify(summary)}`);
    expect([...new Set(problems)].slice(0, 10)).toEqual([]);
    // The run must reach the handlers, not only the front door: successes and refusals of several kinds.
    expect([200, 201, 400, 401, 404, 405, 413].every((status) => byStatus.has(status)), JSON.stringify(summary.statuses)).toBe(true);
  }, 600_000);
});
