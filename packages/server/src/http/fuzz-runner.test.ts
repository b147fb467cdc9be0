import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import { listen, type RunningServer } from '../node-server.js';
import { createRuntime } from '../runtime.js';
import { seedDemo } from '../seed.js';
import { runFuzz, summaryLine, type Finding, type FuzzTarget } from '../testing/fuzz.js';
import { PRODUCTION_STORES, type OpenedStore } from '../testing/production-stores.js';
import { operatorAdmin } from '../cli/operator-admin.js';
import { ANY_ACCOUNT } from '@svc/core';

/**
 * The seeded fuzz run of issue 10 against a real server on a socket. 3,000 requests by default;
 * SVC_FUZZ_REQUESTS=30000 for the full run, SVC_FUZZ_SEED for another sequence, SVC_FUZZ_STORE=postgres for
 * PostgreSQL instead of PGlite.
 */
const COUNT = Number(process.env.SVC_FUZZ_REQUESTS ?? 3_000);
const SEED = Number(process.env.SVC_FUZZ_SEED ?? 10);
const STORE = process.env.SVC_FUZZ_STORE === 'postgres' ? 'PostgreSQL' : 'PGlite';
const ORIGIN = 'https://shop.example';

let opened: OpenedStore;
let server: RunningServer;
let target: FuzzTarget;

beforeAll(async () => {
  opened = await PRODUCTION_STORES.find(([name]) => name === STORE)![1]();
  const { store } = opened;
  const seed = (await seedDemo(store))!;
  const runtime = await createRuntime({
    config: { cursorSecret: 'fuzz-cursor-secret-0123456789abcdef', syncTimeoutMs: 25_000, agentTimeoutMs: 60_000, publicRateLimitPerMinute: 1_000_000 },
    store,
    logger: createLogger('silent'),
  });
  server = await listen(runtime, { port: 0, host: '127.0.0.1' });
  const { key: publicKey } = await operatorAdmin(store).createPublicKey(ANY_ACCOUNT, { widgetId: seed.widgetId, origins: [ORIGIN] });
  const post = async (path: string, body: unknown, key = seed.apiKey, origin?: string): Promise<{ data: Record<string, string> }> => {
    const res = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-API-Key': key, ...(origin ? { Origin: origin } : {}) },
      body: JSON.stringify(body),
    });
    return (await res.json()) as { data: Record<string, string> };
  };
  const conversations = `/widgets/${seed.widgetId}/conversations`;
  const sessionIds = [
    (await post(conversations, { visitorId: 'fz', sessionId: 'order-1234' })).data.sessionId!,
    (await post(conversations, { visitorId: 'fz' })).data.sessionId!,
    (await post(conversations, { visitorId: 'fz' }, publicKey, ORIGIN)).data.sessionId!,
  ];
  const documents = await (await fetch(`${server.url}/knowledge-bases/${seed.knowledgeBaseId}/documents`, { headers: { 'X-API-Key': seed.apiKey } })).json();
  const products = await (await fetch(`${server.url}/knowledge-bases/${seed.knowledgeBaseId}/products`, { headers: { 'X-API-Key': seed.apiKey } })).json();
  target = {
    url: server.url,
    widgetId: seed.widgetId,
    knowledgeBaseId: seed.knowledgeBaseId,
    sessionIds,
    productIds: [...(products.data as Array<{ id: string }>).slice(0, 3).map((p) => p.id), 'missing-product'],
    documentIds: [...(documents.data as Array<{ id: string }>).slice(0, 3).map((d) => d.id), 'missing-document'],
    serverKey: seed.apiKey,
    publicKey,
    origin: ORIGIN,
  };
}, 120_000);

afterAll(async () => {
  await server?.close();
  await opened?.dispose();
});

describe('fuzzing the API over a socket (issue 10)', () => {
  it(`answers ${COUNT} seeded hostile requests without 5xx, non-JSON answers or dropped connections`, { timeout: Math.max(300_000, COUNT * 100) }, async () => {
    const report = await runFuzz(target, { seed: SEED, count: COUNT, concurrency: 4 });
    console.log(summaryLine(report, STORE));
    const sample = (findings: Finding[]): string[] => [...new Map(findings.map((f) => [`${f.kind} ${f.status} ${f.request.slice(0, 60)}`, f])).values()].slice(0, 8).map((f) => `  ${f.kind} ${f.status ?? '-'} [${f.traits.join(',')}] ${f.request} → ${f.detail}`);
    if (report.findings.length > 0) console.log(`fuzz: ${report.findings.length} findings:\n${sample(report.findings).join('\n')}`);

    expect(report.requests).toBeGreaterThan(COUNT * 0.95);
    expect(report.findings).toEqual([]);
  });
});
