// Plain constants, which the build writes where they are read (rolldown's inlineConst): no object of names ships.
import { MESSAGE_CREATED, SESSION_UPDATED } from '@svc/core/event-stream';
import type { HistoryItem, SessionView } from './api-types.js';
import type { Context } from './context.js';
import { readEvents } from './event-stream.js';
import { plainText } from './markdown.js';
import { fromHistory } from './messages.js';
import { later, sleep, toApiError, transient } from './retry.js';

/** What live-events.ts adds to the context. */
export type LiveEventsPart = Pick<Context, 'listen' | 'follow'>;

/**
 * The session's event stream (DESIGN.md 6), followed while the panel is open: operator messages and session changes
 * appear live.
 */
export function createLiveEvents(c: Context): LiveEventsPart {
  const state = c.store.get;
  const set = c.store.set;
  /** The event stream being read, aborted when the panel closes or the session changes. */
  let live: AbortController | undefined;
  let listening = false;
  /**
   * The last event seen: a new connection asks for what came after it (`Last-Event-ID`), no gap and no repeat. Before
   * any, `0` asks for the session's whole log: what a person wrote before the stream opened (the panel closed, the
   * history loaded a moment earlier) is never missed, and what is on screen already is not shown again.
   */
  let lastEvent = '0';

  /** An operator message, shown once (one already on screen, from the history, is not). */
  function show(item: HistoryItem): void {
    if (item.author && !state().messages.some((shown) => shown.id === item.messageId)) {
      set({ messages: [...state().messages, fromHistory(item)], announcement: `${item.author.name}: ${plainText(item.content)}` });
    }
  }

  /**
   * Reads the stream until the panel closes, the session ends or the conversation starts over. A dropped connection
   * comes back after 1 s, doubling up to 8 s, and resumes after the last event seen.
   */
  async function stream(stop: AbortSignal): Promise<void> {
    const current = c.generation;
    await c.restoring;
    for (let wait = 0; ; wait = later(wait)) {
      await sleep(wait);
      const id = c.current;
      if (stop.aborted || current !== c.generation || !id || state().session === 'ended') return;
      try {
        const body = await c.GET<ReadableStream<Uint8Array>>(id, '/events', { headers: { 'Last-Event-ID': lastEvent }, signal: stop });
        wait = 0;
        for await (const [event, data, eventId] of readEvents(body)) {
          if (stop.aborted || current !== c.generation) return;
          if (eventId) lastEvent = eventId;
          if (event === MESSAGE_CREATED) show(data);
          // A session that ended meanwhile stops the stream (nothing more will come).
          if (event === SESSION_UPDATED && (data as SessionView).status !== 'active') set({ session: 'ended' });
          if (state().session === 'ended') return;
        }
      } catch (error) {
        // A refusal (the session gone, the key refused, no stream on this service) does not change by asking again.
        if (!transient(toApiError(error).status)) return;
      }
    }
  }

  function listen(on: boolean): void {
    listening = on;
    live?.abort();
    if (on) {
      const controller = (live = new AbortController());
      // Done for good (ended, refused): the connection closes too.
      void stream(controller.signal).finally(() => controller.abort());
    }
  }

  return {
    listen,
    follow() {
      lastEvent = '0';
      listen(listening);
    },
  };
}
