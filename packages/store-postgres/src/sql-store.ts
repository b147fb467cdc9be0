import { AsyncLocalStorage } from 'node:async_hooks';
import type { Store, StoreOps } from '@svc/core';
import type { SearchOptions } from './ops/search.js';
import type { Queryable, SqlDriver } from './sql-driver.js';
import { createSqlOps } from './sql-ops.js';

/** The open transaction of the current async call chain. */
interface TransactionFrame {
  tx: Queryable;
  ops: StoreOps;
  open: boolean;
  savepoints: number;
}

/**
 * A {@link Store} over a SQL driver.
 *
 * Transactions are tracked with AsyncLocalStorage, so anything called while `fn` runs (store methods as well as
 * `tx`, and nested `transaction` calls) uses the transaction's connection. Without that, a store call inside `fn`
 * would run outside the transaction and, on PGlite, wait forever for it to finish. A nested call becomes a
 * savepoint: if it throws, only its writes are undone, and the error propagates.
 */
export function createSqlStore(driver: SqlDriver, search: SearchOptions): Store {
  const context = new AsyncLocalStorage<TransactionFrame>();
  const openFrame = (): TransactionFrame | undefined => {
    const frame = context.getStore();
    return frame?.open ? frame : undefined;
  };
  const ops = createSqlOps(() => openFrame()?.tx ?? driver, search);

  async function transaction<T>(fn: (tx: StoreOps) => Promise<T>): Promise<T> {
    const outer = openFrame();
    if (outer) return savepoint(outer, fn);
    return driver.transaction(async (tx) => {
      const frame: TransactionFrame = { tx, open: true, savepoints: 0, ops };
      frame.ops = createSqlOps(() => {
        // A handle kept past the end of its transaction must not silently write outside of one.
        if (!frame.open) throw new Error('This transaction has finished; use the store instead');
        return tx;
      }, search);
      try {
        return await context.run(frame, () => fn(frame.ops));
      } finally {
        frame.open = false;
      }
    });
  }

  return {
    ...ops,
    transaction,
    withLock: (name, fn) => driver.withLock(name, fn),
    close: () => driver.close(),
  };
}

async function savepoint<T>(frame: TransactionFrame, fn: (tx: StoreOps) => Promise<T>): Promise<T> {
  frame.savepoints++;
  const name = `svc_nested_${frame.savepoints}`;
  await frame.tx.query(`savepoint ${name}`);
  let result: T;
  try {
    result = await fn(frame.ops);
  } catch (error) {
    await frame.tx.query(`rollback to savepoint ${name}`);
    throw error;
  }
  await frame.tx.query(`release savepoint ${name}`);
  return result;
}
