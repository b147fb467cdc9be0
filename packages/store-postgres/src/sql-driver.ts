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

/** `LISTEN`/`NOTIFY` on one channel, for drivers that other processes can share the database with. */
export interface SqlNotifications {
  /** The channel this store's notifications travel on (one per schema). */
  channel: string;
  /** Calls `onPayload` for each notification on the channel until the returned function is called. */
  listen(onPayload: (payload: string) => void): () => void;
}

/** A connection to one database, as the SQL store drives it. */
export interface SqlDriver extends Queryable {
  /** Runs `fn` inside BEGIN … COMMIT on one connection, rolling back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Present when other processes may share the database (PostgreSQL); PGlite is one process by construction. */
  notifications?: SqlNotifications;
  close(): Promise<void>;
}
