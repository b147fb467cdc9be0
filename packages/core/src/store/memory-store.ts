import { createAsyncContext } from './async-context.js';
import { createKeyedMutex } from './keyed-mutex.js';
import { createMemoryOps } from './memory-ops.js';
import { createMemoryState } from './memory-state.js';
import type { Store, StoreOps } from './store.js';
import type { StoreSignal } from './turn-job-store.js';
import { createSignalBus } from './store-signals.js';

/** The transaction a call runs in, found through async context so nested calls can join it. */
interface TransactionFrame {
  ops: StoreOps;
  open: boolean;
  /** Turn events published inside the transaction, told to subscribers once it commits. */
  events: StoreSignal[];
}

/** Every operation and transaction queues on this one key: the memory store is serialisable by construction. */
const WHOLE_STORE = 'store';

/**
 * The reference implementation of the {@link Store} port: no I/O, everything in maps. Used by tests and by anyone
 * embedding the engine without a database.
 *
 * - Operations and transactions run one at a time (a FIFO mutex), so a transaction never sees, nor is seen by,
 *   half of another one.
 * - A transaction records an undo entry for every write and replays them when `fn` throws.
 * - A `transaction` (or plain store call) made inside `fn` joins it instead of waiting for it. That needs
 *   `AsyncLocalStorage`; in a runtime without it (browsers) calls inside `fn` must go through `tx`.
 * - `lockSession` is a plain read: transactions already run one at a time. Turn events reach this process only,
 *   which is all a memory store spans.
 *
 * @example
 * const store = createMemoryStore();
 * await store.transaction(async (tx) => {
 *   await tx.insertMessage(reply);
 *   await tx.debitAccount(accountId, credits);
 * });
 */
export function createMemoryStore(): Store {
  const state = createMemoryState();
  const exclusive = createKeyedMutex();
  const bus = createSignalBus();
  const context = createAsyncContext<TransactionFrame>();
  // Inside a transaction an event waits for the commit (and is dropped by a rollback).
  const ops = createMemoryOps(state, (event) => {
    const frame = openFrame();
    if (frame) frame.events.push({ ...event });
    else bus.publish({ ...event });
  });
  let closed = false;

  const openFrame = (): TransactionFrame | undefined => {
    const frame = context?.getStore();
    return frame?.open ? frame : undefined;
  };

  const shared = guardOps(ops, (run) => {
    if (closed) return Promise.reject(new Error('The memory store is closed'));
    return openFrame() ? run() : exclusive.run(WHOLE_STORE, run);
  });


  async function transaction<T>(fn: (tx: StoreOps) => Promise<T>): Promise<T> {
    const outer = openFrame();
    if (outer) {
      // Joined: the writes commit with the outer transaction; a failure here undoes only this call's writes
      // (like a savepoint) and propagates.
      const mark = state.journal.mark();
      try {
        return await fn(outer.ops);
      } catch (error) {
        state.journal.rollbackTo(mark);
        throw error;
      }
    }
    if (closed) throw new Error('The memory store is closed');
    return exclusive.run(WHOLE_STORE, async () => {
      const frame: TransactionFrame = { open: true, ops, events: [] };
      // A `tx` kept past the end of its transaction must not write outside of one.
      frame.ops = guardOps(ops, (run) =>
        frame.open ? run() : Promise.reject(new Error('This transaction has finished; use the store instead')),
      );
      state.journal.begin();
      try {
        const result = await (context ? context.run(frame, () => fn(frame.ops)) : fn(frame.ops));
        for (const event of frame.events) bus.publish(event);
        return result;
      } catch (error) {
        state.journal.rollbackTo(0);
        throw error;
      } finally {
        frame.open = false;
        state.journal.end();
      }
    });
  }

  return {
    ...shared,
    transaction,
    subscribeSignals: (listener) => bus.subscribe(listener),
    async close() {
      closed = true;
    },
  };
}

type Runner = <T>(run: () => Promise<T>) => Promise<T>;

/** Wraps every operation so it runs through `runner` (to queue it, or to refuse it). */
function guardOps(ops: StoreOps, runner: Runner): StoreOps {
  const guarded: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(ops) as Array<[string, (...args: unknown[]) => Promise<unknown>]>) {
    guarded[name] = (...args: unknown[]) => runner(() => method(...args));
  }
  // Same keys and signatures as `ops`: each entry forwards its arguments and result unchanged.
  return guarded as unknown as StoreOps;
}
