import type { TokenClaims } from './jwt.js';
import type { IdentityTokenProvider } from './types.js';
import { warn } from './warn.js';

/** Spec 4.9 / 8: ask for a new token this long before the current one expires. */
export const REFRESH_LEAD_MS = 60_000;
/** After a provider throws or answers something unusable, try again this much later (spec: "tries again later"). */
export const RETRY_MS = 30_000;
/**
 * Never schedule the next refresh sooner than this. A token already inside its last minute (short-lived, or a
 * visitor clock running fast) would otherwise make the widget call its provider in a tight loop.
 */
const MIN_REFRESH_MS = 10_000;

export interface IdentityTokensOptions {
  /** Looked up on every refresh, so a provider registered after the widget was created is used. */
  source(): IdentityTokenProvider | null;
  /** A signed-in visitor signed out, or another person signed in: start again as a new visitor (spec 4.9). */
  onIdentityChange(): void;
  /** Reads `sub` and `exp` (the loader's `readTokenClaims`, shared with the panel). */
  readClaims(token: string): TokenClaims | null;
}

export interface IdentityTokens {
  /** The token to send in `X-Identity-Token`, if any. */
  current(): string | null;
  /** Call before a request: refreshes first when needed, and waits for a refresh already under way. */
  ensureFresh(): Promise<void>;
  /** The provider was registered, replaced or removed: ask again before the next request. */
  sourceChanged(): void;
  dispose(): void;
}

/**
 * Holds the visitor's identity token in memory (never in storage or a URL) and keeps it fresh: before the first
 * request, when it is within 60 s of expiry (a timer, and a check before each request because timers sleep in
 * background tabs), and after the source changes. A source that throws or rejects changes nothing.
 */
export function createIdentityTokens(options: IdentityTokensOptions): IdentityTokens {
  let token: (TokenClaims & { raw: string }) | null = null;
  let stale = true;
  let inflight: Promise<void> | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let disposed = false;

  const schedule = (delay: number): void => {
    clearTimeout(timer);
    // Capped: setTimeout fires at once for delays beyond a signed 32-bit integer.
    timer = setTimeout(refresh, Math.min(delay, 2 ** 31 - 1));
  };

  const retryLater = (): void => {
    stale = true;
    if (!disposed) schedule(RETRY_MS);
  };

  async function ask(): Promise<void> {
    clearTimeout(timer);
    const source = options.source();
    let answer: unknown = null;
    try {
      answer = source ? await source() : null;
    } catch {
      return retryLater();
    }
    if (disposed) return;
    let next: typeof token = null;
    if (answer !== null && answer !== undefined && answer !== '') {
      const claims = typeof answer === 'string' ? options.readClaims(answer) : null;
      if (!claims) {
        warn('identity token provider: expected a JWT with a "sub" claim, or null; current token kept');
        return retryLater();
      }
      next = { raw: answer as string, ...claims };
      if (claims.exp !== null) schedule(Math.max(claims.exp * 1000 - REFRESH_LEAD_MS - Date.now(), MIN_REFRESH_MS));
    }
    const previous = token;
    token = next;
    stale = false;
    // Spec 4.9 automatic sign-out: no token after one was active, or a token for somebody else.
    if (previous && previous.sub !== next?.sub) options.onIdentityChange();
  }

  function refresh(): Promise<void> {
    return (inflight ??= ask().finally(() => {
      inflight = null;
    }));
  }

  return {
    current: () => token?.raw ?? null,
    async ensureFresh() {
      const exp = token?.exp;
      if (inflight || stale || (exp != null && exp * 1000 - REFRESH_LEAD_MS <= Date.now())) await refresh();
    },
    sourceChanged() {
      stale = true;
    },
    dispose() {
      disposed = true;
      clearTimeout(timer);
      token = null;
    },
  };
}
