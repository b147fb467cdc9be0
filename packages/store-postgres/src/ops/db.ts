import type { Queryable } from '../sql-driver.js';

/**
 * How an operation finds its connection: the open transaction's when called inside one, the pool (or PGlite)
 * otherwise. Resolved on every statement, so one set of operations serves both.
 */
export type Db = () => Queryable;
