import { afterEach, describe, expect, it } from 'vitest';
import { createScriptedAgent } from '@svc/agents';
import { ANY_ACCOUNT, createMemoryStore } from '@svc/core';
import { operatorAdmin } from '../cli/operator-admin.js';
import { createLogger } from '../logger.js';
import { listen } from '../node-server.js';
import { createRuntime } from '../runtime.js';
import { createEventStreamSlots } from './session-event-stream.js';

const ORIGIN = 'https://shop.example';

let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

describe('fair shares of a widget key\'s event streams', () => {
  it('caps one address at its share while others still get streams; server keys and the key-wide cap as before', () => {
    const slots = createEventStreamSlots({ perSession: 3, perKey: 10, perAddress: 4 });
    const held = Array.from({ length: 4 }, (_, i) => slots.acquire({ keyId: 'pk', session: `s${i}`, address: 'a' }));
    expect(() => slots.acquire({ keyId: 'pk', session: 's9', address: 'a' })).toThrow(/At most 4 event streams of this widget may be open at once from one address/);
    // The same address under another key, and another address under this key, have shares of their own.
    slots.acquire({ keyId: 'pk2', session: 'x', address: 'a' });
    for (let i = 0; i < 6; i++) slots.acquire({ keyId: 'pk', session: `b${i}`, address: `b${i}` });
    // The key-wide cap still holds (4 + 6 = 10).
    expect(() => slots.acquire({ keyId: 'pk', session: 'c', address: 'c' })).toThrow(/At most 10 event streams/);
    held[0]!();
    expect(() => slots.acquire({ keyId: 'pk', session: 's0', address: 'a' })).not.toThrow();
    // Server keys: no per-address share (a backend follows many conversations from one address).
    for (let i = 0; i < 8; i++) slots.acquire({ keyId: 'sk', session: `k${i}`, address: null });
  });

  it('over real sockets: a dozen addresses with one public key cannot take every stream; a new visitor still gets one (regression: 429 for every visitor after 1,000)', async () => {
    const store = createMemoryStore();
    const runtime = await createRuntime({
      config: { cursorSecret: 'test-cursor-secret-0123456789abcdef', syncTimeoutMs: 25_000, agentTimeoutMs: 60_000, publicRateLimitPerMinute: 10_000, trustProxy: 1 },
      store,
      logger: createLogger('silent'),
      agent: createScriptedAgent(() => ({ content: 'ok' })),
    });
    const server = await listen(runtime, { port: 0, host: '127.0.0.1' });
    cleanups.push(() => server.close());
    const account = await operatorAdmin(store).createAccount({ name: 'Shares', credits: 10_000 });
    const widget = await operatorAdmin(store).createWidget({ accountId: account.id, name: 'Shares' });
    const { key } = await operatorAdmin(store).createPublicKey(ANY_ACCOUNT, { widgetId: widget.id, origins: [ORIGIN] });
    const base = `${server.url}/widgets/${widget.id}/conversations`;
    const from = (address: string) => ({ 'X-API-Key': key, Origin: ORIGIN, 'X-Forwarded-For': address, 'content-type': 'application/json' });
    const aborts: AbortController[] = [];
    cleanups.push(async () => aborts.forEach((a) => a.abort()));

    async function stream(address: string, sessionId: string): Promise<number> {
      const abort = new AbortController();
      aborts.push(abort);
      const res = await fetch(`${base}/${sessionId}/events`, { headers: from(address), signal: abort.signal });
      if (res.status !== 200) await res.body?.cancel();
      return res.status;
    }
    async function session(address: string, visitorId: string): Promise<string> {
      const res = await fetch(base, { method: 'POST', headers: from(address), body: JSON.stringify({ visitorId }) });
      return ((await res.json()) as { data: { sessionId: string } }).data.sessionId;
    }

    // One address: 7 sessions, 3 streams each; the 21st stream is past its share of 20.
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const id = await session('203.0.113.9', `hog-${i}`);
      for (let j = 0; j < 3; j++) statuses.push(await stream('203.0.113.9', id));
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(20);
    expect(statuses.at(-1)).toBe(429);
    // A visitor from elsewhere still gets live events.
    expect(await stream('198.51.100.20', await session('198.51.100.20', 'visitor'))).toBe(200);
  });
});
