/**
 * URLs as the sync job keys pages (DESIGN.md section 11 "Sources"): one canonical form per page, so the tracking
 * parameters of a campaign link or a `#section` fragment never make a second copy, and the scope a website source is
 * crawled within.
 */

/** Query parameters that only track a visit: stripped from every URL the crawler sees. */
const TRACKING_PARAMETER = /^(utm_.*|gclid|fbclid|msclkid|mc_cid|mc_eid|_ga|ref)$/i;

/** Longer URLs are not crawled (no site needs them; they are how crawler traps grow). */
export const MAX_URL_LENGTH = 2000;

function decoded(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

/**
 * The canonical form of an http(s) URL, resolved against `base`: fragment and credentials removed, host lower-cased
 * and default port dropped (the WHATWG URL parser does both), tracking parameters stripped (the others keep their
 * order and encoding). Null for another scheme, an unparsable or an overlong URL.
 */
export function canonicalUrl(raw: string, base?: string): string | null {
  let url: URL;
  try {
    url = base === undefined ? new URL(raw) : new URL(raw, base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  url.hash = '';
  url.username = '';
  url.password = '';
  const kept = url.search
    .slice(1)
    .split('&')
    .filter((pair) => pair.length > 0 && !TRACKING_PARAMETER.test(decoded(pair.split('=')[0]!)));
  url.search = kept.length > 0 ? `?${kept.join('&')}` : '';
  const text = url.toString();
  return text.length > MAX_URL_LENGTH ? null : text;
}

/** A URL that names an XML sitemap by its path (`/sitemap.xml`, `/sitemaps/pages.xml.gz`). */
export function looksLikeSitemap(url: string): boolean {
  try {
    return /\.xml(\.gz)?$/i.test(new URL(url).pathname);
  } catch {
    return false;
  }
}

/** `https://host:port` of a URL. */
export function originOf(url: string): string {
  return new URL(url).origin;
}

/** One `include` or `exclude` pattern: a glob with `*` over the whole URL, an absolute URL prefix, or a path prefix. */
function patternMatcher(pattern: string, start: URL): (url: URL) => boolean {
  if (pattern.includes('*')) {
    const expression = new RegExp(`^${pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`, 'i');
    return (url) => expression.test(url.toString());
  }
  if (/^https?:\/\//i.test(pattern)) {
    const prefix = canonicalUrl(pattern) ?? pattern;
    // `https://example.com` names the whole site, as `https://example.com/` does.
    const bare = prefix.endsWith('/') && new URL(prefix).pathname === '/' && !pattern.endsWith('/') ? prefix.slice(0, -1) : prefix;
    return (url) => url.toString().startsWith(bare);
  }
  const path = pattern.startsWith('/') ? pattern : `/${pattern}`;
  return (url) => url.host === start.host && `${url.pathname}${url.search}`.startsWith(path);
}

/**
 * The path prefix a start URL stands for: itself when it ends with `/`; its folder when its last segment names a file
 * (`/help/sitemap.xml` → `/help/`); otherwise the start URL as a folder (`/help` → `/help/`).
 */
export function scopePrefix(start: URL): string {
  const path = start.pathname;
  if (path.endsWith('/')) return path;
  const last = path.slice(path.lastIndexOf('/') + 1);
  return last.includes('.') ? path.slice(0, path.lastIndexOf('/') + 1) : `${path}/`;
}

/**
 * Whether a canonical URL belongs to a website source: without `include`, the start URL's host and path prefix (and
 * any sitemap on that host); with `include`, the URLs a pattern matches (and sitemaps on the start host).
 * `exclude` wins over both.
 */
export function sourceScope(source: { url: string; include: readonly string[]; exclude: readonly string[] }): (url: string) => boolean {
  const start = new URL(source.url);
  const prefix = scopePrefix(start);
  const include = source.include.map((pattern) => patternMatcher(pattern, start));
  const exclude = source.exclude.map((pattern) => patternMatcher(pattern, start));
  return (raw) => {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return false;
    }
    if (exclude.some((matches) => matches(url))) return false;
    const sameHost = url.host === start.host;
    if (sameHost && looksLikeSitemap(raw)) return true;
    if (include.length > 0) return include.some((matches) => matches(url));
    return sameHost && (url.pathname === start.pathname || url.pathname.startsWith(prefix));
  };
}
