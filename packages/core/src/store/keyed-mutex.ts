/**
 * An in-process mutex per key. Waiters are served in arrival order (FIFO), so a session's turns run in the order
 * they were received. Used by the memory store (for `withLock` and to serialise transactions) and by the embedded
 * PGlite store, which is single-process by construction.
 *
 * @example
 * const locks = createKeyedMutex();
 * await locks.run('session:wgt_1/sess_1', async () => runTurn());
 */
export interface KeyedMutex {
  /** Runs `fn` once every earlier caller for `key` has finished; the lock is released even when `fn` throws. */
  run<T>(key: string, fn: () => Promise<T>): Promise<T>;
  /** Keys currently held. Entries are removed on release, so a long-lived mutex does not grow. */
  readonly size: number;
}

export function createKeyedMutex(): KeyedMutex {
  // A key is present while held; its array holds the wake-up functions of the waiters, oldest first.
  const held = new Map<string, Array<() => void>>();

  function acquire(key: string): Promise<void> {
    const waiters = held.get(key);
    if (waiters === undefined) {
      held.set(key, []);
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => waiters.push(resolve));
  }

  function release(key: string): void {
    const next = held.get(key)?.shift();
    // Ownership passes straight to the next waiter, so no later arrival can overtake it.
    if (next) next();
    else held.delete(key);
  }

  return {
    async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
      await acquire(key);
      try {
        return await fn();
      } finally {
        release(key);
      }
    },
    get size() {
      return held.size;
    },
  };
}
