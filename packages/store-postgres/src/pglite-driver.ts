import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock.js';
import type { Queryable, SqlDriver } from './sql-driver.js';

export interface PgliteDriverOptions {
  /** Directory holding the database and its lock file; omitted: an in-memory database, gone on close. */
  dataDir?: string;
}

/** Where PGlite keeps its cluster inside the data directory, apart from our lock file. */
const CLUSTER_DIR = 'pg';

/** A request to the database's thread, as pglite-worker.js reads it. */
type Request =
  | { op: 'open'; dataDir?: string }
  | { op: 'query'; sql: string; params: unknown[]; tx?: number }
  | { op: 'exec'; sql: string; tx?: number }
  | { op: 'begin' }
  | { op: 'end'; tx: number; commit: boolean }
  | { op: 'dump' }
  | { op: 'close' };

interface Reply {
  id: number;
  error?: { message: string; name?: string; stack?: string } & Record<string, unknown>;
  rows?: unknown[];
  tx?: number;
  archive?: Uint8Array;
}

/** The database's error as the caller's: its message, SQLSTATE and details, with this thread's stack below. */
function reviveError(error: NonNullable<Reply['error']>): Error {
  const { message, name, stack, ...fields } = error;
  const revived = Object.assign(new Error(message), fields);
  if (name) revived.name = name;
  if (stack) revived.stack = `${stack}\n    --- in the PGlite thread, asked from ---\n${revived.stack?.split('\n').slice(1).join('\n') ?? ''}`;
  return revived;
}

/**
 * Embedded PostgreSQL (WASM) on a thread of its own (pglite-worker.js). On the main thread every statement would
 * stop the event loop while it runs, so requests, streamed deltas and timers would wait behind other sessions'
 * queries; on its own thread it runs beside them, on another core where there is one. PGlite runs one statement at
 * a time and its `transaction` holds the whole database, so transactions are serialisable by construction. The
 * data directory lock keeps every other process out, so turn events need no cross-process channel.
 */
export async function openPgliteDriver(options: PgliteDriverOptions = {}): Promise<SqlDriver> {
  const lock: DataDirLock | null = options.dataDir === undefined ? null : await acquireDataDirLock(options.dataDir);
  const worker = new Worker(new URL('./pglite-worker.js', import.meta.url));
  const pending = new Map<number, { resolve: (reply: Reply) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  let failure: Error | null = null;
  // Like the database in this thread would, the thread keeps the process alive only while a request is in flight.
  worker.unref();
  const fail = (error: Error): void => {
    failure ??= error;
    for (const { reject } of pending.values()) reject(failure);
    pending.clear();
  };
  worker.on('message', (reply: Reply) => {
    const waiter = pending.get(reply.id);
    if (!waiter) return;
    pending.delete(reply.id);
    if (pending.size === 0) worker.unref();
    if (reply.error) waiter.reject(reviveError(reply.error));
    else waiter.resolve(reply);
  });
  worker.on('error', (error) => fail(error));
  worker.on('exit', (code) => fail(new Error(`The PGlite thread stopped (exit code ${code}).`)));

  const ask = (request: Request): Promise<Reply> => {
    if (failure) return Promise.reject(failure);
    const id = nextId++;
    if (pending.size === 0) worker.ref();
    return new Promise<Reply>((resolve, reject) => {
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, ...request });
    });
  };
  const queryable = (tx?: number): Queryable => ({
    async query<R extends object>(sql: string, params: readonly unknown[] = []) {
      return (await ask({ op: 'query', sql, params: [...params], ...(tx === undefined ? {} : { tx }) })).rows as R[];
    },
    async exec(sql) {
      await ask({ op: 'exec', sql, ...(tx === undefined ? {} : { tx }) });
    },
  });

  try {
    await ask({ op: 'open', ...(options.dataDir === undefined ? {} : { dataDir: join(resolve(options.dataDir), CLUSTER_DIR) }) });
  } catch (error) {
    await worker.terminate();
    await lock?.release();
    throw error;
  }

  let closed = false;
  return {
    ...queryable(),
    async transaction(fn) {
      const { tx } = await ask({ op: 'begin' });
      let result;
      try {
        result = await fn(queryable(tx));
      } catch (error) {
        // The caller hears why its transaction failed, even should the rollback fail too (the thread gone).
        await ask({ op: 'end', tx: tx!, commit: false }).catch(() => undefined);
        throw error;
      }
      await ask({ op: 'end', tx: tx!, commit: true });
      return result;
    },
    async dump() {
      return (await ask({ op: 'dump' })).archive!;
    },
    async close() {
      if (closed) return;
      closed = true;
      try {
        if (!failure) await ask({ op: 'close' });
      } finally {
        await worker.terminate();
        await lock?.release();
      }
    },
  };
}
