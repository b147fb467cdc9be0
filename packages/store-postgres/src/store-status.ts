import type { Store } from '@svc/core/store-kit';
import { MIGRATIONS } from './migrations.js';
import type { SqlDriver } from './sql-driver.js';

/** What `/readyz` and `/metrics` read from the database, in one round trip per query. */
export interface StoreStatus {
  /** Migrations of this release not yet applied (0 when current). */
  pendingMigrations: number;
  /** Turn jobs waiting for a worker (`queued`) and being processed (`running`). */
  turnJobs: { queued: number; running: number };
  /** Deliveries still to attempt (first try or retry). */
  pendingDeliveries: number;
  /** node-postgres pool use; null on PGlite (one embedded connection). */
  pool: { total: number; idle: number; waiting: number } | null;
}

const drivers = new WeakMap<Store, SqlDriver>();

/** The driver behind a store made by one of the factories (status, backups). */
export function driverOf(store: Store): SqlDriver | undefined {
  return drivers.get(store);
}

/** Called by the factories so that `storeStatus` can reach the store's database. */
export function registerStatusDriver(store: Store, driver: SqlDriver): void {
  drivers.set(store, driver);
}

/**
 * Operational state of a store created by `createPgliteStore` or `createPostgresStore`. Rejects when the database
 * cannot be reached, which is what a readiness probe wants to know.
 */
export async function storeStatus(store: Store): Promise<StoreStatus> {
  const driver = drivers.get(store);
  if (!driver) throw new TypeError('storeStatus() takes a store created by createPgliteStore or createPostgresStore');
  const [migrations, jobs, deliveries] = await Promise.all([
    driver.query<{ version: number }>('select version from schema_migrations'),
    driver.query<{ status: string; count: string | number }>(
      `select status, count(*) as count from turn_jobs where status in ('queued', 'running') group by status`,
    ),
    driver.query<{ count: string | number }>(`select count(*) as count from deliveries where status = 'pending'`),
  ]);
  const applied = new Set(migrations.map((row) => Number(row.version)));
  const jobCount = (status: string): number => Number(jobs.find((row) => row.status === status)?.count ?? 0);
  return {
    pendingMigrations: MIGRATIONS.filter((migration) => !applied.has(migration.version)).length,
    turnJobs: { queued: jobCount('queued'), running: jobCount('running') },
    pendingDeliveries: Number(deliveries[0]?.count ?? 0),
    pool: driver.poolStats?.() ?? null,
  };
}
