import type { Store } from '@svc/core/store-kit';
import { observeQueries, type QueryObserver } from './counting-driver.js';
import { openSqlStore } from './open-sql-store.js';
import { openPgliteDriver, type PgliteDriverOptions } from './pglite-driver.js';

export interface PgliteStoreOptions extends PgliteDriverOptions {
  /** Told about every statement sent (benchmarks, diagnostics). */
  onQuery?: QueryObserver;
  /**
   * How long API keys and widgets found are reused from memory (default 5,000 ms; 0 turns it off). Changes through
   * this store apply at once; a key revoked or a widget changed by another process applies here within this time.
   */
  lookupCacheMs?: number;
}

/**
 * The Store on embedded PostgreSQL (PGlite), migrated and ready. Zero setup: the database is a directory, locked
 * to this process while open. Without `dataDir` it lives in memory.
 *
 * @example
 * const store = await createPgliteStore({ dataDir: process.env.SVC_DATA_DIR ?? './.svc-data' });
 * // … serve …
 * await store.close(); // releases <dataDir>/svc.lock
 */
export async function createPgliteStore(options: PgliteStoreOptions = {}): Promise<Store> {
  const driver = await openPgliteDriver(options);
  return openSqlStore(options.onQuery ? observeQueries(driver, options.onQuery) : driver, { lookupCacheMs: options.lookupCacheMs });
}
