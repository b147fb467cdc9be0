import type { Client, Pool, PoolClient, PoolConfig } from 'pg';
import type { Queryable, SqlDriver, SqlNotifications } from './sql-driver.js';

export interface PostgresDriverOptions {
  connectionString: string;
  /** Schema to create (if missing) and use on every connection; default: the server's search_path. */
  schema?: string;
  /** Connections for queries and transactions. Default 10. */
  max?: number;
  /** How long a caller waits for a free connection before failing. Default 10,000 ms. */
  connectionTimeoutMs?: number;
  /** How long a statement waits for a row lock (a session's row, held by a short transaction). Default 10,000 ms. */
  lockTimeoutMs?: number;
  /** Longest a single statement may run. Default 30,000 ms. */
  statementTimeoutMs?: number;
  /**
   * How connections reach PostgreSQL. `direct`: settings are startup options of each connection. `transaction`: through
   * a pooler in transaction mode (PgBouncer's usual setup), which refuses startup options and hands each transaction
   * to any server connection: the settings are `SET LOCAL` at the start of every transaction, every statement runs in
   * one, and `LISTEN` goes only through `listenConnectionString`. `auto` (default): direct, switching to `transaction`
   * when the server refuses startup options ("unsupported startup parameter").
   */
  pooler?: 'auto' | 'direct' | 'transaction';
  /**
   * A connection that bypasses the pooler, for the one `LISTEN` connection (a pooler in transaction mode drops
   * notifications). Without it, behind such a pooler, other processes' changes are found by polling alone.
   */
  listenConnectionString?: string;
  /** Told once when notifications are off (a transaction pooler and no `listenConnectionString`). */
  onWarning?: (message: string) => void;
}

const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/**
 * node-postgres, one pool. Nothing holds a connection across an agent run or while waiting for another connection
 * (DESIGN.md section 3a), and every wait has a deadline: the pool's connection timeout, and lock and statement
 * timeouts set on each connection at start-up. Turn events travel by `LISTEN`/`NOTIFY` on one extra connection
 * outside the pool, opened on first use and reopened after a drop.
 */
export async function openPostgresDriver(options: PostgresDriverOptions): Promise<SqlDriver> {
  const { schema } = options;
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) {
    throw new Error(`Invalid schema name ${JSON.stringify(schema)}: use letters, digits and underscores`);
  }
  const { default: pg } = await import('pg');
  const settings = {
    lock_timeout: options.lockTimeoutMs ?? 10_000,
    statement_timeout: options.statementTimeoutMs ?? 30_000,
    // A transaction left open by a stuck caller must not keep a session row locked for ever.
    idle_in_transaction_session_timeout: 60_000,
  };
  // Direct: set at connection start-up, so no statement can run before it takes effect.
  const startup = [...(schema === undefined ? [] : [`-c search_path=${schema}`]), ...Object.entries(settings).map(([name, value]) => `-c ${name}=${value}`)].join(' ');
  // Behind a transaction pooler: the same, sent with every BEGIN (one round trip with it, simple protocol).
  const local = [...(schema === undefined ? [] : [`set local search_path = "${schema}"`]), ...Object.entries(settings).map(([name, value]) => `set local ${name} = ${value}`)];
  const begin = ['begin', ...local].join('; ');
  const poolConfig = (withStartupOptions: boolean): PoolConfig => ({
    connectionString: options.connectionString,
    max: options.max ?? 10,
    connectionTimeoutMillis: options.connectionTimeoutMs ?? 10_000,
    ...(withStartupOptions ? { options: startup } : {}),
  });
  const openPool = (withStartupOptions: boolean): Pool => {
    const pool = new pg.Pool(poolConfig(withStartupOptions));
    // An idle connection dropped by the server is discarded and replaced on next use; without a listener the
    // 'error' event would crash the process.
    pool.on('error', () => undefined);
    return pool;
  };

  let pooled = options.pooler === 'transaction';
  let pool = openPool(!pooled);
  if (options.pooler === undefined || options.pooler === 'auto') {
    try {
      await pool.query('select 1');
    } catch (error) {
      await pool.end().catch(() => undefined);
      if (!/unsupported startup parameter/i.test((error as Error).message)) throw error;
      pooled = true;
      pool = openPool(false);
    }
  }
  const transaction = <T>(fn: (tx: Queryable) => Promise<T>): Promise<T> => inTransaction(pool, fn, pooled ? begin : 'begin');

  try {
    if (schema !== undefined) await createSchema(transaction, schema);
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }
  const channel = `svc_turns_${(schema ?? 'public').slice(0, 40)}`;
  const listenConfig: PoolConfig | null = !pooled
    ? poolConfig(true)
    : options.listenConnectionString
      ? { connectionString: options.listenConnectionString, connectionTimeoutMillis: options.connectionTimeoutMs ?? 10_000 }
      : null;
  if (listenConfig === null) {
    options.onWarning?.(
      'PostgreSQL is reached through a transaction pooler and no direct connection is configured for LISTEN (SVC_DATABASE_LISTEN_URL): other processes\' changes reach this one by polling, within 5 s.',
    );
  }
  // Without a way to listen, this process still sends NOTIFY (it travels through a pooler's transactions), so
  // processes that can listen hear of its changes at once.
  const notifications =
    listenConfig === null ? { channel, listen: () => () => undefined, close: async () => undefined } : createNotifications(() => new pg.Client(listenConfig), channel);

  // Behind a transaction pooler a lone statement is a transaction of its own, so that it gets the settings too.
  const standalone: Queryable = pooled
    ? { query: (sql, params = []) => transaction((tx) => tx.query(sql, params)), exec: (sql) => transaction((tx) => tx.exec(sql)) }
    : queryable(pool);
  return {
    ...standalone,
    transaction,
    notifications,
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    async close() {
      await notifications.close();
      await pool.end();
    },
  };
}

/**
 * `create schema if not exists` is not safe against itself: two processes starting together can both find the
 * schema missing and one fails on the catalog's unique index. Serialised on an advisory lock, the second finds it.
 */
async function createSchema(transaction: SqlDriver['transaction'], schema: string): Promise<void> {
  await transaction(async (tx) => {
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

async function inTransaction<T>(pool: Pool, fn: (tx: Queryable) => Promise<T>, begin: string): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query(begin);
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

const RECONNECT_MS = 1_000;

/**
 * One dedicated connection listening on `channel`. Notifications are a fast path only (waiters and workers also
 * poll), so a dropped connection is simply reopened a second later.
 */
function createNotifications(newClient: () => Client, channel: string): SqlNotifications & { close(): Promise<void> } {
  const listeners = new Set<(payload: string) => void>();
  let client: Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  async function connect(): Promise<void> {
    if (closed || client || listeners.size === 0) return;
    const next = newClient();
    client = next;
    const drop = (): void => {
      if (client !== next) return;
      client = null;
      next.end().catch(() => undefined);
      if (!closed) {
        retry = setTimeout(() => void connect(), RECONNECT_MS);
        retry.unref();
      }
    };
    next.on('error', drop);
    next.on('end', drop);
    next.on('notification', (message) => {
      if (message.channel !== channel || message.payload === undefined) return;
      for (const listener of listeners) listener(message.payload);
    });
    try {
      await next.connect();
      await next.query(`listen "${channel}"`);
    } catch {
      drop();
    }
  }

  return {
    channel,
    listen(onPayload) {
      listeners.add(onPayload);
      void connect();
      return () => {
        listeners.delete(onPayload);
      };
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      const current = client;
      client = null;
      await current?.end().catch(() => undefined);
    },
  };
}
