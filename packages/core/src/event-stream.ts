/**
 * `@svc/core/event-stream`: the stream protocol's event names and its reader, with no dependency at all, for bundles
 * that must stay small (the widget, `@svc/client` in a browser). The shapes of the events are zod schemas in
 * `@svc/core/schemas` (`schemas/stream-events.ts`), which take their names from here.
 *
 * A `text/event-stream` parser over a web `ReadableStream` (the body of a `fetch` response), as the WHATWG
 * HTML standard defines it (section 9.2.6): lines end in CRLF, LF or CR; `data` lines join with "\n"; a blank
 * line dispatches; comment lines (`:`) are skipped. Web APIs only, so it runs in browsers, Node, Deno and edge.
 */

/** One dispatched event. `event` is "message" when the stream named none. */
export interface ServerSentEvent {
  event: string;
  data: string;
  id: string | undefined;
}

/**
 * @example
 * for await (const { event, data } of readEventStream(response.body!)) console.log(event, JSON.parse(data));
 */
export async function* readEventStream(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerSentEvent, void, undefined> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let event = '';
  let data: string[] = [];
  let id: string | undefined;
  let sawData = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      const dispatched: ServerSentEvent[] = [];
      for (;;) {
        const end = lineEnd(buffer, done);
        if (end === null) break;
        const line = buffer.slice(0, end.index);
        buffer = buffer.slice(end.index + end.length);
        if (line === '') {
          if (sawData) dispatched.push({ event: event || 'message', data: data.join('\n'), id });
          event = '';
          data = [];
          sawData = false;
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        let value = colon === -1 ? '' : line.slice(colon + 1);
        if (value.startsWith(' ')) value = value.slice(1);
        if (field === 'data') {
          data.push(value);
          sawData = true;
        } else if (field === 'event') {
          event = value;
        } else if (field === 'id' && !value.includes('\0')) {
          id = value;
        }
      }
      yield* dispatched;
      // An event not closed by a blank line when the stream ends is discarded, as the standard says.
      if (done) return;
    }
  } finally {
    // Leaving the loop early (break, a thrown error) cancels the body, which closes the connection.
    await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

/**
 * Where the first line of `buffer` ends. A CR at the very end may be the first half of a CRLF split across
 * chunks, so it is only a line end once more text arrives or the stream is done.
 */
function lineEnd(buffer: string, done: boolean): { index: number; length: number } | null {
  for (let index = 0; index < buffer.length; index++) {
    const char = buffer[index];
    if (char === '\n') return { index, length: 1 };
    if (char === '\r') {
      if (index + 1 < buffer.length) return { index, length: buffer[index + 1] === '\n' ? 2 : 1 };
      return done ? { index, length: 1 } : null;
    }
  }
  return null;
}

// Each name once, as a plain constant: a bundler inlines these where they are read (rolldown's `inlineConst`), so a
// reader that must stay small ships the strings it compares and no object of names.
export const MESSAGE_START = 'message.start';
export const MESSAGE_DELTA = 'message.delta';
export const MESSAGE_COMPLETED = 'message.completed';
export const MESSAGE_FAILED = 'message.failed';
export const MESSAGE_HANDOFF = 'message.handoff';
export const MESSAGE_CREATED = 'message.created';
export const SESSION_UPDATED = 'session.updated';

/** Events of a streamed turn (`response_type: "stream"`), in the order they come: start, deltas, one outcome. */
export const TURN_EVENT = {
  start: MESSAGE_START,
  delta: MESSAGE_DELTA,
  completed: MESSAGE_COMPLETED,
  failed: MESSAGE_FAILED,
  handoff: MESSAGE_HANDOFF,
} as const;
export type TurnEventName = (typeof TURN_EVENT)[keyof typeof TURN_EVENT];

/** Events of a session's event stream (`GET …/events`), also those of the console's account feed. */
export const SESSION_EVENT = {
  messageCreated: MESSAGE_CREATED,
  sessionUpdated: SESSION_UPDATED,
} as const;
export type SessionEventName = (typeof SESSION_EVENT)[keyof typeof SESSION_EVENT];
