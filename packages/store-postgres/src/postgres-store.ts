import type { Store } from '@svc/core/store-kit';
import { observeQueries, type QueryObserver } from './counting-driver.js';
import { openSqlStore } from './open-sql-store.js';
import { openPostgresDriver, type PostgresDriverOptions } from './postgres-driver.js';

export interface PostgresStoreOptions extends PostgresDriverOptions {
  /** Told about every statement sent (benchmarks, diagnostics). */
  onQuery?: QueryObserver;
  /**
   * How long API keys and widgets found are reused from memory (default 5,000 ms; 0 turns it off). Changes through
   * this store apply at once; a key revoked or a widget changed by another process applies here within this time.
   */
  lookupCacheMs?: number;
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
  return openSqlStore(options.onQuery ? observeQueries(driver, options.onQuery) : driver, { lookupCacheMs: options.lookupCacheMs });
}
