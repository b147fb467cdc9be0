import { describe, expect, it } from 'vitest';
import { readEventStream, type ServerSentEvent } from './event-stream.js';

/** A body delivering `chunks` one by one, as a network would split them. */
function body(chunks: ReadonlyArray<string | Uint8Array>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
      controller.close();
    },
  });
}

async function collect(stream: ReadableStream<Uint8Array>): Promise<ServerSentEvent[]> {
  const events: ServerSentEvent[] = [];
  for await (const event of readEventStream(stream)) events.push(event);
  return events;
}

describe('readEventStream', () => {
  it('reads named events with JSON data, skipping comments', async () => {
    const events = await collect(body([': keep-alive\n\n', 'event: message.start\ndata: {"messageId":"msg_1"}\n\n', 'event: message.delta\ndata: {"text":"Hi"}\n\n']));
    expect(events).toEqual([
      { event: 'message.start', data: '{"messageId":"msg_1"}', id: undefined },
      { event: 'message.delta', data: '{"text":"Hi"}', id: undefined },
    ]);
  });

  it('joins events split anywhere across chunks, CRLF split between two chunks included', async () => {
    const text = 'event: a\r\ndata: {"text":"é€"}\r\n\r\nevent: b\rdata: 2\r\r';
    const bytes = new TextEncoder().encode(text);
    // Every split point, one byte at a time: multi-byte characters and line ends are cut in half too.
    const singleBytes = Array.from(bytes, (byte) => new Uint8Array([byte]));
    const expected = [
      { event: 'a', data: '{"text":"é€"}', id: undefined },
      { event: 'b', data: '2', id: undefined },
    ];
    expect(await collect(body(singleBytes))).toEqual(expected);
    for (let cut = 1; cut < bytes.length; cut++) {
      expect(await collect(body([bytes.slice(0, cut), bytes.slice(cut)]))).toEqual(expected);
    }
  });

  it('joins several data lines with a newline, defaults the event name and keeps the last id', async () => {
    const events = await collect(body(['data: one\ndata:two\nid: 7\n\ndata\n\n']));
    expect(events).toEqual([
      { event: 'message', data: 'one\ntwo', id: '7' },
      { event: 'message', data: '', id: '7' },
    ]);
  });

  it('discards an event the stream ended before closing', async () => {
    expect(await collect(body(['data: complete\n\n', 'data: cut off']))).toEqual([{ event: 'message', data: 'complete', id: undefined }]);
  });

  it('cancels the body when the reader stops early', async () => {
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new TextEncoder().encode('data: x\n\n'));
      },
      cancel() {
        cancelled = true;
      },
    });
    for await (const event of readEventStream(stream)) {
      expect(event.data).toBe('x');
      break;
    }
    expect(cancelled).toBe(true);
  });
});
