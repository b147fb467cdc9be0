import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api.js';
import { initialChatState } from './chat-state.js';
import { createStatus } from './status.js';
import { createStore } from './store.js';

function banner(online = true) {
  const abort = new AbortController();
  const store = createStore({ ...initialChatState(true), online });
  return { store, status: createStatus(store, abort.signal), abort, problem: () => store.get().problem };
}

const retry = (): void => undefined;

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('the status banner', () => {
  it('no answer: "offline" when the browser has no network, "unreachable" when it has one; both offer a retry', () => {
    const offline = banner(false);
    offline.status.fail(new ApiError(0, 'network_error', ''), retry);
    expect(offline.problem()).toEqual({ kind: 'offline', retry });
    const online = banner();
    online.status.fail(new ApiError(0, 'network_error', ''), retry);
    expect(online.problem()).toEqual({ kind: 'unreachable', retry });
  });

  it('402: the chat is unavailable for now, and retrying may help later', () => {
    const { status, problem } = banner();
    status.fail(new ApiError(402, 'insufficient_credits', 'No credits'), retry);
    expect(problem()).toEqual({ kind: 'unavailable', retry });
  });

  it('429: busy, with the retry held back until Retry-After has passed', () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const { status, problem } = banner();
    status.fail(new ApiError(429, 'rate_limited', 'Slow down', undefined, 3), retry);
    expect(problem()).toEqual({ kind: 'busy', retry, retryAt: 1_003_000 });
    vi.advanceTimersByTime(3000);
    expect(problem()).toEqual({ kind: 'busy', retry });
  });

  it('stops the countdown when the conversation starts over, so nothing comes back afterwards', () => {
    vi.useFakeTimers();
    const { store, status, problem } = banner();
    status.fail(new ApiError(429, 'rate_limited', '', undefined, 3), retry);
    status.stopCountdown();
    store.set({ problem: null });
    vi.advanceTimersByTime(5000);
    expect(problem()).toBeNull();
  });

  it('a key the service refuses: unavailable with no retry, and the site developer is told why', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    for (const error of [new ApiError(401, 'invalid_api_key', 'Unknown key'), new ApiError(403, 'origin_not_allowed', 'Not here'), new ApiError(404, 'widget_not_found', 'No widget')]) {
      const { status, problem } = banner();
      status.fail(error, retry);
      expect(problem()).toEqual({ kind: 'unavailable', retry: null });
    }
    expect(warn.mock.calls.map(([message]) => message)).toEqual([
      '[Svc] refused (invalid_api_key): Unknown key',
      '[Svc] refused (origin_not_allowed): Not here',
      '[Svc] refused (widget_not_found): No widget',
    ]);
  });

  it('other failures: an error, with a retry only when asking again can help', () => {
    const failing = banner();
    failing.status.fail(new ApiError(503, 'unavailable', ''), retry);
    expect(failing.problem()).toEqual({ kind: 'error', retry });
    const refused = banner();
    refused.status.fail(new ApiError(422, 'invalid_request', ''), retry);
    expect(refused.problem()).toEqual({ kind: 'error', retry: null });
    const bug = banner();
    bug.status.fail(new TypeError('oops'), retry);
    expect(bug.problem()).toEqual({ kind: 'error', retry });
  });

  it('shows nothing once the widget is destroyed', () => {
    const { status, abort, problem } = banner();
    abort.abort();
    status.fail(new ApiError(0, 'network_error', ''), retry);
    expect(problem()).toBeNull();
  });
});
