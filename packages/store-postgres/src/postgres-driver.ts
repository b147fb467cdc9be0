import type { Pool, PoolClient, PoolConfig } from 'pg';
import { createKeyedMutex } from '@svc/core/store-kit';
import type { Queryable, SqlDriver } from './sql-driver.js';

export interface PostgresDriverOptions {
  connectionString: string;
  /** Schema to create (if missing) and use on every connection; default: the server's search_path. */
  schema?: string;
  /** Connections for queries and transactions; named locks have a pool of the same size. Default 10. */
  max?: number;
}

const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/**
 * node-postgres pools. Named locks are session advisory locks, each held on its own connection for as long as
 * `fn` runs. Those connections come from a second pool: if lock holders and lock waiters could take every query
 * connection, a holder's own queries would wait forever.
 */
export async function openPostgresDriver(options: PostgresDriverOptions): Promise<SqlDriver> {
  const { schema } = options;
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) {
    throw new Error(`Invalid schema name ${JSON.stringify(schema)}: use letters, digits and underscores`);
  }
  const { default: pg } = await import('pg');
  const config: PoolConfig = {
    connectionString: options.connectionString,
    max: options.max ?? 10,
    // Set at connection start-up, so no statement can run before it takes effect.
    ...(schema === undefined ? {} : { options: `-c search_path=${schema}` }),
  };
  const pool = new pg.Pool(config);
  const lockPool = new pg.Pool(config);
  // An idle connection dropped by the server is discarded and replaced on next use; without a listener the
  // 'error' event would crash the process.
  const ignore = (): void => undefined;
  pool.on('error', ignore);
  lockPool.on('error', ignore);

  try {
    if (schema !== undefined) await createSchema(pool, schema);
  } catch (error) {
    await Promise.allSettled([pool.end(), lockPool.end()]);
    throw error;
  }

  // Callers of one name in this process queue here first, so at most one connection per name waits in PostgreSQL.
  const localQueue = createKeyedMutex();

  return {
    ...queryable(pool),
    transaction: (fn) => inTransaction(pool, fn),
    withLock: (name, fn) => localQueue.run(name, () => withAdvisoryLock(lockPool, name, fn)),
    poolStats: () => ({
      total: pool.totalCount + lockPool.totalCount,
      idle: pool.idleCount + lockPool.idleCount,
      waiting: pool.waitingCount + lockPool.waitingCount,
    }),
    async close() {
      await Promise.all([pool.end(), lockPool.end()]);
    },
  };
}

/**
 * `create schema if not exists` is not safe against itself: two processes starting together can both find the
 * schema missing and one fails on the catalog's unique index. Serialised on an advisory lock, the second finds it.
 */
async function createSchema(pool: Pool, schema: string): Promise<void> {
  await inTransaction(pool, async (tx) => {
    await tx.query(`select pg_advisory_xact_lock(hashtextextended('svc:create-schema:' || $1, 0))`, [schema]);
    await tx.exec(`create schema if not exists "${schema}"`);
  });
}

function queryable(db: Pool | PoolClient): Queryable {
  return {
    async query<R extends object>(sql: string, params: readonly unknown[] = []) {
      return (await db.query<R & Record<string, unknown>>(sql, [...params])).rows;
    },
    async exec(sql) {
      // Without parameters node-postgres uses the simple protocol, which accepts several statements.
      await db.query(sql);
    },
  };
}

async function inTransaction<T>(pool: Pool, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('begin');
    const result = await fn(queryable(client));
    await client.query('commit');
    return result;
  } catch (error) {
    await client.query('rollback').catch((rollbackError: Error) => {
      broken = rollbackError;
    });
    throw error;
  } finally {
    // A connection that could not roll back is in an unknown state: destroy it rather than reuse it.
    client.release(broken);
  }
}

/**
 * The lock key is namespaced by schema: stores on different schemas of one database are different stores.
 * PostgreSQL grants waiting advisory lock requests in the order they were made.
 */
const LOCK_KEY = `hashtextextended(current_schema() || '/' || $1, 0)`;

async function withAdvisoryLock<T>(lockPool: Pool, name: string, fn: () => Promise<T>): Promise<T> {
  const client = await lockPool.connect();
  let broken: Error | undefined;
  try {
    try {
      await client.query(`select pg_advisory_lock(${LOCK_KEY})`, [name]);
    } catch (error) {
      broken = error as Error;
      throw error;
    }
    try {
      return await fn();
    } finally {
      await client.query(`select pg_advisory_unlock(${LOCK_KEY})`, [name]).catch((error: Error) => {
        // Destroying the connection ends its session, which releases the lock anyway.
        broken = error;
      });
    }
  } finally {
    client.release(broken);
  }
}
