/**
 * `pnpm bench` (callbacks): on the embedded store (PGlite) with an instant agent and a receiver on loopback,
 *   1. latency from a callback turn's completion (its reply committed) to the first delivery attempt arriving;
 *   2. how fast 1,000 queued deliveries drain, beside a baseline measured in the same run: the same number of
 *      signed POSTs sent straight to the same receiver at the same concurrency, without the store.
 */
import { createInstantAgent } from '@svc/agents';
import { defaultIds, signCallback } from '@svc/core';
import { pendingDelivery } from '@svc/core/store-kit';
import { createPgliteStore } from '@svc/store-postgres';
import { createLogger } from '../src/logger.js';
import { createRuntime } from '../src/runtime.js';
import { startReceiver } from '../src/testing/receiver.js';
import { postCallback } from '../src/workers/post-callback.js';
import { operatorAdmin } from '../src/cli/operator-admin.js';

const TURNS = Number(process.env.BENCH_CALLBACK_TURNS ?? 200);
const DRAIN = Number(process.env.BENCH_DRAIN_DELIVERIES ?? 1000);
const CONCURRENCY = 16;

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

const receiver = await startReceiver();
const store = await createPgliteStore({});
const account = await operatorAdmin(store).createAccount({ name: 'Bench', credits: 1e12 });
const widget = await operatorAdmin(store).createWidget({ accountId: account.id, name: 'Bench' });
const created = await operatorAdmin(store, { allowPrivateCallbacks: true }).createApiKey({
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
const workers = runtime.startWorkers({ allowPrivateCallbacks: true, deliveryConcurrency: CONCURRENCY });
const headers = { 'content-type': 'application/json', 'x-api-key': created.key };

// 1. Completion → first delivery attempt.
const sessions: string[] = [];
for (let i = 0; i < 8; i++) {
  const res = await runtime.app.request(`/widgets/${widget.id}/conversations`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ visitorId: `bench-${i}` }),
  });
  sessions.push(((await res.json()) as { data: { sessionId: string } }).data.sessionId);
}
const arrivals = new Map<string, number>();
const wallClockAtArrival = (): void => {
  for (const r of receiver.received) {
    const id = JSON.parse(r.body).messageId as string;
    if (!arrivals.has(id)) arrivals.set(id, performance.timeOrigin + r.at);
  }
};
for (let i = 0; i < TURNS; i++) {
  await runtime.app.request(`/widgets/${widget.id}/conversations/${sessions[i % sessions.length]}/messages`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ content: `question ${i}`, response_type: 'callback' }),
  });
}
await receiver.waitFor(TURNS, 120_000);
wallClockAtArrival();
const latencies: number[] = [];
for (const sessionId of sessions) {
  for (const m of await store.listMessages({ widgetId: widget.id, sessionId, limit: 1000 })) {
    const arrived = arrivals.get(m.id);
    if (m.role === 'assistant' && arrived !== undefined) latencies.push(arrived - m.createdAt.getTime());
  }
}
latencies.sort((a, b) => a - b);

// 1b. The same, one turn at a time: latency without a queue in front of it.
const idle: number[] = [];
for (let i = 0; i < 30; i++) {
  const seen = receiver.received.length;
  await runtime.app.request(`/widgets/${widget.id}/conversations/${sessions[0]}/messages`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ content: `single ${i}`, response_type: 'callback' }),
  });
  const [delivery] = (await receiver.waitFor(seen + 1, 30_000)).slice(seen);
  const messageId = JSON.parse(delivery!.body).messageId as string;
  const stored = await store.getMessage(widget.id, sessions[0]!, messageId);
  idle.push(performance.timeOrigin + delivery!.at - stored!.createdAt.getTime());
}
idle.sort((a, b) => a - b);

// 2. Drain 1,000 queued deliveries (workers paused while they are queued).
await workers.stop();
receiver.received.length = 0;
const payload = JSON.stringify({ event: 'message.completed', messageId: 'msg_bench', sessionId: sessions[0], widgetId: widget.id, data: {} });
const now = new Date();
await store.transaction(async (tx) => {
  for (let i = 0; i < DRAIN; i++) {
    const delivery = pendingDelivery(
      {
        id: defaultIds.random('dlv'),
        accountId: account.id,
        keyId: created.apiKey.id,
        webhookId: null,
        widgetId: widget.id,
        sessionId: `drain-${i % 64}`,
        messageId: null,
        event: 'message.completed',
        payload,
        url: receiver.url,
      },
      now,
    );
    await tx.insertDelivery(delivery);
  }
});
const drainStart = performance.now();
const drainWorkers = runtime.startWorkers({ allowPrivateCallbacks: true, deliveryConcurrency: CONCURRENCY, pollMs: 20 });
await receiver.waitFor(DRAIN, 300_000);
const drainSeconds = (performance.now() - drainStart) / 1000;
await drainWorkers.stop();

receiver.received.length = 0;
const baselineStart = performance.now();
let sent = 0;
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    while (sent < DRAIN) {
      sent++;
      const timestamp = Math.floor(Date.now() / 1000);
      await postCallback(
        receiver.url,
        payload,
        {
          'content-type': 'application/json',
          'x-svc-signature': await signCallback(created.callbackSecret!, timestamp, payload),
          'x-svc-timestamp': String(timestamp),
        },
        { allowPrivate: true },
      );
    }
  }),
);
const baselineSeconds = (performance.now() - baselineStart) / 1000;

console.log(`\nCallbacks (PGlite, instant agent, receiver on loopback, Node ${process.version})\n`);
console.log(`completion → first delivery attempt, one turn at a time (${idle.length}): p50 ${percentile(idle, 50).toFixed(1)} ms, p99 ${percentile(idle, 99).toFixed(1)} ms`);
console.log(`completion → first delivery attempt, burst of ${latencies.length} turns:  p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms`);
console.log(`drain ${DRAIN} queued deliveries:      ${(DRAIN / drainSeconds).toFixed(0)} per s (${drainSeconds.toFixed(2)} s)`);
console.log(`baseline: bare signed POSTs:       ${(DRAIN / baselineSeconds).toFixed(0)} per s (${baselineSeconds.toFixed(2)} s)`);
console.log(`drain / baseline:                  ${(baselineSeconds / drainSeconds).toFixed(3)}`);

await receiver.close();
await store.close();
