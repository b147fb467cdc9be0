import type { Agent, Store } from '@svc/core';
import type { MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { StoreStatus } from '@svc/store-postgres';

/**
 * Prometheus metrics (DESIGN.md section 9). One registry per app, so several apps in one process (tests, an
 * embedder mounting two) keep separate counts.
 */
export interface Metrics {
  registry: Registry;
  /** Counts and times every request by method, route pattern and status. */
  http: MiddlewareHandler;
  /** The agent, with turns counted by outcome and their latency observed. */
  instrumentAgent(agent: Agent): Agent;
  /** The store, with callback delivery attempts counted by outcome. */
  instrumentStore<S extends Store>(store: S): S;
  /** Sets the gauges read from the database (queue depth, pool use) just before a scrape. */
  setStoreStatus(status: StoreStatus): void;
}

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const AGENT_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 60, 120];

/**
 * Node's process metrics under `svc_`: `svc_process_cpu_seconds_total`, `svc_nodejs_eventloop_lag_seconds`… (the
 * prefix `svc_process_` once made `svc_process_process_…`). prom-client's `nodejs_active_*_total` are gauges, which a
 * `_total` name promises are counters (promtool refuses them): they are dropped, as `svc_nodejs_active_resources`
 * (by type) and `svc_nodejs_active_handles`/`_requests` already give those counts.
 */
function processMetrics(registry: Registry): void {
  collectDefaultMetrics({ register: registry, prefix: 'svc_' });
  for (const kind of ['handles', 'requests', 'resources'] as const) registry.removeSingleMetric(`svc_nodejs_active_${kind}_total`);
}

/**
 * The route pattern that answered (`/widgets/:widgetId/conversations`), never the raw path: ids in label values
 * would make one time series per session. Requests no route matched share one label.
 */
function routeLabel(c: Parameters<MiddlewareHandler>[0]): string {
  const handlers = matchedRoutes(c).filter((route) => route.method !== 'ALL');
  return handlers.at(-1)?.path ?? 'unmatched';
}

export function createMetrics(options: { processMetrics?: boolean } = {}): Metrics {
  const registry = new Registry();
  if (options.processMetrics) processMetrics(registry);

  const requests = new Counter({
    name: 'svc_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'svc_http_request_duration_seconds',
    help: 'Time to answer an HTTP request (until the response is ready), by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const turns = new Counter({
    name: 'svc_turns_total',
    help: 'Agent turns (one per visitor message answered), by outcome: ok or error.',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const agentLatency = new Histogram({
    name: 'svc_agent_latency_seconds',
    help: 'Time the agent took to produce a reply, by outcome.',
    labelNames: ['outcome'] as const,
    buckets: AGENT_BUCKETS,
    registers: [registry],
  });
  const firstToken = new Histogram({
    name: 'svc_agent_first_token_seconds',
    help: 'Time from the agent starting a reply to its first piece of text (streaming agents; others: the whole reply).',
    buckets: AGENT_BUCKETS,
    registers: [registry],
  });
  const turnDuration = new Histogram({
    name: 'svc_turn_duration_seconds',
    help: 'End to end: from a visitor message accepted to its reply committed (or the turn failing), queue wait included, for turns accepted by this process.',
    labelNames: ['outcome'] as const,
    buckets: AGENT_BUCKETS,
    registers: [registry],
  });
  /** Turns accepted here, by job id: when they were accepted. Entries leave when the turn commits or fails. */
  const acceptedAt = new Map<string, number>();
  const turnEnded = (jobId: string, outcome: 'ok' | 'error'): void => {
    const started = acceptedAt.get(jobId);
    if (started === undefined) return;
    acceptedAt.delete(jobId);
    turnDuration.observe({ outcome }, (performance.now() - started) / 1000);
  };
  const deliveries = new Counter({
    name: 'svc_callback_deliveries_total',
    help: 'Callback delivery attempts by outcome: delivered, retry (failed, another attempt scheduled) or failed (retries exhausted).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const turnJobs = new Gauge({
    name: 'svc_turn_jobs',
    help: 'Callback turn jobs not finished yet, by status (queued, running), across every instance sharing the database.',
    labelNames: ['status'] as const,
    registers: [registry],
  });
  const pendingDeliveries = new Gauge({
    name: 'svc_callback_deliveries_pending',
    help: 'Callback deliveries waiting for a first attempt or a retry, across every instance sharing the database.',
    registers: [registry],
  });
  const pool = new Gauge({
    name: 'svc_db_pool_connections',
    help: 'PostgreSQL connections of this process by state (total, idle, waiting = requests waiting for one). Absent on PGlite.',
    labelNames: ['state'] as const,
    registers: [registry],
  });

  return {
    registry,
    http: async (c, next) => {
      const started = performance.now();
      await next();
      const labels = { method: c.req.method, route: routeLabel(c), status: String(c.res.status) };
      requests.inc(labels);
      duration.observe(labels, (performance.now() - started) / 1000);
    },
    instrumentAgent(agent) {
      return {
        async reply(request) {
          const end = agentLatency.startTimer();
          const started = performance.now();
          let first = true;
          const firstPiece = (): void => {
            if (!first) return;
            first = false;
            firstToken.observe((performance.now() - started) / 1000);
          };
          const onDelta = request.onDelta;
          try {
            const reply = await agent.reply(onDelta === undefined ? request : { ...request, onDelta: (text) => (firstPiece(), onDelta(text)) });
            firstPiece();
            end({ outcome: 'ok' });
            turns.inc({ outcome: 'ok' });
            return reply;
          } catch (error) {
            end({ outcome: 'error' });
            turns.inc({ outcome: 'error' });
            throw error;
          }
        },
      };
    },
    instrumentStore(store) {
      // Only delivery attempts are counted; every other call goes straight to the store, bound once (every store call
      // of every request comes through here).
      const bound = new WeakMap<object, unknown>();
      return new Proxy(store, {
        get(target, property, receiver) {
          if (property === 'acceptTurnJob' || property === 'acceptTurnAtOnce') {
            return async (acceptance: { job: { id: string } }) => {
              // Bounded: a process accepting turns it never finishes (killed mid-way) must not grow this for ever.
              if (acceptedAt.size > 10_000) acceptedAt.clear();
              acceptedAt.set(acceptance.job.id, performance.now());
              return (target[property] as (a: unknown) => Promise<unknown>)(acceptance);
            };
          }
          if (property === 'commitTurn') {
            return async (commit: Parameters<Store['commitTurn']>[0]) => {
              const stored = await target.commitTurn(commit);
              if (stored !== null) turnEnded(commit.jobId, 'ok');
              return stored;
            };
          }
          if (property === 'finishTurnJob') {
            return async (...args: Parameters<Store['finishTurnJob']>) => {
              const finished = await target.finishTurnJob(...args);
              if (finished && args[1].status === 'failed') turnEnded(args[0], 'error');
              return finished;
            };
          }
          if (property === 'recordDeliveryAttempt') {
            return async (...args: Parameters<Store['recordDeliveryAttempt']>) => {
              const result = await target.recordDeliveryAttempt(...args);
              const attempt = args[1];
              deliveries.inc({ outcome: attempt.ok ? 'delivered' : attempt.nextAttemptAt ? 'retry' : 'failed' });
              return result;
            };
          }
          const value = Reflect.get(target, property, receiver) as unknown;
          if (typeof value !== 'function') return value;
          let fn = bound.get(value);
          if (fn === undefined) {
            fn = (value as (...a: unknown[]) => unknown).bind(target);
            bound.set(value, fn);
          }
          return fn;
        },
      });
    },
    setStoreStatus(status) {
      turnJobs.set({ status: 'queued' }, status.turnJobs.queued);
      turnJobs.set({ status: 'running' }, status.turnJobs.running);
      pendingDeliveries.set(status.pendingDeliveries);
      if (status.pool) {
        pool.set({ state: 'total' }, status.pool.total);
        pool.set({ state: 'idle' }, status.pool.idle);
        pool.set({ state: 'waiting' }, status.pool.waiting);
      }
    },
  };
}
