import type { VNode } from 'preact';
import type { Problem } from '../chat-state.js';
import { BUSY, ERROR, fill, OFFLINE, RETRY, type Strings, UNAVAILABLE, UNREACHABLE, WAIT } from '../i18n.js';

const TEXT: Record<Problem['kind'], number> = { offline: OFFLINE, unreachable: UNREACHABLE, busy: BUSY, unavailable: UNAVAILABLE, error: ERROR };

/**
 * Offline (the browser has no network), the service unreachable, 402, 429, a refused key, other errors; a retry button when retrying can help. After a 429 the button
 * stays disabled for `Retry-After`: the conversation clears `retryAt` when that time has passed.
 */
export function StatusBanner({ problem, online, t }: { problem: Problem | null; online: boolean; t: Strings }): VNode | null {
  // The browser's own word wins: without a network, nothing else can be told apart.
  const kind = online ? (problem?.kind ?? null) : 'offline';
  const wait = problem?.retryAt ? Math.ceil((problem.retryAt - Date.now()) / 1000) : 0;
  return (
    kind && (
      <div part="status" class="status" role="status" data-testid="svc-status" data-kind={kind}>
        {t[TEXT[kind]]}
        {wait > 0 && ` ${fill(t[WAIT], wait)}`}
        {problem?.retry && (
          <button type="button" part="retry" data-testid="svc-retry" disabled={wait > 0} onClick={problem.retry}>
            {t[RETRY]}
          </button>
        )}
      </div>
    )
  );
}
