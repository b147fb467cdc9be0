import { MESSAGE_CREATED, readEventStream, SESSION_UPDATED, type SESSION_EVENT } from '@svc/core/event-stream';
import type { SessionStreamEvent as WireSessionStreamEvent } from '@svc/core/schemas';
import { SvcApiError } from './errors.js';
import { sessionPath } from './paths.js';
import { readResponse } from './response.js';
import { watchActivity } from './stream.js';
import { sleep } from './transport.js';

/**
 * The session event stream (`GET …/conversations/{sessionId}/events`, DESIGN.md section 6) as an async iterator
 * that survives dropped connections: it reconnects on its own with `Last-Event-ID`, so the events it yields have no
 * gap and no repeat, however often the connection breaks.
 */

/**
 * A session event as the iterator yields it: its name as `type`, its SSE `id` and its data. The shapes are the
 * stream protocol's, defined once in @svc/core/schemas (types only: no schema reaches the bundle).
 */
export type SessionStreamEvent = WireSessionStreamEvent;

/** A reply written by a person during a handoff (`data.author.type === 'operator'`); `data` is a `HistoryItem`. */
export type MessageCreatedEvent = Extract<SessionStreamEvent, { type: typeof SESSION_EVENT.messageCreated }>;

/** The session changed (status, handoff or rating): `data` is what `sessions.get` answers now (a `Session`). */
export type SessionUpdatedEvent = Extract<SessionStreamEvent, { type: typeof SESSION_EVENT.sessionUpdated }>;

export interface SessionEventsOptions {
  /** Start after this event id (one this stream yielded earlier); default: from now on, no backlog. */
  lastEventId?: string;
  /** Stops the stream: the iterator ends (`for await` leaves the loop) without an error. */
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /** Pause before reconnecting after a drop, doubling up to 30 s while it keeps failing. Default 1,000 ms. */
  reconnectDelayMs?: number;
  /** A connection silent for this long is treated as dropped (the server pings every 15 s). Default 45,000 ms. */
  idleTimeoutMs?: number;
  /** Called each time a connection is open and events flow (at first, and after every reconnection). */
  onOpen?: () => void;
}

export interface SessionEventStream extends AsyncIterable<SessionStreamEvent> {
  /** The id of the last event yielded: pass it as `lastEventId` to continue in another process later. */
  readonly lastEventId: string | undefined;
}

export interface SessionEventsSettings {
  baseUrl: string;
  apiKey: string;
  fetch: typeof globalThis.fetch | undefined;
  headers: Record<string, string>;
}

const TYPES = new Set<string>([MESSAGE_CREATED, SESSION_UPDATED]);
const MAX_DELAY_MS = 30_000;

/** Refusals that reconnecting cannot cure (a wrong key, an unknown session): thrown to the caller. */
const isFinal = (error: unknown): boolean => error instanceof SvcApiError && error.status >= 400 && error.status < 500 && error.status !== 429 && error.status !== 408;

export function openSessionEvents(settings: SessionEventsSettings, widgetId: string, sessionId: string, options: SessionEventsOptions = {}): SessionEventStream {
  const path = `${sessionPath(widgetId, sessionId)}/events`;
  const url = `${settings.baseUrl.replace(/\/+$/, '')}${path}`;
  const fetchImpl = settings.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  const baseDelay = options.reconnectDelayMs ?? 1_000;
  const idleMs = options.idleTimeoutMs ?? 45_000;
  const { signal } = options;
  let lastEventId = options.lastEventId;

  async function* events(): AsyncGenerator<SessionStreamEvent, void, undefined> {
    let delay = baseDelay;
    for (;;) {
      const controller = new AbortController();
      const stop = (): void => controller.abort();
      signal?.addEventListener('abort', stop, { once: true });
      let watched: ReturnType<typeof watchActivity> | undefined;
      try {
        signal?.throwIfAborted();
        const headers = new Headers({ accept: 'text/event-stream', 'x-api-key': settings.apiKey, ...settings.headers, ...options.headers });
        if (lastEventId !== undefined) headers.set('last-event-id', lastEventId);
        const response = await fetchImpl(url, { headers, signal: controller.signal });
        if (!response.ok || !response.body) readResponse(response, await response.text(), false);
        options.onOpen?.();
        watched = watchActivity(response.body!, idleMs);
        for await (const raw of readEventStream(watched.body)) {
          delay = baseDelay; // reading again: the next drop reconnects quickly
          if (!TYPES.has(raw.event) || raw.id === undefined) continue;
          lastEventId = raw.id;
          yield { type: raw.event, id: raw.id, data: JSON.parse(raw.data) } as SessionStreamEvent;
        }
      } catch (error) {
        if (signal?.aborted) return;
        if (isFinal(error)) throw error;
      } finally {
        watched?.stop();
        signal?.removeEventListener('abort', stop);
        controller.abort();
      }
      // Dropped (network, server restart, silence): wait, then resume after the last event yielded.
      try {
        await sleep(delay, signal);
      } catch {
        return;
      }
      delay = Math.min(delay * 2, MAX_DELAY_MS);
    }
  }

  return {
    get lastEventId() {
      return lastEventId;
    },
    [Symbol.asyncIterator]: () => events(),
  };
}
