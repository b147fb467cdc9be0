/**
 * Model output and catalogue data reach `href` and `src` only through here. The URL must be absolute and its
 * scheme allowed; the WHATWG parser removes the tabs, newlines and control characters that hide `javascript:`
 * from naive checks, so the scheme read back from it is the one a browser would use.
 */
const LINK_PROTOCOLS = ['http:', 'https:', 'mailto:'];
const WEB_PROTOCOLS = ['http:', 'https:'];

function allowed(raw: unknown, protocols: readonly string[], base?: string): string | null {
  if (typeof raw !== 'string' || raw.length > 2048) return null;
  try {
    const url = new URL(raw.trim(), base);
    return protocols.includes(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
}

/** For links in replies: http, https and mailto. */
export function safeLinkUrl(raw: unknown): string | null {
  return allowed(raw, LINK_PROTOCOLS);
}

/** For product pages and images: http and https only. `base` resolves a relative URL (the page's own icons). */
export function safeWebUrl(raw: unknown, base?: string): string | null {
  return allowed(raw, WEB_PROTOCOLS, base);
}
