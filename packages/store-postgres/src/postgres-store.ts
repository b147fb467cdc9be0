import type { Store } from '@svc/core';
import { openSqlStore } from './open-sql-store.js';
import { openPostgresDriver, type PostgresDriverOptions } from './postgres-driver.js';

export type PostgresStoreOptions = PostgresDriverOptions;

/**
 * The Store on PostgreSQL through node-postgres, migrated and ready. Any number of processes may share the
 * database: transactions are PostgreSQL's and named locks are advisory locks.
 *
 * @example
 * const store = await createPostgresStore({ connectionString: process.env.DATABASE_URL! });
 */
export async function createPostgresStore(options: PostgresStoreOptions): Promise<Store> {
  return openSqlStore(await openPostgresDriver(options));
}
