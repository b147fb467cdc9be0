/**
 * A reader of the service's `text/event-stream` replies, smaller than core's general one (`@svc/core/event-stream`)
 * because the widget's budget is counted in bytes. It reads what the service writes: `id:`, `event:` and `data:`
 * lines, events ended by a blank line, `:` comments (keep-alives) skipped; lines may end in CRLF, LF or CR. It yields
 * each event's name, its data parsed as JSON and its id (for `Last-Event-ID`), if it has one; of a repeated `event:`
 * or `id:` line the last counts. An event cut off by the end of the stream is dropped, as the standard says.
 * Streamed turns and the session's event stream both use it.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each caller narrows the data of the events it knows
export async function* readEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<[string, any, string?]> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (let done = false; !done; ) {
      const chunk = await reader.read();
      done = chunk.done;
      // A CR at the end may be half of a CRLF: it counts once the next chunk (or the end) shows which.
      buffer = (buffer + decoder.decode(chunk.value, { stream: !done })).replace(done ? /\r\n?/g : /\r\n|\r(?!$)/g, '\n');
      const events = buffer.split('\n\n');
      buffer = events.pop()!;
      for (const event of events) {
        const fields: Record<string, string[]> = {};
        for (const [, name, value] of event.matchAll(/^(\w+): ?(.*)/gm)) (fields[name!] ??= []).push(value!);
        if (fields.data) yield [fields.event?.pop() ?? 'message', JSON.parse(fields.data.join('\n')), fields.id?.pop()];
      }
    }
  } finally {
    // Leaving early (a newer conversation) closes the connection.
    void reader.cancel().catch(() => undefined);
  }
}
