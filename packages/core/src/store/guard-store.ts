/**
 * Storage behind the HTTP guards (DESIGN.md section 4): rate-limit counters shared by every instance, and the
 * origin lookup that answers CORS preflights without loading every key.
 */
export interface GuardOps {
  /**
   * Adds one to the counter of `key` (a client address) for the window starting at `windowStart` and returns the
   * new count. Atomic: concurrent increments from any number of instances are all counted.
   */
  incrementRateCounter(key: string, windowStart: Date): Promise<number>;
  /** Deletes the counters of windows that started before `before`; returns how many. */
  deleteRateCountersBefore(before: Date): Promise<number>;
  /**
   * Whether an unrevoked public key allows `origin`; with `widgetId`, one of that widget's public keys. Served by
   * an index (SQL stores), so a preflight costs one lookup whatever the number of keys.
   */
  publicKeyAllowsOrigin(origin: string, widgetId?: string): Promise<boolean>;
}
