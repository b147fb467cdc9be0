import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import { SvcError, type Core, type OpenedFeed, type Principal } from '@svc/core';
import type { Logger } from 'pino';
import type { AppEnv } from './auth.js';

/**
 * `GET …/conversations/{sessionId}/events` (DESIGN.md section 6): the session's event log as
 * server-sent events. Each event carries its log id (`id:`), so a client that reconnects with `Last-Event-ID` gets
 * exactly the events after it. New events are read when the store says the session's log grew (in-process, or
 * `NOTIFY` from another process) and, should a notification be lost, by a poll.
 *
 * Connections are capped per process: {@link EventStreamLimits}. An anonymous visitor cannot hold more than
 * `perSession` streams of a session, one client address more than `perAddress` of a widget key's, and all the
 * visitors of a widget key share `perKey`; so a few addresses cannot take every stream of a site.
 */
export interface EventStreamLimits {
  /** Concurrent streams of one session. Default 3 (a few tabs of one visitor). */
  perSession: number;
  /** Concurrent streams opened with one API key. Default 1,000. */
  perKey: number;
  /**
   * Concurrent streams of one public key from one client address (an IPv6 /64 counts as one). Default 20: an office
   * behind one NAT keeps several visitors' panels live; a dozen addresses hold at most 240 of a key's 1,000.
   * Server keys (a backend holding many conversations from one address) are exempt.
   */
  perAddress: number;
}

export const DEFAULT_EVENT_STREAM_LIMITS: EventStreamLimits = { perSession: 3, perKey: 1000, perAddress: 20 };

/** Who opens a stream: its key, the session it follows, and for public keys the client address. */
export interface StreamHolder {
  keyId: string;
  session: string;
  /** Null for server keys, which the per-address share does not apply to. */
  address: string | null;
}

export interface EventStreamOptions {
  logger: Logger;
  /** Comment line `: ping` every this many ms. Default 15,000, as on every stream (DESIGN.md section 4). */
  keepAliveMs?: number | undefined;
  /** Shared by every stream of the app. */
  slots: EventStreamSlots;
}

/** Counts open streams per session and per key, refusing one past either cap. */
export interface EventStreamSlots {
  /** A release function, or throws 429 `rate_limited`. */
  acquire(holder: StreamHolder): () => void;
}

export function createEventStreamSlots(options: Partial<EventStreamLimits> = {}): EventStreamSlots {
  const limits = { ...DEFAULT_EVENT_STREAM_LIMITS, ...options };
  const bySession = new Map<string, number>();
  const byKey = new Map<string, number>();
  const byAddress = new Map<string, number>();
  const add = (map: Map<string, number>, name: string, delta: number): void => {
    const next = (map.get(name) ?? 0) + delta;
    if (next <= 0) map.delete(name);
    else map.set(name, next);
  };
  return {
    acquire({ keyId, session, address }) {
      const addressSlot = address === null ? null : `${keyId}\u0000${address}`;
      if ((bySession.get(session) ?? 0) >= limits.perSession) {
        throw new SvcError('rate_limited', `At most ${limits.perSession} event streams of one session may be open at once; close one first.`);
      }
      if (addressSlot !== null && (byAddress.get(addressSlot) ?? 0) >= limits.perAddress) {
        throw new SvcError('rate_limited', `At most ${limits.perAddress} event streams of this widget may be open at once from one address; close one first.`);
      }
      if ((byKey.get(keyId) ?? 0) >= limits.perKey) {
        throw new SvcError('rate_limited', `At most ${limits.perKey} event streams may be open at once with one API key.`);
      }
      add(bySession, session, 1);
      add(byKey, keyId, 1);
      if (addressSlot !== null) add(byAddress, addressSlot, 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        add(bySession, session, -1);
        add(byKey, keyId, -1);
        if (addressSlot !== null) add(byAddress, addressSlot, -1);
      };
    },
  };
}

export async function sessionEventStream(
  c: Context<AppEnv>,
  call: { core: Core; principal: Principal; widgetId: string; sessionId: string },
  options: EventStreamOptions,
): Promise<Response> {
  const target = { widgetId: call.widgetId, sessionId: call.sessionId };
  return streamEventLog(c, {
    open: (signal) => call.core.events.session(call.principal, target, { lastEventId: c.req.header('last-event-id'), signal }),
    acquire: (opened) =>
      options.slots.acquire({
        keyId: call.principal.keyId,
        session: `${opened.widgetId ?? ''}\u0000${opened.sessionId ?? ''}`,
        address: call.principal.kind === 'public' ? c.var.server.clientAddress() : null,
      }),
    options,
  });
}

/** A feed of the core to stream: how to open it (access checked, refusals thrown), and the connection slot it takes. */
export interface EventFeedStream<F extends OpenedFeed> {
  open(signal: AbortSignal): Promise<F>;
  /** Takes the stream's slot once the feed is open (429 past a cap); returns the function that gives it back. */
  acquire(opened: F): () => void;
  options: EventStreamOptions;
}

/**
 * Streams a feed of the core as server-sent events (a session's, or an account's for the console): each event with
 * its log id, so a client reconnecting with `Last-Event-ID` misses nothing and sees nothing twice. Refusals (access,
 * a bad `Last-Event-ID`, a full slot) answer as JSON errors before the stream starts; the core follows the log.
 */
export async function streamEventLog<F extends OpenedFeed & { widgetId?: string; sessionId?: string }>(c: Context<AppEnv>, feed: EventFeedStream<F>): Promise<Response> {
  const stop = new AbortController();
  const opened = await feed.open(stop.signal);
  const release = feed.acquire(opened);
  // A process shutting down ends its streams at once (its clients reconnect elsewhere) rather than waiting for them.
  const forget = c.var.server.operations.onDraining(() => stop.abort());
  c.header('X-Accel-Buffering', 'no');
  c.header('Cache-Control', 'no-store');
  return streamSSE(c, async (stream) => {
    const write = (frame: string): void => {
      void stream.write(frame);
    };
    const keepAlive = setInterval(() => write(': ping\n\n'), feed.options.keepAliveMs ?? 15_000);
    stream.onAbort(() => stop.abort());
    try {
      // Opens the response at once (headers and a first line), then catches up from `Last-Event-ID`.
      write(': connected\n\n');
      for await (const event of opened.events) write(`id: ${event.id}\nevent: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`);
    } finally {
      stop.abort();
      clearInterval(keepAlive);
      forget();
      release();
    }
  });
}
