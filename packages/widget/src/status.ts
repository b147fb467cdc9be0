import type { ChatState, Problem } from './chat-state.js';
import { toApiError, transient } from './retry.js';
import type { Store } from './store.js';
import { warn } from './warn.js';

/** The status banner: what went wrong, and whether its button can help. */
export interface Status {
  /** Shows an error; `retry` goes behind the banner's button when trying again can help. */
  fail(error: unknown, retry: () => void): void;
  /** Stops a busy banner's countdown: the conversation starts over, or the widget goes. */
  stopCountdown(): void;
}

export function createStatus(store: Store<ChatState>, signal: AbortSignal): Status {
  let countdown: ReturnType<typeof setTimeout> | undefined;
  return {
    // Problems only the site's developer can fix are logged for them.
    fail(error, retry) {
      if (signal.aborted) return;
      const { status, code, message, retryAfter } = toApiError(error);
      let problem: Problem;
      // No answer at all: the browser knows whether it has a network; if it has, the service is what is missing.
      if (status === 0) problem = { kind: store.get().online ? 'unreachable' : 'offline', retry };
      else if (status === 402) problem = { kind: 'unavailable', retry };
      else if (status === 429) {
        const wait = (retryAfter ?? 10) * 1000;
        problem = { kind: 'busy', retry, retryAt: Date.now() + wait };
        clearTimeout(countdown);
        countdown = setTimeout(() => store.get().problem === problem && store.set({ problem: { kind: 'busy', retry } }), wait);
      } else if (status === 401 || status === 403 || code === 'widget_not_found') {
        warn(`refused (${code}): ${message}`);
        problem = { kind: 'unavailable', retry: null };
      } else {
        problem = { kind: 'error', retry: transient(status) ? retry : null };
      }
      store.set({ problem });
    },
    stopCountdown: () => clearTimeout(countdown),
  };
}
