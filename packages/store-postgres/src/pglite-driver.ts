import { join, resolve } from 'node:path';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock.js';
import type { Queryable, SqlDriver } from './sql-driver.js';

export interface PgliteDriverOptions {
  /** Directory holding the database and its lock file; omitted: an in-memory database, gone on close. */
  dataDir?: string;
}

/** Where PGlite keeps its cluster inside the data directory, apart from our lock file. */
const CLUSTER_DIR = 'pg';

/**
 * Embedded PostgreSQL (WASM) in this process. PGlite runs one statement at a time and its `transaction` holds the
 * whole database, so transactions are serialisable by construction. The data directory lock keeps every other
 * process out, so turn events need no cross-process channel.
 */
export async function openPgliteDriver(options: PgliteDriverOptions = {}): Promise<SqlDriver> {
  const lock: DataDirLock | null = options.dataDir === undefined ? null : await acquireDataDirLock(options.dataDir);
  let db: PGlite;
  try {
    // Loaded on demand: a server on DATABASE_URL never pays for the WASM build.
    const { PGlite } = await import('@electric-sql/pglite');
    db = await PGlite.create(options.dataDir === undefined ? {} : { dataDir: join(resolve(options.dataDir), CLUSTER_DIR) });
  } catch (error) {
    await lock?.release();
    throw error;
  }

  return {
    ...queryable(db),
    transaction: (fn) => db.transaction((tx) => fn(queryable(tx))),
    async close() {
      try {
        if (!db.closed) await db.close();
      } finally {
        await lock?.release();
      }
    },
  };
}

function queryable(db: PGlite | Transaction): Queryable {
  return {
    async query<R extends object>(sql: string, params: readonly unknown[] = []) {
      return (await db.query<R>(sql, [...params])).rows;
    },
    async exec(sql) {
      await db.exec(sql);
    },
  };
}
