/**
 * A reader of the service's `text/event-stream` replies, smaller than core's general one (`@svc/core/event-stream`)
 * because the widget's budget is counted in bytes. It reads what the service writes: `event:` and `data:` lines,
 * events ended by a blank line, `:` comments (keep-alives) skipped; lines may end in CRLF, LF or CR. It yields each
 * event's name and its data parsed as JSON. An event cut off by the end of the stream is dropped, as the standard says.
 */
export async function* readEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<[string, any]> {
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
        const data = event.match(/^data: ?.*/gm);
        if (data) yield [/^event: ?(.*)/m.exec(event)?.[1] ?? 'message', JSON.parse(data.map((line) => line.replace(/^data: ?/, '')).join('\n'))];
      }
    }
  } finally {
    // Leaving early (a newer conversation) closes the connection.
    void reader.cancel().catch(() => undefined);
  }
}
