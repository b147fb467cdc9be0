import { describe, expect, it } from 'vitest';
import type { StoreSignal } from '../store/turn-job-store.js';
import { followEventLog, type StreamedEvent } from './event-log.js';

/** A log in memory with the store's signal subscription: `append` adds an event and (unless `quiet`) signals it. */
function memoryLog() {
  const events: StreamedEvent[] = [];
  const listeners = new Set<(signal: StoreSignal) => void>();
  let failNextRead = false;
  const log = {
    reads: 0,
    store: {
      subscribeSignals(listener: (signal: StoreSignal) => void) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
    async read(after: string | null, limit: number) {
      log.reads++;
      if (failNextRead) {
        failNextRead = false;
        throw new Error('connection reset');
      }
      const start = after === null ? 0 : events.findIndex((event) => event.id === after) + 1;
      const page = events.slice(start, start + limit);
      return { events: page, next: page.at(-1)?.id ?? after };
    },
    append(count: number, options: { quiet?: boolean } = {}) {
      for (let i = 0; i < count; i++) events.push({ id: `evt_${String(events.length).padStart(4, '0')}`, event: 'message.created', data: { n: events.length } });
      const signal: StoreSignal = { type: 'session-event', accountId: 'acct_1', widgetId: 'wgt_1', sessionId: 'sess_1' };
      if (!options.quiet) for (const listener of listeners) listener(signal);
    },
    failNextRead() {
      failNextRead = true;
    },
    get listeners() {
      return listeners.size;
    },
  };
  return log;
}

const wakesOn = (signal: StoreSignal) => signal.type === 'session-event' && signal.sessionId === 'sess_1';

/** Collects what the iterator yields in the background. */
function collect(iterator: AsyncIterable<StreamedEvent>) {
  const seen: string[] = [];
  const done = (async () => {
    for await (const event of iterator) seen.push(event.id);
  })();
  return { seen, done };
}

describe('followEventLog', () => {
  it('catches up after a position a page at a time, then yields what a signal announces, in order and once each', async () => {
    const log = memoryLog();
    log.append(250, { quiet: true });
    const stop = new AbortController();
    const { seen, done } = collect(followEventLog({ ...log, after: 'evt_0009', wakesOn, signal: stop.signal, pollMs: 60_000 }));
    await expect.poll(() => seen.length).toBe(240);
    expect(seen[0]).toBe('evt_0010');
    log.append(3);
    await expect.poll(() => seen.length).toBe(243);
    expect(new Set(seen).size).toBe(243);
    expect(seen.at(-1)).toBe('evt_0252');
    stop.abort();
    await done;
  });

  it('reads again on the fallback poll when a notification was lost', async () => {
    const log = memoryLog();
    const stop = new AbortController();
    const { seen, done } = collect(followEventLog({ ...log, after: null, wakesOn, signal: stop.signal, pollMs: 20 }));
    log.append(2, { quiet: true });
    await expect.poll(() => seen.length).toBe(2);
    stop.abort();
    await done;
  });

  it('ignores signals for other sessions: no read happens for them', async () => {
    const log = memoryLog();
    const stop = new AbortController();
    const { done } = collect(followEventLog({ ...log, after: null, wakesOn: () => false, signal: stop.signal, pollMs: 60_000 }));
    await expect.poll(() => log.reads).toBe(1);
    log.append(5);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(log.reads).toBe(1);
    stop.abort();
    await done;
  });

  it('ends without an error when aborted while waiting, and lets go of its subscription', async () => {
    const log = memoryLog();
    const stop = new AbortController();
    const { done } = collect(followEventLog({ ...log, after: null, wakesOn, signal: stop.signal, pollMs: 60_000 }));
    await expect.poll(() => log.listeners).toBe(1);
    stop.abort();
    await expect(done).resolves.toBeUndefined();
    expect(log.listeners).toBe(0);
  });

  it('a failed read is logged and tried again at the next wake-up: the stream goes on with nothing lost', async () => {
    const log = memoryLog();
    const errors: string[] = [];
    const stop = new AbortController();
    log.failNextRead();
    const { seen, done } = collect(
      followEventLog({ ...log, after: null, wakesOn, signal: stop.signal, pollMs: 60_000, logger: { error: (message) => errors.push(message) } }),
    );
    await expect.poll(() => errors).toEqual(['event stream read failed']);
    log.append(2);
    await expect.poll(() => seen).toEqual(['evt_0000', 'evt_0001']);
    stop.abort();
    await done;
  });
});
