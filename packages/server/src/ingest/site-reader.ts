import type { IncomingHttpHeaders } from 'node:http';
import { DOMParser } from 'linkedom';
import robotsParser from 'robots-parser';
import { webUrlProblem } from '../net/address-policy.js';
import type { ConnectOptions } from '../net/connect.js';
import { absoluteHttpUrl, BOT_NAME, extractHtml, robotsDirectives } from './html.js';
import { GetError, getOnce, type Hop } from './http-get.js';
import { extractPdf } from './pdf.js';
import type { PageRead, PageValidators, RobotsRules, SiteReader } from '@svc/core';

export const USER_AGENT = `${BOT_NAME}/1.0 (+https://github.com/svc-conversations/svc-conversations)`;
/** DESIGN.md section 11: a page's deadline and size limit. */
export const PAGE_TIMEOUT_MS = 15_000;
export const MAX_PAGE_BYTES = 5 * 1024 * 1024;
export const MAX_REDIRECTS = 5;
/** robots.txt files are read up to 500 KiB, as the large crawlers do; the rest is ignored. */
const MAX_ROBOTS_BYTES = 500 * 1024;

export interface SiteReaderOptions {
  /** SVC_ALLOW_PRIVATE_URLS: loopback, private and link-local addresses may be read (tests, intranets). */
  allowPrivateUrls: boolean;
  /** Deadline of one read, redirects and body included. Default 15 s. */
  pageTimeoutMs?: number;
  /** Default 5 MB. */
  maxPageBytes?: number;
  /** Test only: name resolution and dialling (see ConnectOptions in net/connect.ts). */
  connect?: Omit<ConnectOptions, 'allowPrivate'>;
}

type Format = 'html' | 'pdf' | 'xml' | 'unknown' | 'other';

function mediaType(headers: IncomingHttpHeaders): string {
  return (headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}

function formatOf(headers: IncomingHttpHeaders): Format {
  const type = mediaType(headers);
  if (type === '') return 'unknown';
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  if (type === 'application/pdf' || type === 'application/x-pdf') return 'pdf';
  if (type === 'application/xml' || type === 'text/xml' || type.endsWith('+xml')) return 'xml';
  // Servers that do not know better label PDFs and pages as downloads; the bytes decide.
  if (type === 'application/octet-stream' || type === 'binary/octet-stream') return 'unknown';
  return 'other';
}

/** Extensions an unlabelled response may still be a page or a PDF under; `setup.exe` is not read to find out. */
const PAGE_EXTENSION = /^(html?|xhtml|pdf|xml|php|aspx?|jspx?|cfm|shtml)$/;

function mayBePage(url: URL): boolean {
  const last = url.pathname.split('/').pop() ?? '';
  const dot = last.lastIndexOf('.');
  return dot === -1 || PAGE_EXTENSION.test(last.slice(dot + 1).toLowerCase());
}

/** The format the bytes show, for responses without a useful content type. */
function sniff(body: Buffer): Format {
  if (body.subarray(0, 5).toString('latin1') === '%PDF-') return 'pdf';
  const head = body.subarray(0, 1024).toString('utf8').replace(/^\uFEFF/, '').trimStart().toLowerCase();
  if (head.startsWith('<?xml') || head.startsWith('<urlset') || head.startsWith('<sitemapindex')) return 'xml';
  if (head.startsWith('<!doctype html') || head.startsWith('<html') || /<(head|body|title|p|div)[\s>]/.test(head)) return 'html';
  return 'other';
}

/** Decodes a text body by its declared charset (header, then `<meta charset>`), UTF-8 otherwise. */
function decode(body: Buffer, headers: IncomingHttpHeaders): string {
  const declared = /charset\s*=\s*"?([\w.:-]+)/i.exec(headers['content-type'] ?? '')?.[1]
    ?? /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(body.subarray(0, 2048).toString('latin1'))?.[1];
  try {
    return new TextDecoder(declared ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

function validatorsOf(headers: IncomingHttpHeaders): PageValidators {
  const etag = headers.etag;
  const lastModified = headers['last-modified'];
  return { etag: typeof etag === 'string' && etag !== '' ? etag : null, lastModified: typeof lastModified === 'string' && lastModified !== '' ? lastModified : null };
}

/** Robots directives that carry a value after a colon, unlike a user agent's name in `otherbot: noindex`. */
const VALUED_DIRECTIVE = /^(unavailable_after|max-snippet|max-image-preview|max-video-preview)$/i;

/**
 * `X-Robots-Tag` directives meant for every crawler or for ours. Node joins repeated headers with commas, so the
 * value is read token by token: `otherbot: noindex, nofollow` scopes both to otherbot until another agent is named.
 */
function robotsHeader(headers: IncomingHttpHeaders): { noindex: boolean; nofollow: boolean } {
  const raw = headers['x-robots-tag'];
  const value = Array.isArray(raw) ? raw.join(',') : (raw ?? '');
  let agent: string | null = null;
  const ours: string[] = [];
  for (const token of value.split(',')) {
    const scoped = /^\s*([\w-]+)\s*:(.*)$/.exec(token);
    let directive = token;
    if (scoped && !VALUED_DIRECTIVE.test(scoped[1]!)) {
      agent = scoped[1]!.toLowerCase();
      directive = scoped[2]!;
    }
    if (agent === null || agent === BOT_NAME.toLowerCase()) ours.push(directive);
  }
  return robotsDirectives(ours.join(','));
}

function sitemapUrls(xml: string, base: string): string[] | null {
  const document = new DOMParser().parseFromString(xml, 'text/xml') as unknown as Document;
  const root = document.documentElement;
  const name = root?.localName ?? root?.tagName?.replace(/^.*:/, '');
  if (name !== 'urlset' && name !== 'sitemapindex') return null;
  const urls = new Set<string>();
  for (const element of Array.from(root!.querySelectorAll('*'))) {
    if ((element.localName ?? element.tagName.replace(/^.*:/, '')) !== 'loc') continue;
    const url = absoluteHttpUrl(element.textContent, base);
    if (url) urls.add(url);
  }
  return [...urls];
}

function errorReason(error: GetError, seconds: number): string {
  if (error.code === 'ETIMEDOUT') return `no complete response within ${seconds} s`;
  if (error.code === 'ECONNREFUSED') return 'connection refused';
  if (error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN') return 'the host name does not resolve';
  return error.message || error.code;
}

interface Fetched {
  url: string;
  hop: Hop;
}

type Refusal = { kind: 'skipped'; reason: string; downloaded: boolean } | { kind: 'failed'; reason: string; status: number | null; downloaded: boolean };

/** The site reader of DESIGN.md section 11: the Node adapter behind core's `SiteReader` port. */
export function createSiteReader(options: SiteReaderOptions): SiteReader {
  const connect: ConnectOptions = { ...options.connect, allowPrivate: options.allowPrivateUrls };
  const timeoutMs = options.pageTimeoutMs ?? PAGE_TIMEOUT_MS;
  const maxBytes = options.maxPageBytes ?? MAX_PAGE_BYTES;
  const seconds = Math.round(timeoutMs / 100) / 10;

  /** GET with redirects followed by hand, every hop judged by the address policy. */
  async function fetchFollowing(
    url: string,
    request: {
      headers: Record<string, string>;
      maxBytes: number;
      truncate?: boolean;
      signal: AbortSignal | undefined;
      wantBody: (headers: IncomingHttpHeaders, url: URL) => boolean;
    },
  ): Promise<Fetched | Refusal> {
    const deadline = Date.now() + timeoutMs;
    let current: URL;
    try {
      current = new URL(url);
    } catch {
      return { kind: 'skipped', reason: 'not a valid URL', downloaded: false };
    }
    for (let hops = 0; ; hops += 1) {
      const problem = webUrlProblem(current, options.allowPrivateUrls);
      if (problem) return { kind: 'skipped', reason: hops === 0 ? `refused: ${problem}` : `redirected to a refused address: ${problem}`, downloaded: false };
      let hop: Hop;
      try {
        hop = await getOnce(current, {
          connect,
          headers: { 'user-agent': USER_AGENT, accept: 'text/html,application/xhtml+xml,application/pdf,application/xml;q=0.9,*/*;q=0.1', ...request.headers },
          deadline,
          maxBytes: request.maxBytes,
          truncate: request.truncate ?? false,
          ...(request.signal ? { signal: request.signal } : {}),
          wantBody: (status, headers) => status >= 200 && status < 300 && request.wantBody(headers, current),
        });
      } catch (error) {
        // Only an abort escapes; anything else (a header Node refuses to send, say) is this page failing.
        if (request.signal?.aborted) throw error;
        if (!(error instanceof GetError)) return { kind: 'failed', reason: (error as Error).message, status: null, downloaded: false };
        if (error.code === 'EPRIVATE') {
          return { kind: 'skipped', reason: `${hops === 0 ? 'refused' : 'redirected to a refused address'}: ${error.message}`, downloaded: false };
        }
        return { kind: 'failed', reason: errorReason(error, seconds), status: null, downloaded: error.received > 0 };
      }
      const location = hop.headers.location;
      if ([301, 302, 303, 307, 308].includes(hop.status) && location) {
        if (hops >= MAX_REDIRECTS) return { kind: 'skipped', reason: `more than ${MAX_REDIRECTS} redirects`, downloaded: false };
        try {
          current = new URL(location, current);
        } catch {
          return { kind: 'failed', reason: `HTTP ${hop.status} to an invalid address`, status: hop.status, downloaded: false };
        }
        continue;
      }
      return { url: current.href, hop };
    }
  }

  async function read(url: string, readOptions: { validators?: PageValidators; signal?: AbortSignal }): Promise<PageRead> {
    const headers: Record<string, string> = {};
    if (readOptions.validators?.etag) headers['if-none-match'] = readOptions.validators.etag;
    if (readOptions.validators?.lastModified) headers['if-modified-since'] = readOptions.validators.lastModified;
    const fetched = await fetchFollowing(url, {
      headers,
      maxBytes,
      signal: readOptions.signal,
      wantBody: (responseHeaders, at) => {
        const format = formatOf(responseHeaders);
        return format !== 'other' && (format !== 'unknown' || mayBePage(at));
      },
    });
    if ('kind' in fetched) return fetched;
    const { hop } = fetched;
    if (hop.status === 304) return { kind: 'not_modified', downloaded: false };
    if (hop.status === 404 || hop.status === 410) return { kind: 'gone', status: hop.status, downloaded: false };
    if (hop.status < 200 || hop.status >= 300) return { kind: 'failed', reason: `HTTP ${hop.status}`, status: hop.status, downloaded: false };
    if (hop.tooLarge) return { kind: 'skipped', reason: `larger than ${Math.round(maxBytes / 1024 / 1024)} MB`, downloaded: hop.received > 0 };
    const declared = formatOf(hop.headers);
    if (hop.body === null) return { kind: 'skipped', reason: `not an HTML page or a PDF (${mediaType(hop.headers) || 'no content type'})`, downloaded: false };
    const format = declared === 'unknown' ? sniff(hop.body) : declared;
    const validators = validatorsOf(hop.headers);
    const robots = robotsHeader(hop.headers);
    if (format === 'html') {
      let page;
      try {
        page = extractHtml(decode(hop.body, hop.headers), fetched.url);
      } catch (error) {
        return { kind: 'failed', reason: `unparsable HTML: ${(error as Error).message}`, status: hop.status, downloaded: true };
      }
      return {
        kind: 'page',
        url: fetched.url,
        format: 'html',
        canonical: page.canonical,
        title: page.title || new URL(fetched.url).pathname,
        text: page.text,
        links: page.links,
        noindex: page.noindex || robots.noindex,
        nofollow: page.nofollow || robots.nofollow,
        validators,
        downloaded: true,
      };
    }
    if (format === 'pdf') {
      try {
        const pdf = await extractPdf(hop.body);
        const name = decodeURIComponent(new URL(fetched.url).pathname.split('/').pop() || fetched.url);
        return {
          kind: 'page',
          url: fetched.url,
          format: 'pdf',
          canonical: null,
          title: pdf.title || name,
          text: pdf.pages.filter(Boolean).join('\n\n'),
          links: [],
          ...robots,
          validators,
          downloaded: true,
        };
      } catch (error) {
        return { kind: 'failed', reason: `unreadable PDF: ${(error as Error).message}`, status: hop.status, downloaded: true };
      }
    }
    if (format === 'xml') {
      let urls: string[] | null;
      try {
        urls = sitemapUrls(decode(hop.body, hop.headers), fetched.url);
      } catch (error) {
        return { kind: 'failed', reason: `unparsable XML: ${(error as Error).message}`, status: hop.status, downloaded: true };
      }
      if (urls) return { kind: 'sitemap', url: fetched.url, urls, validators, downloaded: true };
    }
    return { kind: 'skipped', reason: 'not an HTML page or a PDF', downloaded: true };
  }

  async function robots(origin: string, robotsOptions: { signal?: AbortSignal }): Promise<RobotsRules> {
    const nothing: RobotsRules = { isAllowed: () => false, sitemaps: [] };
    let robotsUrl: string;
    try {
      robotsUrl = new URL('/robots.txt', origin).href;
    } catch {
      return nothing;
    }
    const fetched = await fetchFollowing(robotsUrl, { headers: {}, maxBytes: MAX_ROBOTS_BYTES, truncate: true, signal: robotsOptions.signal, wantBody: () => true });
    // Unreachable, refused or a server error: the site's rules are unknown, so nothing is read (RFC 9309 2.3.1.4).
    if ('kind' in fetched) return nothing;
    const { hop } = fetched;
    if (hop.status >= 500 || hop.status === 429) return nothing;
    // No robots.txt (any 4xx): everything is allowed (RFC 9309 2.3.1.3).
    if (hop.status >= 400) return { isAllowed: () => true, sitemaps: [] };
    if (hop.status < 200 || hop.status >= 300) return nothing;
    // A file over the limit is read up to it, as RFC 9309 2.5 allows.
    const text = hop.body ? decode(hop.body, hop.headers) : '';
    const parsed = robotsParser(robotsUrl, text);
    const home = new URL(robotsUrl).origin;
    return {
      // Rules of this origin only: a URL of another origin is not this file's to allow.
      isAllowed: (url) => {
        try {
          if (new URL(url).origin !== home) return false;
        } catch {
          return false;
        }
        return parsed.isAllowed(url, BOT_NAME) !== false;
      },
      sitemaps: parsed.getSitemaps().flatMap((sitemap) => absoluteHttpUrl(sitemap, robotsUrl) ?? []),
    };
  }

  return { read, robots };
}
