import { afterEach, describe, expect, it, vi } from 'vitest';
import { createScriptedAgent } from '@svc/agents';
import { loadConfig } from '../config.js';
import { createLogger } from '../logger.js';
import { listen } from '../node-server.js';
import { createRuntime } from '../runtime.js';
import { PRODUCTION_STORES } from '../testing/production-stores.js';
import type { Store } from '@svc/core';
import { operatorAdmin } from '../cli/operator-admin.js';
import { ANY_ACCOUNT } from '@svc/core';

// PGlite and PostgreSQL on a shared 2-core machine: generous per-test time, the assertions stay exact.
vi.setConfig({ testTimeout: 30_000 });

let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

const ORIGIN = 'https://shop.example';

/** One instance of the service on a real socket, over `store`. */
async function instance(store: Store, config: { limit: number; trustProxy?: number }) {
  const runtime = await createRuntime({
    config: {
      cursorSecret: 'test-cursor-secret-0123456789abcdef',
      syncTimeoutMs: 25_000,
      agentTimeoutMs: 60_000,
      publicRateLimitPerMinute: config.limit,
      trustProxy: config.trustProxy ?? 0,
    },
    store,
    logger: createLogger('silent'),
    agent: createScriptedAgent(() => ({ content: 'ok' })),
    // Mid-window and frozen: fixed windows restart on the minute, which a test must not straddle by chance.
    clock: { now: () => new Date('2026-03-01T12:00:30Z') },
  });
  const server = await listen(runtime, { port: 0, host: '127.0.0.1' });
  cleanups.push(() => server.close());
  return server.url;
}

async function seed(store: Store) {
  const account = await operatorAdmin(store).createAccount({ name: 'Limits', credits: 10_000 });
  const widget = await operatorAdmin(store).createWidget({ accountId: account.id, name: 'Limits' });
  const { key: serverKey } = await operatorAdmin(store).createApiKey({ accountId: account.id, scopes: ['conversations:chat', 'knowledge:read'] });
  const { key: publicKey } = await operatorAdmin(store).createPublicKey(ANY_ACCOUNT, { widgetId: widget.id, origins: [ORIGIN] });
  return { widgetId: widget.id, serverKey, publicKey };
}

async function call(url: string, headers: Record<string, string>) {
  const res = await fetch(url, { headers });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: JSON.parse(text) as { error?: { code: string } } };
}

describe('rate limits (issue 10, defect 4)', () => {
  it('reads the rightmost untrusted X-Forwarded-For hop: rotating the client-written leftmost hop does not reset the limit', async () => {
    const { store, dispose } = await PRODUCTION_STORES[0]![1]();
    cleanups.push(dispose);
    const { publicKey } = await seed(store);
    const url = `${await instance(store, { limit: 3, trustProxy: 1 })}/widget/config`;
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      // The client wrote "10.0.0.i"; the trusted proxy appended the address it saw, 198.51.100.7.
      statuses.push((await call(url, { 'X-API-Key': publicKey, Origin: ORIGIN, 'X-Forwarded-For': `10.0.0.${i}, 198.51.100.7` })).status);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    // The widget's browser can read the 429 (and its Retry-After), though no key was looked at.
    const limited = await call(url, { 'X-API-Key': publicKey, Origin: ORIGIN, 'X-Forwarded-For': '10.9.9.9, 198.51.100.7' });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(limited.headers.get('access-control-expose-headers')).toMatch(/Retry-After/);
    const elsewhere = await call(url, { 'X-API-Key': publicKey, Origin: 'https://evil.example', 'X-Forwarded-For': '198.51.100.7' });
    expect(elsewhere.status).toBe(429);
    expect(elsewhere.headers.get('access-control-allow-origin')).toBeNull();
    // Another client behind the same proxy has a budget of its own.
    expect((await call(url, { 'X-API-Key': publicKey, Origin: ORIGIN, 'X-Forwarded-For': '198.51.100.7, 198.51.100.8' })).status).toBe(200);
  });

  it('counts IPv6 clients per /64 and IPv4-mapped addresses as IPv4, so rotating within one allocation does not help', async () => {
    const { store, dispose } = await PRODUCTION_STORES[0]![1]();
    cleanups.push(dispose);
    const { publicKey } = await seed(store);
    const url = `${await instance(store, { limit: 3, trustProxy: 1 })}/widget/config`;
    const from = async (address: string) => (await call(url, { 'X-API-Key': publicKey, Origin: ORIGIN, 'X-Forwarded-For': address })).status;
    expect([await from('2001:db8:1:2::1'), await from('2001:db8:1:2:ffff::9'), await from('[2001:db8:1:2::7]:443'), await from('2001:db8:1:2::2')]).toEqual([200, 200, 200, 429]);
    expect(await from('2001:db8:1:3::1')).toBe(200);
    expect([await from('203.0.113.9'), await from('::ffff:203.0.113.9'), await from('203.0.113.9:5555'), await from('203.0.113.9')]).toEqual([200, 200, 200, 429]);
  });

  it('with two trusted proxies, skips the entry the nearer proxy wrote', async () => {
    const { store, dispose } = await PRODUCTION_STORES[0]![1]();
    cleanups.push(dispose);
    const { publicKey } = await seed(store);
    const url = `${await instance(store, { limit: 2, trustProxy: 2 })}/widget/config`;
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      statuses.push(
        (await call(url, { 'X-API-Key': publicKey, Origin: ORIGIN, 'X-Forwarded-For': `203.0.113.${i}, 192.0.2.44, 10.1.1.${i}` })).status,
      );
    }
    expect(statuses).toEqual([200, 200, 429]);
  });

  it('throttles unknown and invalid keys per address before authentication, with Retry-After and RateLimit headers', async () => {
    const { store, dispose } = await PRODUCTION_STORES[0]![1]();
    cleanups.push(dispose);
    const { serverKey } = await seed(store);
    const url = `${await instance(store, { limit: 4 })}/knowledge-bases`;
    const answers = [];
    for (const key of ['pk_live_unknownunknown0000', 'garbage', 'sk_live_notarealkeynotarealkey00000', 'sk_live_notarealkeynotarealkey00001', 'sk_live_x', 'pk_live_y']) {
      answers.push(await call(url, { 'X-API-Key': key }));
    }
    expect(answers.map((a) => a.status)).toEqual([401, 401, 401, 401, 429, 429]);
    for (const limited of answers.slice(4)) {
      expect(limited.body).toMatchObject({ error: { code: 'rate_limited' }, meta: { creditsConsumed: 0 } });
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
      expect(limited.headers.get('ratelimit-limit')).toBe('4');
      expect(limited.headers.get('ratelimit-remaining')).toBe('0');
      expect(limited.headers.get('content-type')).toMatch(/application\/json/);
    }
    expect(answers[0]!.headers.get('ratelimit-remaining')).toBe('3');
    // The operator's backend on the same address is not locked out by someone guessing keys.
    expect((await call(url, { 'X-API-Key': serverKey })).status).toBe(200);
  });

  it.each(PRODUCTION_STORES)('shares one limit between instances on one %s database', async (_name, open) => {
    const { store, peer, dispose } = await open();
    cleanups.push(dispose);
    const { publicKey } = await seed(store);
    const urls = [await instance(store, { limit: 6 }), await instance(await peer(), { limit: 6 })];
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      statuses.push((await call(`${urls[i % 2]}/widget/config`, { 'X-API-Key': publicKey, Origin: ORIGIN })).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
  });
});

describe('configuration', () => {
  it('is a number of proxies, true meaning one', () => {
    expect(loadConfig({}).trustProxy).toBe(0);
    expect(loadConfig({ SVC_TRUST_PROXY: 'true' }).trustProxy).toBe(1);
    expect(loadConfig({ SVC_TRUST_PROXY: 'false' }).trustProxy).toBe(0);
    expect(loadConfig({ SVC_TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(() => loadConfig({ SVC_TRUST_PROXY: 'maybe' })).toThrow(/SVC_TRUST_PROXY/);
  });

  it('SVC_PUBLIC_URL is kept as an origin and must be an http(s) URL', () => {
    expect(loadConfig({}).publicUrl).toBeUndefined();
    expect(loadConfig({ SVC_PUBLIC_URL: 'https://chat.example.com/some/path' }).publicUrl).toBe('https://chat.example.com');
    expect(() => loadConfig({ SVC_PUBLIC_URL: 'chat.example.com' })).toThrow(/SVC_PUBLIC_URL/);
    expect(() => loadConfig({ SVC_PUBLIC_URL: 'ftp://chat.example.com' })).toThrow(/SVC_PUBLIC_URL/);
  });
});
