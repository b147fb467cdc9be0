import type { VNode } from 'preact';
import type { Problem } from '../chat-state.js';
import { fill, type Strings } from '../i18n.js';

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
        {t[kind]}
        {wait > 0 && ` ${fill(t.wait, wait)}`}
        {problem?.retry && (
          <button type="button" part="retry" data-testid="svc-retry" disabled={wait > 0} onClick={problem.retry}>
            {t.retry}
          </button>
        )}
      </div>
    )
  );
}
