import type { ApiError } from './api.js';
import type { ChatMessage } from './chat-state.js';
import type { Context } from './context.js';
import { chatMessage, patchMessages } from './messages.js';
import { randomId } from './random-id.js';
import { later, transient } from './retry.js';
import { loadOutbox, saveOutbox, type PendingMessage } from './storage.js';

/** What outbox.ts adds to the context. */
export type OutboxPart = Pick<Context, 'pump' | 'enqueue' | 'retryNow' | 'stop' | 'drop'>;

/** A message's `Idempotency-Key` is also the key of its bubble on screen (unique there too, and kept across reloads). */
type Item = PendingMessage;

/**
 * The outbox (DESIGN.md 7, nothing a visitor types is lost): the visitor's messages, kept in storage until the
 * service accepts them, sent in order, each with its own `Idempotency-Key` on every try; while the service is
 * unreachable they are tried again by themselves (1 s, doubling up to 8 s; a 429 after its `Retry-After`).
 */
export function createOutbox(c: Context): OutboxPart {
  const state = c.store.get;
  const set = c.store.set;
  /** Unsent messages, oldest first; mirrored in storage. */
  let outbox = loadOutbox(c.apiKey, c.visitorId);
  const bubble = (item: Item): ChatMessage => chatMessage('user', item.content, { key: item.idempotencyKey, status: 'sending' });
  // On screen from the start (nothing else is yet: the store has no listener before the conversation exists).
  set({ messages: outbox.map(bubble) });
  /** The generation whose outbox is being sent, or -1: one sender at a time. */
  let pumping = -1;
  let resendTimer: ReturnType<typeof setTimeout> | undefined;
  let backoff = 0;
  /** One automatic new-visitor restart per `identity_mismatch` streak, so a refusal can never loop. */
  let mismatchRetried = false;

  const persist = (): void => saveOutbox(c.apiKey, c.visitorId, outbox);
  const mark = (items: Item[], status: ChatMessage['status']): void =>
    patchMessages(
      c.store,
      items.map((item) => item.idempotencyKey),
      { status },
    );
  /** Takes the message out of the outbox (accepted, or not sendable as it is), in storage too. */
  const remove = (item: Item, status?: ChatMessage['status']): void => {
    outbox = outbox.filter((entry) => entry !== item);
    persist();
    mark([item], status);
  };
  const stop = (): void => clearTimeout(resendTimer);
  const drop = (): void => {
    stop();
    outbox = [];
    persist();
  };

  /** What a refused or failed message means for it and the ones after it. True: go on with the next. */
  function handle(error: ApiError, item: Item): boolean {
    const { status, code } = error;
    if (code === 'identity_mismatch' && !mismatchRetried) {
      // The stored conversation belongs to someone else: start over as a new visitor and send the outbox there.
      mismatchRetried = true;
      const pending = outbox.map((entry) => entry.content);
      c.newVisitor();
      for (const content of pending) enqueue(content);
      void pump();
      return false;
    }
    if (code === 'session_not_active') {
      // Resolved or expired meanwhile: the conversation is over (it can be rated); these can no longer go to it.
      mark(outbox, 'failed');
      drop();
      set({ session: 'ended' });
      return false;
    }
    if (code === 'session_not_found') c.remember(null);
    // The banner says what went wrong; its retry (when it has one) sends them all again.
    c.fail(error, c.retryNow);
    if (transient(status)) {
      // The service is unreachable, busy or failing: keep every message and try again by itself.
      mark(outbox, 'queued');
      backoff = later(backoff);
      stop();
      resendTimer = setTimeout(() => void pump(), status === 429 ? (error.retryAfter ?? 10) * 1000 : backoff);
      return false;
    }
    if (status === 402 || status === 401 || status === 403 || code === 'session_not_found' || code === 'widget_not_found') {
      // Retrying on a timer cannot help here.
      mark(outbox, 'failed');
      return false;
    }
    // This message cannot be sent as it is (another 4xx); the ones after it still can.
    remove(item, 'failed');
    return true;
  }

  async function pump(): Promise<void> {
    const current = c.generation;
    if (pumping === current) return;
    pumping = current;
    stop();
    try {
      while (current === c.generation && !c.signal.aborted) {
        const item = outbox.find((entry) => state().messages.find((shown) => shown.key === entry.idempotencyKey)?.status !== 'failed');
        if (!item) return;
        mark([item], 'sending');
        // Once the service has it, it is no longer the widget's to keep, whatever happens to the reply.
        const error = await c.turn(item, () => remove(item));
        if (current !== c.generation) return;
        if (!error) {
          backoff = 0;
          mismatchRetried = false;
          continue;
        }
        if (!outbox.includes(item)) {
          // Accepted, but the reply did not come: asking again replays the turn instead of running it twice.
          c.fail(error, () => void c.turn(item));
          continue;
        }
        if (!handle(error, item)) return;
      }
    } finally {
      if (pumping === current) pumping = -1;
    }
  }

  function enqueue(content: string): void {
    const item = { content, idempotencyKey: randomId('idem_') };
    outbox.push(item);
    persist();
    set({ messages: [...state().messages, bubble(item)] });
  }

  return {
    pump,
    enqueue,
    stop,
    drop,

    retryNow() {
      stop();
      backoff = 0;
      // Nothing waiting to go out: retry what failed instead (loading the history, the config, a rating).
      if (!outbox.length) return state().problem?.retry?.();
      mark(outbox, 'sending');
      set({ problem: null });
      void pump();
    },

  };
}
