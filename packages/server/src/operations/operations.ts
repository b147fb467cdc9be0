import type { Store } from '@svc/core';
import { storeStatus, type StoreStatus } from '@svc/store-postgres';
import type { Context, Hono } from 'hono';
import type { AppEnv } from '../http/auth.js';
import { compression } from '../http/compression.js';
import { createMetrics, type Metrics } from './metrics.js';

/**
 * What the operations endpoints share with the process that runs the app: metrics, and whether it is draining
 * (after SIGTERM: `/readyz` answers 503 so load balancers stop sending traffic while in-flight work finishes).
 */
export interface Operations {
  metrics: Metrics;
  readonly draining: boolean;
  startDraining(): void;
  /**
   * Calls `listener` when draining starts (at once when it has): open event streams end then, so a shutdown does not
   * wait its whole deadline for streams that never finish; their clients reconnect to another instance. Returns the
   * function that removes the listener.
   */
  onDraining(listener: () => void): () => void;
  /** Database state for `/readyz` and `/metrics`; rejects when the database is unreachable. */
  status(): Promise<StoreStatus>;
}

export function createOperations(store: Store, options: { processMetrics?: boolean } = {}): Operations {
  let draining = false;
  const drainListeners = new Set<() => void>();
  return {
    metrics: createMetrics(options),
    get draining() {
      return draining;
    },
    startDraining() {
      draining = true;
      for (const listener of drainListeners) listener();
      drainListeners.clear();
    },
    onDraining(listener) {
      if (draining) {
        listener();
        return () => undefined;
      }
      drainListeners.add(listener);
      return () => drainListeners.delete(listener);
    },
    async status() {
      try {
        return await storeStatus(store);
      } catch (error) {
        if (!(error instanceof TypeError)) throw error;
        // Not one of our SQL stores (an in-memory store in tests or an embedder's own): a round trip proves it answers.
        await store.getAccount('acct_readinesscheck');
        return { pendingMigrations: 0, turnJobs: { queued: 0, running: 0 }, pendingDeliveries: 0, pool: null };
      }
    },
  };
}

/**
 * The request metrics and response compression (DESIGN.md section 9), registered before every route so they see
 * them all. The `/readyz` and `/metrics` routes themselves are entries of the route table (http/routes.ts).
 */
export function operationsMiddleware(operations: Operations): (app: Hono<AppEnv>) => void {
  return (app) => {
    app.use(operations.metrics.http);
    app.use(compression());
    app.use(async (c, next) => {
      await next();
      // Keep-alive clients reconnect (to another instance) instead of reusing a connection about to close.
      if (operations.draining) c.header('Connection', 'close');
    });
  };
}

/** `/readyz`: 200 when the database answers, its migrations are current and the process is not draining. */
export async function readiness(c: Context<AppEnv>, operations: Operations): Promise<Response> {
  c.header('Cache-Control', 'no-store');
  if (operations.draining) return c.json({ status: 'draining' }, 503);
  let status: StoreStatus;
  try {
    status = await operations.status();
  } catch {
    return c.json({ status: 'unavailable', database: 'unreachable' }, 503);
  }
  if (status.pendingMigrations > 0) {
    return c.json({ status: 'unavailable', database: 'ok', pendingMigrations: status.pendingMigrations }, 503);
  }
  return c.json({ status: 'ready', database: 'ok', pendingMigrations: 0 });
}

/** `/metrics` in the Prometheus text format. */
export async function metricsText(c: Context<AppEnv>, operations: Operations): Promise<Response> {
  try {
    operations.metrics.setStoreStatus(await operations.status());
  } catch {
    // An unreachable database leaves the database gauges at their last values; /readyz reports it.
  }
  const { registry } = operations.metrics;
  return c.body(await registry.metrics(), 200, { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' });
}
