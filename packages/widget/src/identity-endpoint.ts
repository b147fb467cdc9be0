import type { IdentityTokenProvider } from './types.js';
import { ignored } from './warn.js';

/**
 * The provider behind `data-identity-endpoint` (DESIGN.md 7): GET that path on the page's own origin, with the
 * page's cookies, answering `{"token": "<jwt>"}` or `{"token": null}`. Any other answer is an error, which the
 * token holder treats as "change nothing, try again later". Cross-origin endpoints are refused: the request
 * carries the visitor's cookies.
 */
export function endpointProvider(path: string): IdentityTokenProvider | null {
  let url: URL;
  try {
    url = new URL(path, location.href);
  } catch {
    url = new URL('about:blank');
  }
  if (url.origin !== location.origin) {
    ignored('script tag', 'data-identity-endpoint', 'must be a path on this page\'s origin');
    return null;
  }
  return async () => {
    const response = await fetch(url.href, { credentials: 'include', cache: 'no-store', headers: { Accept: 'application/json' } });
    if (!response.ok) throw new Error(`identity endpoint answered ${response.status}`);
    const { token } = (await response.json()) as { token?: unknown };
    if (token === null || typeof token === 'string') return token;
    throw new Error('identity endpoint answered without a "token" member');
  };
}
