import type { Queryable, SqlDriver } from './sql-driver.js';

/** Told about every statement a store sends, `begin` and `commit` included: one call per database round trip. */
export type QueryObserver = (sql: string) => void;

/**
 * Wraps a driver so each round trip is reported (benchmarks count round trips per turn with it). Transactions count
 * their `begin` and `commit` too, as both drivers send them as statements of their own.
 */
export function observeQueries(driver: SqlDriver, observe: QueryObserver): SqlDriver {
  const wrap = (db: Queryable): Queryable => ({
    query(sql, params) {
      observe(sql);
      return db.query(sql, params);
    },
    exec(sql) {
      observe(sql);
      return db.exec(sql);
    },
  });
  return {
    ...wrap(driver),
    transaction(fn) {
      observe('begin');
      return driver.transaction((tx) => fn(wrap(tx))).finally(() => observe('commit'));
    },
    ...(driver.notifications ? { notifications: driver.notifications } : {}),
    close: () => driver.close(),
  };
}
