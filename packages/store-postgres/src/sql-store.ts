import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { Store, StoreOps, StoreSignal } from '@svc/core/store-kit';
import { createSignalBus } from '@svc/core/store-kit';
import type { SearchOptions } from './ops/search.js';
import type { Queryable, SqlDriver } from './sql-driver.js';
import { createSqlOps } from './sql-ops.js';
import type { CommitEvents } from './ops/turn-commit.js';
import { createLookupCache, DEFAULT_LOOKUP_CACHE_MS } from './lookup-cache.js';

/** The open transaction of the current async call chain. */
interface TransactionFrame {
  tx: Queryable;
  ops: StoreOps;
  open: boolean;
  savepoints: number;
  /** Turn events published inside the transaction: told to this process's subscribers once it commits. */
  events: StoreSignal[];
}

/** What travels in a NOTIFY: the event and the store instance that sent it (which has told its own subscribers). */
type NotifiedStoreSignal = StoreSignal & { origin: string };

/**
 * A {@link Store} over a SQL driver.
 *
 * Transactions are tracked with AsyncLocalStorage, so anything called while `fn` runs (store methods as well as
 * `tx`, and nested `transaction` calls) uses the transaction's connection. Without that, a store call inside `fn`
 * would run outside the transaction and, on PGlite, wait forever for it to finish; on PostgreSQL it would take a
 * second pooled connection while holding one, which is how pools deadlock. A nested call becomes a savepoint: if it
 * throws, only its writes are undone, and the error propagates.
 *
 * Turn events go to this process's subscribers after the commit, and to other processes through `NOTIFY` sent in
 * the same transaction (so they too hear of it only once it commits).
 */
export function createSqlStore(driver: SqlDriver, search: SearchOptions, options: { lookupCacheMs?: number | undefined } = {}): Store {
  const cache = createLookupCache(options.lookupCacheMs ?? DEFAULT_LOOKUP_CACHE_MS);
  const context = new AsyncLocalStorage<TransactionFrame>();
  const bus = createSignalBus();
  const origin = randomUUID();
  const openFrame = (): TransactionFrame | undefined => {
    const frame = context.getStore();
    return frame?.open ? frame : undefined;
  };

  const commitEvents: CommitEvents = {
    notification(event) {
      if (!driver.notifications) return null;
      const payload: NotifiedStoreSignal = { ...event, origin };
      return { channel: driver.notifications.channel, payload: JSON.stringify(payload) };
    },
    published(event) {
      const frame = openFrame();
      if (frame) frame.events.push({ ...event });
      else bus.publish({ ...event });
    },
  };

  async function publish(db: Queryable, event: StoreSignal): Promise<void> {
    const notification = commitEvents.notification(event);
    if (notification) await db.query('select pg_notify($1, $2)', [notification.channel, notification.payload]);
    commitEvents.published(event);
  }

  const sqlOps = createSqlOps(() => openFrame()?.tx ?? driver, search, (event) => publish(openFrame()?.tx ?? driver, event), commitEvents);
  // Inside a transaction lookups read the database (they may follow its own writes); outside, recent ones are reused.
  const lookups = cache.lookups(sqlOps);
  const ops: StoreOps = {
    ...sqlOps,
    ...cache.writes(sqlOps),
    findApiKeyByHash: (hash) => (openFrame() ? sqlOps.findApiKeyByHash(hash) : lookups.findApiKeyByHash(hash)),
    getWidget: (id) => (openFrame() ? sqlOps.getWidget(id) : lookups.getWidget(id)),
  };

  async function transaction<T>(fn: (tx: StoreOps) => Promise<T>): Promise<T> {
    const outer = openFrame();
    if (outer) return savepoint(outer, fn);
    let events: StoreSignal[] = [];
    const result = await driver.transaction(async (tx) => {
      const frame: TransactionFrame = { tx, open: true, savepoints: 0, ops, events: [] };
      const inside = (): Queryable => {
        // A handle kept past the end of its transaction must not silently write outside of one.
        if (!frame.open) throw new Error('This transaction has finished; use the store instead');
        return tx;
      };
      const txOps = createSqlOps(inside, search, (event) => publish(inside(), event), commitEvents);
      frame.ops = { ...txOps, ...cache.writes(txOps) };
      try {
        const value = await context.run(frame, () => fn(frame.ops));
        events = frame.events;
        return value;
      } finally {
        frame.open = false;
      }
    });
    for (const event of events) bus.publish(event);
    return result;
  }

  let stopListening: (() => void) | undefined;
  return {
    ...ops,
    transaction,
    subscribeSignals(listener) {
      if (driver.notifications && !stopListening) {
        stopListening = driver.notifications.listen((payload) => {
          const event = parseNotifiedEvent(payload);
          if (event && event.origin !== origin) {
            const { origin: _sender, ...relayed } = event;
            bus.publish(relayed);
          }
        });
      }
      return bus.subscribe(listener);
    },
    async close() {
      stopListening?.();
      await driver.close();
    },
  };
}

function parseNotifiedEvent(payload: string): NotifiedStoreSignal | null {
  try {
    const value = JSON.parse(payload) as Record<string, unknown>;
    const strings = (...names: string[]): boolean => names.every((name) => typeof value[name] === 'string');
    if (value['type'] === 'queued' || value['type'] === 'finished' || value['type'] === 'delta') {
      if (!strings('origin', 'jobId', 'widgetId', 'sessionId')) return null;
      const { type, origin, jobId, widgetId, sessionId } = value as unknown as Extract<NotifiedStoreSignal, { jobId: string }>;
      if (type !== 'delta') return { type, origin, jobId, widgetId, sessionId };
      const delta = value['delta'] as { text?: unknown; at?: unknown } | undefined;
      if (typeof delta?.text !== 'string' || typeof delta.at !== 'number' || !Number.isSafeInteger(delta.at)) return null;
      return { type, origin, jobId, widgetId, sessionId, delta: { text: delta.text, at: delta.at } };
    }
    if (value['type'] === 'session-event' && strings('origin', 'accountId', 'widgetId', 'sessionId')) {
      const { origin, accountId, widgetId, sessionId } = value as Extract<NotifiedStoreSignal, { accountId: string }>;
      return { type: 'session-event', origin, accountId, widgetId, sessionId };
    }
    return null;
  } catch {
    // Another program's payload on our channel: not ours to act on.
    return null;
  }
}

async function savepoint<T>(frame: TransactionFrame, fn: (tx: StoreOps) => Promise<T>): Promise<T> {
  frame.savepoints++;
  const name = `svc_nested_${frame.savepoints}`;
  await frame.tx.query(`savepoint ${name}`);
  const events = frame.events.length;
  let result: T;
  try {
    result = await fn(frame.ops);
  } catch (error) {
    await frame.tx.query(`rollback to savepoint ${name}`);
    frame.events.length = events;
    throw error;
  }
  await frame.tx.query(`release savepoint ${name}`);
  return result;
}
