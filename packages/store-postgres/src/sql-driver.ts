/**
 * The only thing the SQL operations need from a database: run a statement, get rows. PGlite and node-postgres each
 * implement it in a few lines, so every statement is written once, in one dialect.
 */
export interface Queryable {
  /** One statement with `$1…` parameters; returns the rows (those of `returning` for writes). */
  query<R extends object = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<R[]>;
  /** Several `;`-separated statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

/** A connection to one database, as the SQL store drives it. */
export interface SqlDriver extends Queryable {
  /** Runs `fn` inside BEGIN … COMMIT on one connection, rolling back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Exclusive named lock, granted in arrival order, across everything that shares the database. */
  withLock<T>(name: string, fn: () => Promise<T>): Promise<T>;
  /** Connection pool use, for metrics; absent where there is no pool (PGlite). */
  poolStats?(): { total: number; idle: number; waiting: number };
  /** A consistent copy of the whole database as a gzipped tarball; only the embedded database (PGlite) has one. */
  dump?(): Promise<Uint8Array>;
  close(): Promise<void>;
}
