import type { Store } from '@svc/core/store-kit';
import { registerMigrator, runMigrations } from './migrate.js';
import type { SqlDriver } from './sql-driver.js';
import { registerStatusDriver } from './store-status.js';
import { createSqlStore } from './sql-store.js';
import { availableTextSearchConfigs } from './text-search.js';

/** What both factories do once connected: migrate, learn the server's text search configurations, build the store. */
export async function openSqlStore(driver: SqlDriver, options: { lookupCacheMs?: number | undefined } = {}): Promise<Store> {
  try {
    const applied = await runMigrations(driver);
    const store = createSqlStore(driver, { configs: await availableTextSearchConfigs(driver) }, options);
    registerMigrator(store, driver, applied);
    registerStatusDriver(store, driver);
    return store;
  } catch (error) {
    await driver.close().catch(() => undefined);
    throw error;
  }
}
