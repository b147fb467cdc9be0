/**
 * `pnpm bench` (turns): one run, every figure comparable with the others of the same run.
 *
 * For each database (PGlite, embedded; PostgreSQL when SVC_BENCH_DATABASE_URL or SVC_TEST_DATABASE_URL is set):
 *   - the store's own turn transactions (accept, commit) called directly: the database's ceiling;
 *   - sync turns through the real HTTP server with an instant agent;
 *   - callback turns through HTTP: 202 latency, and turns completed per second (reply committed);
 *   - stream turns (time to first delta and to completion), when this build has the streaming route;
 *   - database round trips and transactions per sync turn, counted by a driver that wraps the store's.
 * Beside a bare Hono JSON echo on the same Node HTTP server: the ceiling HTTP and JSON impose. HTTP clients run in a
 * worker thread, so they do not share the server's event loop (real clients are other machines).
 */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { createInstantAgent } from '@svc/agents';
import { randomBase62, type Store } from '@svc/core';
import { createPgliteStore, createPostgresStore } from '@svc/store-postgres';
import { createLogger } from '../src/logger.js';
import { listen } from '../src/node-server.js';
import { createRuntime } from '../src/runtime.js';
import { startReceiver } from '../src/testing/receiver.js';
import { runHttpLoad, type HttpLoadResult } from './http-load.js';
import { combine, type LoadResult } from './load.js';
import { storeSessions, storeTurns } from './store-turns.js';
import { measureStreamTurns, type StreamTurnFigures } from './stream-turns.js';
import { operatorAdmin } from '../src/cli/operator-admin.js';

/** Long enough that a passing spike of the machine (a checkpoint, another process) averages out of the ratios. */
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 10_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
/**
 * The store-only and sync phases alternate in this many rounds (each DURATION_MS / ROUNDS long), so a change in the
 * machine's load during the run affects both alike and their ratio stays meaningful.
 */
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 5));
/** Run, unmeasured, before the measured phases: JIT, PGlite's WASM and the pools warm up first. */
const WARMUP_MS = Number(process.env.BENCH_WARMUP_MS ?? 1000);
const POSTGRES_URL = process.env.SVC_BENCH_DATABASE_URL ?? process.env.SVC_TEST_DATABASE_URL;
const load = { concurrency: CONCURRENCY, durationMs: DURATION_MS };

async function echoBaseline(): Promise<LoadResult> {
  const app = new Hono();
  app.post('/echo', async (c) => c.json({ data: await c.req.json(), meta: { creditsConsumed: 0 } }));
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  const echo = {
    urls: Array.from({ length: CONCURRENCY }, () => `http://127.0.0.1:${port}/echo`),
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ content: 'Hello, what are your opening hours?' }),
    expectStatus: 200,
  };
  await runHttpLoad({ ...echo, durationMs: WARMUP_MS });
  const result = await runHttpLoad({ ...echo, durationMs: DURATION_MS });
  server.close();
  return result;
}

interface Backend {
  name: string;
  open(onQuery: (sql: string) => void): Promise<{ store: Store; dispose: () => Promise<void> }>;
}

const pglite: Backend = {
  name: 'PGlite',
  async open(onQuery) {
    const store = await createPgliteStore({ onQuery });
    return { store, dispose: () => store.close() };
  },
};

function postgres(url: string): Backend {
  return {
    name: 'PostgreSQL',
    async open(onQuery) {
      const schema = `bench_${randomBase62(8).toLowerCase()}`;
      const store = await createPostgresStore({ connectionString: url, schema, max: 10, onQuery });
      return {
        store,
        async dispose() {
          await store.close();
          const client = new pg.Client({ connectionString: url });
          await client.connect();
          await client.query(`drop schema if exists "${schema}" cascade`);
          await client.end();
        },
      };
    },
  };
}

interface BackendFigures {
  name: string;
  store: LoadResult;
  sync: LoadResult;
  callbackAccepted: LoadResult;
  /** Callback turns whose reply committed, per second, from the first request to the last commit. */
  callbackCompletedPerSecond: number;
  stream: StreamTurnFigures | null;
  roundTripsPerTurn: number;
  /** CPU the load generator's thread spent per sync request: what the clients took from the shared cores. */
  clientCpuMsPerTurn: number;
  transactionsPerTurn: number;
}

async function benchBackend(backend: Backend): Promise<BackendFigures> {
  let counting = false;
  let queries = 0;
  let transactions = 0;
  const { store, dispose } = await backend.open((sql) => {
    if (!counting) return;
    queries++;
    if (sql === 'begin') transactions++;
  });
  const receiver = await startReceiver();
  try {
    const account = await operatorAdmin(store).createAccount({ name: 'Bench', credits: 1e12 });
    const widget = await operatorAdmin(store).createWidget({ accountId: account.id, name: 'Bench' });
    const { key, apiKey } = await operatorAdmin(store, { allowPrivateCallbacks: true }).createApiKey({
      accountId: account.id,
      scopes: ['conversations:chat'],
      callbackUrl: receiver.url,
    });
    const runtime = await createRuntime({
      config: { cursorSecret: 'bench-cursor-secret-0123456789', syncTimeoutMs: 25_000, agentTimeoutMs: 120_000, allowPrivateCallbacks: true },
      store,
      logger: createLogger('silent'),
      agent: createInstantAgent(),
    });
    const workers = runtime.startWorkers({ allowPrivateCallbacks: true });
    const server = await listen(runtime, { port: 0, host: '127.0.0.1' });
    const headers = { 'content-type': 'application/json', 'x-api-key': key };
    const base = `${server.url}/widgets/${widget.id}/conversations`;
    const newSessions = (): Promise<string[]> =>
      Promise.all(
        Array.from({ length: CONCURRENCY }, async (_, i) => {
          const res = await fetch(base, { method: 'POST', headers, body: JSON.stringify({ visitorId: `bench-${i}` }) });
          return ((await res.json()) as { data: { sessionId: string } }).data.sessionId;
        }),
      );

    const storeIds = { accountId: account.id, widgetId: widget.id, keyId: apiKey.id };

    const turnLoad = (sessionIds: string[], responseType: 'sync' | 'callback') => ({
      urls: sessionIds.map((id) => `${base}/${id}/messages`),
      headers,
      body: JSON.stringify({ content: 'Hello, what are your opening hours?', response_type: responseType }),
      expectStatus: responseType === 'sync' ? 200 : 202,
    });
    const syncTurns = turnLoad(await newSessions(), 'sync');
    const sessionsForStore = await storeSessions(store, storeIds, CONCURRENCY);
    await storeTurns(store, storeIds, sessionsForStore, { durationMs: WARMUP_MS });
    await runHttpLoad({ ...syncTurns, durationMs: WARMUP_MS });
    const storeRounds: LoadResult[] = [];
    const syncRounds: HttpLoadResult[] = [];
    const roundMs = DURATION_MS / ROUNDS;
    for (let round = 0; round < ROUNDS; round++) {
      storeRounds.push(await storeTurns(store, storeIds, sessionsForStore, { durationMs: roundMs }));
      counting = true;
      syncRounds.push(await runHttpLoad({ ...syncTurns, durationMs: roundMs }));
      counting = false;
    }
    const storeResult = combine(storeRounds);
    const sync = combine(syncRounds);

    const callbackSessions = await newSessions();
    const started = performance.now();
    const callbackAccepted = await runHttpLoad({ ...turnLoad(callbackSessions, 'callback'), durationMs: DURATION_MS });
    const sessionsDone = async (): Promise<boolean> => {
      for (const id of callbackSessions) if (await store.hasUnfinishedTurnJob(widget.id, id)) return false;
      return true;
    };
    while (!(await sessionsDone())) await new Promise((resolve) => setTimeout(resolve, 5));
    const callbackCompletedPerSecond = callbackAccepted.requests / ((performance.now() - started) / 1000);

    const stream = await measureStreamTurns({ base, headers, sessionIds: await newSessions(), ...load });

    await server.close();
    await workers.stop();
    await runtime.core.work.close();
    return {
      name: backend.name,
      store: storeResult,
      sync,
      callbackAccepted,
      callbackCompletedPerSecond,
      stream,
      roundTripsPerTurn: queries / sync.requests,
      clientCpuMsPerTurn: syncRounds.reduce((sum, r) => sum + r.clientCpuMs, 0) / sync.requests,
      transactionsPerTurn: transactions / sync.requests,
    };
  } finally {
    await receiver.close();
    await dispose();
  }
}

const cell = (value: number, digits: number, width: number): string => value.toFixed(digits).padStart(width);
function row(name: string, r: LoadResult, echo: LoadResult): string {
  return [name.padEnd(50), cell(r.perSecond, 0, 8), cell(r.p50Ms, 2, 9), cell(r.p99Ms, 2, 9), cell(r.perSecond / echo.perSecond, 3, 9)].join(' ');
}

const echo = await echoBaseline();
const results: BackendFigures[] = [await benchBackend(pglite)];
if (POSTGRES_URL) results.push(await benchBackend(postgres(POSTGRES_URL)));

console.log(
  `\nTurns, ${CONCURRENCY} concurrent clients (one session each), ${DURATION_MS / 1000}s per measurement` +
    ` (store-only and sync interleaved in ${ROUNDS} rounds), Node ${process.version}\n`,
);
console.log(`${'measurement'.padEnd(50)} ${'per s'.padStart(8)} ${'p50 ms'.padStart(9)} ${'p99 ms'.padStart(9)} ${'vs echo'.padStart(9)}`);
console.log(row('baseline: bare Hono JSON echo (HTTP)', echo, echo));
for (const r of results) {
  console.log(row(`${r.name}: store accept+commit, called directly`, r.store, echo));
  console.log(row(`${r.name}: sync turns via HTTP (instant agent)`, r.sync, echo));
  console.log(row(`${r.name}: callback turns via HTTP (202)`, r.callbackAccepted, echo));
  if (r.stream) {
    console.log(row(`${r.name}: stream turns, first delta`, r.stream.firstDelta, echo));
    console.log(row(`${r.name}: stream turns, completed`, r.stream.completed, echo));
  }
}
console.log('');
for (const r of results) {
  console.log(`${r.name}:`);
  console.log(`  sync turns via HTTP / store transactions:   ${(r.sync.perSecond / r.store.perSecond).toFixed(3)}  (goal >= 0.8)`);
  console.log(`  load generator CPU per sync request:       ${r.clientCpuMsPerTurn.toFixed(3)} ms (its own thread, on the same cores)`);
  console.log(`  callback turns completed per second:        ${r.callbackCompletedPerSecond.toFixed(0)}`);
  console.log(`  database round trips per sync turn:         ${r.roundTripsPerTurn.toFixed(1)} (${r.transactionsPerTurn.toFixed(1)} BEGIN…COMMIT blocks: the rest are single statements)`);
  console.log(`  stream turns:                               ${r.stream ? 'measured above' : 'not measured: this build has no streaming route (bench/stream-turns.ts)'}`);
}
if (!POSTGRES_URL) console.log('\nPostgreSQL: not measured; set SVC_BENCH_DATABASE_URL (or SVC_TEST_DATABASE_URL) to include it.');
