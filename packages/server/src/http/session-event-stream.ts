import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import { SvcError, type Engine, type Principal, type Store, type StreamedSessionEvent, type StoreSignal } from '@svc/core';
import type { Logger } from 'pino';
import type { AppEnv } from './auth.js';

/**
 * `GET …/conversations/{sessionId}/events` (DESIGN.md section 6): the session's event log as
 * server-sent events. Each event carries its log id (`id:`), so a client that reconnects with `Last-Event-ID` gets
 * exactly the events after it. New events are read when the store says the session's log grew (in-process, or
 * `NOTIFY` from another process) and, should a notification be lost, by a poll.
 *
 * Connections are capped per process: {@link EventStreamLimits}. An anonymous visitor cannot hold more than
 * `perSession` streams of a session, and all the visitors of a widget key share `perKey`.
 */
export interface EventStreamLimits {
  /** Concurrent streams of one session. Default 3 (a few tabs of one visitor). */
  perSession: number;
  /** Concurrent streams opened with one API key. Default 1,000. */
  perKey: number;
}

export const DEFAULT_EVENT_STREAM_LIMITS: EventStreamLimits = { perSession: 3, perKey: 1000 };

export interface EventStreamOptions {
  logger: Logger;
  /** Comment line `: ping` every this many ms. Default 15,000, as on every stream (DESIGN.md section 4). */
  keepAliveMs?: number | undefined;
  /** Fallback poll of the log. Default 5,000 ms. */
  pollMs?: number | undefined;
  /** Shared by every stream of the app. */
  slots: EventStreamSlots;
}

/** Counts open streams per session and per key, refusing one past either cap. */
export interface EventStreamSlots {
  /** A release function, or throws 429 `rate_limited`. */
  acquire(keyId: string, session: string): () => void;
}

export function createEventStreamSlots(limits: EventStreamLimits = DEFAULT_EVENT_STREAM_LIMITS): EventStreamSlots {
  const bySession = new Map<string, number>();
  const byKey = new Map<string, number>();
  const add = (map: Map<string, number>, name: string, delta: number): void => {
    const next = (map.get(name) ?? 0) + delta;
    if (next <= 0) map.delete(name);
    else map.set(name, next);
  };
  return {
    acquire(keyId, session) {
      if ((bySession.get(session) ?? 0) >= limits.perSession) {
        throw new SvcError('rate_limited', `At most ${limits.perSession} event streams of one session may be open at once; close one first.`);
      }
      if ((byKey.get(keyId) ?? 0) >= limits.perKey) {
        throw new SvcError('rate_limited', `At most ${limits.perKey} event streams may be open at once with one API key.`);
      }
      add(bySession, session, 1);
      add(byKey, keyId, 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        add(bySession, session, -1);
        add(byKey, keyId, -1);
      };
    },
  };
}

/** Events read per query while catching up. */
const PAGE = 100;

export async function sessionEventStream(
  c: Context<AppEnv>,
  call: { engine: Engine; store: Store; principal: Principal; widgetId: string; sessionId: string },
  options: EventStreamOptions,
): Promise<Response> {
  const feed = await call.engine.openSessionEvents(call.principal, call.widgetId, call.sessionId, c.req.header('last-event-id'));
  const release = options.slots.acquire(call.principal.keyId, `${feed.widgetId}\u0000${feed.sessionId}`);
  return streamEventLog(
    c,
    {
      store: call.store,
      after: feed.after,
      read: feed.read,
      wakesOn: (event) => event.type === 'session-event' && event.widgetId === feed.widgetId && event.sessionId === feed.sessionId,
      release,
    },
    options,
  );
}

/** An event log to stream: where to start, how to read on from a position, which store notifications mean "read again". */
export interface EventLogSource {
  store: Store;
  after: string | null;
  read(after: string | null, limit: number): Promise<{ events: StreamedSessionEvent[]; next: string | null }>;
  wakesOn(event: StoreSignal): boolean;
  /** Gives the stream's slot back when it ends. */
  release(): void;
}

/**
 * Streams an event log as server-sent events (a session's, or an account's for the console): each event with its
 * log id, read when the store says the log grew and by a fallback poll, one reader at a time.
 */
export function streamEventLog(c: Context<AppEnv>, source: EventLogSource, options: EventStreamOptions): Response {
  c.header('X-Accel-Buffering', 'no');
  c.header('Cache-Control', 'no-store');
  return streamSSE(c, async (stream) => {
    const write = (frame: string): void => {
      void stream.write(frame);
    };
    let position = source.after;
    let closed = false;
    let reading: Promise<void> | null = null;
    let again = false;

    // One reader at a time; a wake-up during a read makes it read once more, so nothing committed meanwhile waits.
    const pump = (): Promise<void> => {
      if (reading) {
        again = true;
        return reading;
      }
      reading = (async () => {
        try {
          do {
            again = false;
            for (;;) {
              if (closed) return;
              const { events, next } = await source.read(position, PAGE);
              for (const event of events) write(`id: ${event.id}\nevent: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`);
              if (next === position) break;
              position = next;
            }
          } while (again);
        } catch (error) {
          options.logger.error({ requestId: c.get('requestId'), err: error }, 'event stream read failed');
        } finally {
          reading = null;
        }
      })();
      return reading;
    };

    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const unsubscribe = source.store.subscribeSignals((event) => {
      if (source.wakesOn(event)) void pump();
    });
    const poll = setInterval(() => void pump(), options.pollMs ?? 5_000);
    const keepAlive = setInterval(() => write(': ping\n\n'), options.keepAliveMs ?? 15_000);
    stream.onAbort(() => {
      closed = true;
      finish();
    });
    try {
      // Opens the response at once (headers and a first line), then catches up from `Last-Event-ID`.
      write(': connected\n\n');
      await pump();
      await finished;
    } finally {
      closed = true;
      unsubscribe();
      clearInterval(poll);
      clearInterval(keepAlive);
      source.release();
    }
  });
}
