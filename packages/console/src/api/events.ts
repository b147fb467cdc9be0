/**
 * The account's live feed, `GET /admin/v1/events` (DESIGN.md 6 and 10): `message.created` and `session.updated`
 * events for every conversation of the account. Read with `fetch` rather than `EventSource`, so a reconnect after
 * any failure (a restart, a proxy timeout, a dropped network) sends `Last-Event-ID` itself and resumes with no gap
 * and no repeat; EventSource gives up for good on an error status and then forgets where it was.
 */
import { readEventStream, type SessionEventName } from '@svc/core/event-stream';
import { ADMIN } from './client.js';

export interface FeedEvent {
  id: string | undefined;
  // Any name: a newer server may send more; the inbox acts on the SESSION_EVENT names and skips the rest.
  type: SessionEventName | string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the body depends on `type`; each listener reads its own
  data: any;
}

export interface FeedOptions {
  onEvent(event: FeedEvent): void;
  /** `true` while connected; `false` while waiting to reconnect. */
  onStatus?(live: boolean): void;
  /** Milliseconds before reconnect attempt `n` (0-based). Default 1 s, doubling, at most 30 s. */
  backoff?(attempt: number): number;
}

const defaultBackoff = (attempt: number): number => Math.min(30_000, 1000 * 2 ** attempt);

/** Follows the feed until `stop()` is called. */
export function followEvents(options: FeedOptions): { stop(): void } {
  const controller = new AbortController();
  const { signal } = controller;
  let lastId: string | undefined;

  const wait = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      });
    });

  async function run(): Promise<void> {
    for (let attempt = 0; !signal.aborted; ) {
      try {
        const response = await fetch(`${ADMIN}/events`, {
          headers: { Accept: 'text/event-stream', ...(lastId ? { 'Last-Event-ID': lastId } : {}) },
          credentials: 'same-origin',
          signal,
        });
        if (response.ok && response.body) {
          options.onStatus?.(true);
          attempt = 0;
          for await (const event of readEventStream(response.body)) {
            if (event.id) lastId = event.id;
            let data: unknown;
            try {
              data = JSON.parse(event.data);
            } catch {
              continue;
            }
            options.onEvent({ id: event.id, type: event.event, data });
          }
        }
      } catch {
        // A dropped connection or an abort: decided below.
      }
      if (signal.aborted) return;
      options.onStatus?.(false);
      await wait((options.backoff ?? defaultBackoff)(attempt++));
    }
  }

  void run();
  return { stop: () => controller.abort() };
}
