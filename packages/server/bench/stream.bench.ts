/**
 * `pnpm bench`, streaming part: stream turns (`response_type: "stream"`) through the real HTTP server, with an
 * agent that writes its answer in timed pieces like a model producing tokens. Per turn it measures:
 *   - time to first delta: request sent → first `message.delta` bytes received (acceptance included);
 *   - time to completion: request sent → `message.completed` received (agent time and commit included);
 *   - first token → first SSE byte written: the agent writing its first piece → the server handing those bytes to
 *     the socket, the service's own delay on a delta (target p99 ≤ 5 ms on loopback);
 *   - first token → first SSE byte received: the same up to the client reading them, which adds the loopback and,
 *     unless the clients' thread could raise its priority (it says so), its own wait for a core the server and the
 *     database keep busy.
 * The clients run in a worker thread of the server's process (bench/http-clients.worker.mjs): an event loop of
 * their own, as real clients on other machines have, and one clock with the agent's (timeOrigin + now()).
 * Each with one client (what a visitor sees) and with BENCH_CONCURRENCY clients (under load: other turns'
 * statements and requests share the cores). Runs on PGlite, and on PostgreSQL when BENCH_DATABASE_URL (or
 * SVC_TEST_DATABASE_URL) names one (in a schema of its own, dropped afterwards).
 */
import { ServerResponse } from 'node:http';
import pg from 'pg';
import type { Store } from '@svc/core';
import { createPgliteStore, createPostgresStore } from '@svc/store-postgres';
import { createLogger } from '../src/logger.js';
import { listen } from '../src/node-server.js';
import { createRuntime } from '../src/runtime.js';
import { createTimedDeltaAgent, percentile } from '../src/testing/stream-timing.js';
import { runHttpLoad } from './http-load.js';
import { operatorAdmin } from '../src/cli/operator-admin.js';

const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 5000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const DELTAS = Number(process.env.BENCH_STREAM_DELTAS ?? 8);
const DELTA_INTERVAL_MS = Number(process.env.BENCH_STREAM_DELTA_INTERVAL_MS ?? 2);
const WARMUP_MS = Number(process.env.BENCH_WARMUP_MS ?? 1000);
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.SVC_TEST_DATABASE_URL;

interface StreamFigures {
  turns: number;
  perSecond: number;
  firstDelta: number[];
  completion: number[];
  /** First token → its bytes received by the client (the client thread's own scheduling included). */
  tokenToByte: number[];
  /** First token → its bytes handed to the socket by the server: the service's own delay. */
  tokenToWrite: number[];
  /** Whether the clients' thread ran at a raised priority, reading bytes as they arrive (http-clients.worker.mjs). */
  priorityRaised: boolean;
}

/**
 * When the server handed each response's first `message.delta` to its socket, by the client's port, in order:
 * one connection carries one client's turns one after another, so the n-th time on a port is that client's n-th
 * turn. Observed by wrapping `ServerResponse.write` (the bench's own process), which costs one search of the first
 * few chunks of each response.
 */
const deltaWrites = new Map<number, number[]>();
const DELTA_EVENT = Buffer.from('event: message.delta\n');
{
  const write = ServerResponse.prototype.write;
  const seen = new WeakSet<ServerResponse>();
  ServerResponse.prototype.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
    if (!seen.has(this) && (typeof chunk === 'string' || chunk instanceof Uint8Array)) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      if (bytes.includes(DELTA_EVENT)) {
        const at = performance.now();
        seen.add(this);
        const port = this.req.socket?.remotePort ?? 0;
        const times = deltaWrites.get(port);
        if (times) times.push(at);
        else deltaWrites.set(port, [at]);
      }
    }
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as typeof write;
}

async function streamTurns(store: Store, concurrency: number): Promise<StreamFigures> {
  const timed = createTimedDeltaAgent({ deltas: DELTAS, intervalMs: DELTA_INTERVAL_MS });
  const account = await operatorAdmin(store).createAccount({ name: 'Bench', credits: 1e12 });
  const widget = await operatorAdmin(store).createWidget({ accountId: account.id, name: 'Bench' });
  const { key } = await operatorAdmin(store).createApiKey({ accountId: account.id, scopes: ['conversations:chat'] });
  const runtime = await createRuntime({
    config: { cursorSecret: 'bench-cursor-secret-0123456789abcdef', syncTimeoutMs: 25_000, agentTimeoutMs: 120_000, allowPrivateCallbacks: false },
    store,
    logger: createLogger('silent'),
    agent: timed.agent,
  });
  const server = await listen(runtime, { port: 0, host: '127.0.0.1' });
  const base = `/widgets/${widget.id}/conversations`;
  const sessions = await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      const res = await runtime.app.request(base, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({ visitorId: `bench-${worker}` }),
      });
      return ((await res.json()) as { data: { sessionId: string } }).data.sessionId;
    }),
  );
  const turns = (label: string, durationMs: number) =>
    runHttpLoad({
      urls: sessions.map((id) => `${server.url}${base}/${id}/messages`),
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ content: `${label} {n} from {client}`, response_type: 'stream' }),
      expectStatus: 200,
      durationMs,
      stream: true,
    });
  // Warm-up: cold code paths (JIT, lazy imports) are not what a running server spends its time on.
  await turns('Warm-up', WARMUP_MS);
  deltaWrites.clear();
  const result = await turns('Question', DURATION_MS);
  await server.close();
  // The agent noted its first token on this thread's clock, the clients their bytes on theirs: both as
  // timeOrigin + now(), one clock.
  const tokenToByte = result.turns.map((turn) => {
    const wrote = timed.firstDeltaAt.get(`Question ${turn.n} from ${turn.client}`);
    if (wrote === undefined) throw new Error(`no first token noted for turn ${turn.n} of client ${turn.client}`);
    return turn.firstDeltaAt - (performance.timeOrigin + wrote);
  });
  const byPort = new Map<number, typeof result.turns>();
  for (const turn of result.turns) {
    const sameConnection = byPort.get(turn.port);
    if (sameConnection) sameConnection.push(turn);
    else byPort.set(turn.port, [turn]);
  }
  const tokenToWrite: number[] = [];
  for (const [port, clientTurns] of byPort) {
    const writes = deltaWrites.get(port) ?? [];
    if (writes.length !== clientTurns.length) throw new Error(`port ${port}: ${clientTurns.length} turns but ${writes.length} first deltas written`);
    clientTurns.sort((a, b) => a.n - b.n);
    clientTurns.forEach((turn, i) => tokenToWrite.push(writes[i]! - timed.firstDeltaAt.get(`Question ${turn.n} from ${turn.client}`)!));
  }
  return {
    turns: result.turns.length,
    perSecond: result.turns.length / result.seconds,
    firstDelta: result.turns.map((turn) => turn.firstDeltaAt - turn.sentAt),
    completion: result.turns.map((turn) => turn.completedAt - turn.sentAt),
    tokenToByte,
    tokenToWrite,
    priorityRaised: result.priorityRaised,
  };
}

async function onPostgres<T>(url: string, run: (store: Store) => Promise<T>): Promise<T> {
  const schema = `bench_stream_${Math.random().toString(36).slice(2, 10)}`;
  const store = await createPostgresStore({ connectionString: url, schema, max: 10 });
  try {
    return await run(store);
  } finally {
    await store.close();
    const admin = new pg.Pool({ connectionString: url, max: 1 });
    await admin.query(`drop schema if exists "${schema}" cascade`);
    await admin.end();
  }
}

const ms = (values: number[], p: number): string => percentile(values, p).toFixed(2).padStart(9);

function rows(label: string, figures: StreamFigures): string[] {
  return [
    `${`${label}: time to first delta`.padEnd(62)} ${ms(figures.firstDelta, 50)} ${ms(figures.firstDelta, 99)}`,
    `${`${label}: time to completion`.padEnd(62)} ${ms(figures.completion, 50)} ${ms(figures.completion, 99)}`,
    `${`${label}: first token → first SSE byte received`.padEnd(62)} ${ms(figures.tokenToByte, 50)} ${ms(figures.tokenToByte, 99)}`,
    `${`${label}: first token → first SSE byte written`.padEnd(62)} ${ms(figures.tokenToWrite, 50)} ${ms(figures.tokenToWrite, 99)}`,
  ];
}

/** One client (the latency a visitor sees), then CONCURRENCY clients (the same under load), on one store. */
async function bothLoads(store: Store): Promise<Array<[string, StreamFigures]>> {
  return [
    ['1 client', await streamTurns(store, 1)],
    [`${CONCURRENCY} clients`, await streamTurns(store, CONCURRENCY)],
  ];
}

const results: Array<[string, StreamFigures]> = [];
const pglite = await createPgliteStore({});
try {
  for (const [load, figures] of await bothLoads(pglite)) results.push([`PGlite, ${load}`, figures]);
} finally {
  await pglite.close();
}
if (DATABASE_URL) for (const [load, figures] of await onPostgres(DATABASE_URL, bothLoads)) results.push([`PostgreSQL, ${load}`, figures]);

console.log(
  `\nStream turns, ${DURATION_MS / 1000}s per row group; agent writes ${DELTAS} pieces ${DELTA_INTERVAL_MS} ms apart; Node ${process.version}\n`,
);
console.log(`${'measurement'.padEnd(62)} ${'p50 ms'.padStart(9)} ${'p99 ms'.padStart(9)}`);
for (const [label, figures] of results) for (const line of rows(label, figures)) console.log(line);
console.log('');
for (const [label, figures] of results) console.log(`${label}: ${figures.turns} stream turns, ${figures.perSecond.toFixed(1)}/s`);
if (!DATABASE_URL) console.log('PostgreSQL: skipped (set BENCH_DATABASE_URL to include it)');
console.log(
  results.every(([, figures]) => figures.priorityRaised)
    ? "Clients' thread at a raised priority (nice -10): bytes are read as they arrive, as by a client on its own machine."
    : "Clients' thread at normal priority (raising it takes root or CAP_SYS_NICE): 'received' includes its wait for a core the server and database share.",
);
