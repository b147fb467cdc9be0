/**
 * Server-sent events as the WHATWG HTML standard frames them (section 9.2, "event stream"). Data is JSON on
 * one line, so an event is always `event:` + one `data:` line + a blank line, and a parser never has to join
 * lines. Built here rather than with `writeSSE` so an event is one synchronous write: events queued from the
 * agent's callbacks keep their order without awaiting each other.
 */

/** One event of the stream, `data` serialised as JSON. */
export function sseEvent(event: string | undefined, data: unknown): string {
  const json = JSON.stringify(data);
  return event === undefined ? `data: ${json}\n\n` : `event: ${event}\ndata: ${json}\n\n`;
}

/**
 * A comment line: ignored by every SSE parser, it keeps proxies and load balancers (which close connections
 * idle for 30-60 s) from cutting a stream while a slow model thinks.
 */
export const SSE_KEEPALIVE = ': keep-alive\n\n';

/** DESIGN.md section 4: a comment line every 15 s. */
export const SSE_KEEPALIVE_MS = 15_000;

/**
 * Every event stream's media type. Hono's `streamSSE` says a bare `text/event-stream`; some clients then decode the
 * bytes as windows-1252 and show curly quotes and accents as mojibake, so the charset is named.
 */
export const SSE_CONTENT_TYPE = 'text/event-stream; charset=utf-8';

