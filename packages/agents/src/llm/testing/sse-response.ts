/**
 * A provider's `text/event-stream` answer, written event by event as the test releases it. An entry that is a
 * promise holds the stream there until it settles, so a test can prove a delta reached the agent's caller
 * before the provider sent the rest; an `Error` entry breaks the connection off mid-stream.
 */
export type SseEntry = string | Promise<unknown> | Error;

export function sseResponse(entries: readonly SseEntry[], init: { headers?: Record<string, string> } = {}): Response {
  const encoder = new TextEncoder();
  const queue = [...entries];
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const entry = queue.shift();
      if (entry === undefined) {
        controller.close();
      } else if (entry instanceof Error) {
        controller.error(entry);
      } else if (typeof entry === 'string') {
        controller.enqueue(encoder.encode(entry));
      } else {
        await entry;
        // Nothing to write: the next pull continues with the following entry.
        controller.enqueue(new Uint8Array(0));
      }
    },
  });
  return new Response(body, {
    status: 200,
    headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', ...init.headers },
  });
}

/** A promise and the function that resolves it. */
export function gate(): { opened: Promise<void>; open: () => void } {
  let open = (): void => undefined;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}
