import type { StoreSignal } from '../store/turn-job-store.js';
import type { Store } from '../store/store.js';
import type { EngineLogger } from './context.js';

/** One event of a feed as a stream sends it: its log id (`id:`), its name (`event:`) and its JSON data. */
export interface StreamedEvent {
  id: string;
  event: string;
  data: Record<string, unknown>;
}

/** What to follow: where to start, how to read on from a position, which store signals mean "the log grew". */
export interface EventLogSource {
  after: string | null;
  read(after: string | null, limit: number): Promise<{ events: StreamedEvent[]; next: string | null }>;
  wakesOn(signal: StoreSignal): boolean;
}

export interface FollowOptions extends EventLogSource {
  store: Pick<Store, 'subscribeSignals'>;
  /** Ends the iteration (a `for await` leaves its loop without an error). */
  signal: AbortSignal;
  /** Read again this often even without a signal, should a notification be lost. */
  pollMs: number;
  logger?: EngineLogger | undefined;
}

/** Events read per query while catching up. */
const PAGE = 100;

/**
 * Follows an event log for as long as `signal` is not aborted: catches up from `after` a page at a time, then reads
 * again whenever the store signals that the log grew (in this process, or `NOTIFY` from another) and on a fallback
 * poll. The subscription is taken before the first read, so an event committed meanwhile is never waited for; a failed
 * read is logged and tried again at the next wake-up, so a passing database error does not end a visitor's stream.
 */
export async function* followEventLog(options: FollowOptions): AsyncGenerator<StreamedEvent, void, undefined> {
  const { signal } = options;
  if (signal.aborted) return;
  let position = options.after;
  let woken = false;
  let wake: (() => void) | null = null;
  const rouse = (): void => {
    woken = true;
    wake?.();
  };
  const unsubscribe = options.store.subscribeSignals((event) => {
    if (options.wakesOn(event)) rouse();
  });
  const poll = setInterval(rouse, options.pollMs);
  signal.addEventListener('abort', rouse, { once: true });
  try {
    while (!signal.aborted) {
      woken = false;
      try {
        for (;;) {
          const { events, next } = await options.read(position, PAGE);
          if (signal.aborted) return;
          yield* events;
          if (next === position) break;
          position = next;
        }
      } catch (error) {
        (options.logger ?? consoleLogger).error('event stream read failed', { error: String(error) });
      }
      // A signal that came during the read asks for one more read at once.
      if (!woken) await new Promise<void>((resolve) => (wake = resolve));
      wake = null;
    }
  } finally {
    unsubscribe();
    clearInterval(poll);
    signal.removeEventListener('abort', rouse);
  }
}

const consoleLogger: EngineLogger = { error: (message, details) => console.error(message, details) };
