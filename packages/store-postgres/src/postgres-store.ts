import type { Store } from '@svc/core';
import { observeQueries, type QueryObserver } from './counting-driver.js';
import { openSqlStore } from './open-sql-store.js';
import { openPostgresDriver, type PostgresDriverOptions } from './postgres-driver.js';

export interface PostgresStoreOptions extends PostgresDriverOptions {
  /** Told about every statement sent (benchmarks, diagnostics). */
  onQuery?: QueryObserver;
}

/**
 * The Store on PostgreSQL through node-postgres, migrated and ready. Any number of processes may share the
 * database: every change to a session is a short transaction on its locked row, turn jobs are claimed with leases,
 * and processes hear of finished turns through `LISTEN`/`NOTIFY`.
 *
 * @example
 * const store = await createPostgresStore({ connectionString: process.env.DATABASE_URL! });
 */
export async function createPostgresStore(options: PostgresStoreOptions): Promise<Store> {
  const driver = await openPostgresDriver(options);
  return openSqlStore(options.onQuery ? observeQueries(driver, options.onQuery) : driver);
}
