/**
 * A service process for the crash and multi-worker tests: PostgreSQL store (DATABASE_URL, SVC_TEST_SCHEMA), an
 * agent that takes AGENT_DELAY_MS per turn (written in AGENT_PIECES pieces), HTTP (ROLE all|api) and/or workers (ROLE all|worker; the expiry sweep
 * every SWEEP_MS). Prints
 * `ready <url>` once serving. Real code paths only: the same runtime, workers and store as `svc start`.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { createScriptedAgent } from '@svc/agents';
import { createPostgresStore } from '@svc/store-postgres';
import { createLogger } from '../logger.js';
import { listen } from '../node-server.js';
import { createRuntime } from '../runtime.js';

const env = process.env;
const store = await createPostgresStore({ connectionString: env.DATABASE_URL!, schema: env.SVC_TEST_SCHEMA! });
const delay = Number(env.AGENT_DELAY_MS ?? 0);
const runtime = await createRuntime({
  config: { cursorSecret: 'process-test-cursor-secret-0123', syncTimeoutMs: 25_000, agentTimeoutMs: 60_000, allowPrivateCallbacks: true },
  store,
  logger: createLogger(env.LOG_LEVEL ?? 'silent'),
  turnLeaseMs: Number(env.JOB_LEASE_MS ?? 2_000),
  agent: createScriptedAgent(async ({ message, signal, onDelta }) => {
    if (delay > 0) await sleep(delay, undefined, { signal });
    // AGENT_PIECES: the answer is written in that many pieces, AGENT_PIECE_MS apart, as a streaming model would.
    const pieces = Array.from({ length: Number(env.AGENT_PIECES ?? 1) }, (_, i) => (i === 0 ? `answer to ${message}` : ` (part ${i + 1})`));
    for (const [index, piece] of pieces.entries()) {
      if (index > 0) await sleep(Number(env.AGENT_PIECE_MS ?? 0), undefined, { signal });
      if (pieces.length > 1) onDelta?.(piece);
    }
    return { content: pieces.join('') };
  }),
});
// ROLE api serves without workers, as `svc start --role api` does.
if (env.ROLE !== 'api') {
  runtime.startWorkers({
    allowPrivateCallbacks: true,
    pollMs: 50,
    turnConcurrency: Number(env.TURN_CONCURRENCY ?? 4),
    sweepIntervalMs: Number(env.SWEEP_MS ?? 60_000),
  });
}
if (env.ROLE === 'worker') {
  console.log('ready worker');
} else {
  const server = await listen(runtime, { port: 0, host: '127.0.0.1' });
  console.log(`ready ${server.url}`);
}
