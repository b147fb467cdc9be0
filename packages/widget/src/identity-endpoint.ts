import type { IdentityTokenProvider } from './types.js';
import { ignored } from './warn.js';

/** `data-identity-endpoint` as an absolute URL on the page's own origin, or undefined (with a warning) if it is not. */
export function sameOriginEndpoint(path: string): string | undefined {
  try {
    const url = new URL(path, location.href);
    if (url.origin === location.origin) return url.href;
  } catch {
    // Not a URL at all: refused below, like another origin.
  }
  ignored('script tag', 'data-identity-endpoint', 'must be a path on this page\'s origin');
  return undefined;
}

/**
 * The provider behind `data-identity-endpoint` (DESIGN.md 7): GET that path on the page's own origin, with the
 * page's cookies, answering `{"token": "<jwt>"}` or `{"token": null}`. Any other answer is an error, which the
 * token holder treats as "change nothing, try again later". Cross-origin endpoints are refused: the request
 * carries the visitor's cookies.
 */
export function endpointProvider(url: string): IdentityTokenProvider {
  return async () => {
    const response = await fetch(url, { credentials: 'include', cache: 'no-store' });
    if (response.ok) {
      const { token } = (await response.json()) as { token?: unknown };
      if (token === null || typeof token === 'string') return token;
    }
    // What went wrong is read by nobody: the token holder only waits and asks again (identity-tokens.ts).
    throw new Error('identity endpoint');
  };
}
