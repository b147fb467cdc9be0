import { describeStoreContract } from '@svc/core/testing';
import { afterAll, beforeAll } from 'vitest';
import { runMigrations } from './migrate.js';
import { openPgliteDriver } from './pglite-driver.js';
import type { SqlDriver } from './sql-driver.js';
import { createSqlStore } from './sql-store.js';
import { truncateAllTables } from './test-support.js';
import { availableTextSearchConfigs } from './text-search.js';

// Starting PGlite takes seconds, so the file shares one in-memory database: each test gets emptied tables and a
// Store of its own over it. createPgliteStore itself is covered in pglite-store.test.ts.
let driver: SqlDriver | undefined;
let configs: ReadonlySet<string> = new Set();

beforeAll(async () => {
  driver = await openPgliteDriver();
  await runMigrations(driver);
  configs = await availableTextSearchConfigs(driver);
});

afterAll(async () => {
  await driver?.close();
});

describeStoreContract('PGlite', async () => {
  if (!driver) throw new Error('PGlite did not start');
  await truncateAllTables(driver);
  // The database outlives each test's Store: closing the Store must not close it.
  const store = createSqlStore({ ...driver, close: async () => undefined }, { configs });
  return { store, cleanup: async () => undefined };
});
