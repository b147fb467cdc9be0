import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * A help centre served on loopback for crawl tests (issue 22): N articles with site chrome on every page, categories,
 * robots.txt, a sitemap index, a noindex page, a redirect, a page that never answers, a binary download, a linked PDF,
 * validators with 304, and controls to edit, remove and unlink articles. Dependency-free but node:http.
 *
 * Layout: `/` links the categories and the special pages; `/categories/{n}` lists 20 articles each; every
 * `/articles/{id}` has a canonical link, its distinctive body (`articleMarker(id)`) and links to 5 other articles,
 * some with `utm_*` parameters or fragments. SLOW_PATH never answers: give the site reader a short `pageTimeoutMs`.
 * robots.txt disallows `/private/` and names `/sitemap.xml`, an index of `/sitemaps/articles.xml` and
 * `/sitemaps/pages.xml`.
 */

/** Text in each kind of site chrome; none of it may reach a stored passage. */
export const CHROME_MARKERS = ['HEADER-CHROME', 'NAV-CHROME', 'COOKIE-CHROME', 'ASIDE-CHROME', 'FOOTER-CHROME'] as const;
/** Text only the pages a crawl must not keep carry (robots-disallowed, noindex by meta, noindex by header). */
export const PRIVATE_MARKER = 'PRIVATE-PAGE-TEXT';
export const NOINDEX_MARKER = 'NOINDEX-PAGE-TEXT';
export const NOINDEX_HEADER_MARKER = 'NOINDEX-HEADER-PAGE-TEXT';
/** Text of the linked PDF (/files/trail-guide.pdf). */
export const PDF_MARKER = 'PDF-GUIDE-TEXT';
export const PDF_PATH = '/files/trail-guide.pdf';
export const ZIP_PATH = '/files/brochure.zip';
export const REDIRECT_PATH = '/old/returns-policy';
export const SLOW_PATH = '/status/live';
export const NOINDEX_PATH = '/drafts/upcoming-sale';
export const NOINDEX_HEADER_PATH = '/drafts/staff-notes';
export const PRIVATE_PATH = '/private/internal-procedures';
/** Articles per category page. */
export const CATEGORY_SIZE = 20;

/** The marker that appears in article `id`'s body and nowhere else (`ARTICLE-7-BODY` is not inside `ARTICLE-70-BODY`). */
export function articleMarker(id: number): string {
  return `ARTICLE-${id}-BODY`;
}

export function articlePath(id: number): string {
  return `/articles/${id}`;
}

export interface HelpCentreSite {
  /** `http://127.0.0.1:<port>` (no trailing slash). */
  url: string;
  close(): Promise<void>;
  /** Replaces article `id`'s body with `text`; its ETag and Last-Modified change. */
  edit(id: number, text: string): void;
  /** Article `id` answers 404 from now on (pages still link to it). */
  remove(id: number): void;
  /** No page, category or sitemap links to article `id` any more (it still answers 200). */
  unlink(id: number): void;
  /** GETs served, by path (no query) then status: `requests['/articles/3']?.[304]`. */
  requests: Record<string, Record<number, number>>;
  /** GETs served in all, or of one path, or of one path with one status. */
  count(path?: string, status?: number): number;
  /** Bytes of the bodies sent with 200 so far (headers not counted). */
  bytesSent(): number;
}

const TOPICS = ['returns', 'shipping', 'sizing', 'warranty', 'payments', 'tents', 'sleeping bags', 'boots', 'jackets', 'stoves', 'backpacks', 'gift cards'];
const ACTIONS = ['return', 'track', 'choose', 'repair', 'clean', 'pay for', 'store', 'exchange', 'register', 'pack'];
const EPOCH = Date.UTC(2026, 0, 1);

interface Article {
  id: number;
  title: string;
  body: string;
  version: number;
  removed: boolean;
  unlinked: boolean;
}

function escape(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}

function defaultBody(id: number): string {
  const topic = TOPICS[id % TOPICS.length]!;
  return [
    `This is ${articleMarker(id)}. It explains how our outdoor shop handles ${topic} for order number series ${id * 7919}.`,
    `Step one for case ${id}: open your account, find the order and choose the ${topic} option that fits. Keep the receipt number ${id * 31} at hand.`,
    `If anything about ${topic} case ${id} is unclear, our support team answers within one working day.`,
  ].join('\n\n');
}

/** A one-page PDF whose text is `lines`, with a Title; hand-assembled so the site needs no library. */
export function tinyPdf(options: { title: string; lines: string[] }): Buffer {
  const pdfString = (s: string): string => `(${s.replace(/[\\()]/g, (c) => `\\${c}`)})`;
  const content = `BT /F1 12 Tf 72 720 Td ${options.lines.map((line, i) => `${i === 0 ? '' : '0 -16 Td '}${pdfString(line)} Tj`).join(' ')} ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Title ${pdfString(options.title)} /Producer (help-centre-site) >>`,
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 6 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** Bytes of a small zip archive (one stored file); the site serves it as a download. */
function tinyZip(): Buffer {
  const name = Buffer.from('brochure.txt');
  const data = Buffer.from('Brochure: not a web page.');
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(10, 4);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(name.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(10, 6);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(data.length, 24);
  central.writeUInt16LE(name.length, 28);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(46 + name.length, 12);
  end.writeUInt32LE(30 + name.length + data.length, 16);
  return Buffer.concat([local, name, data, central, name, end]);
}

export async function startHelpCentreSite(options: { articles: number }): Promise<HelpCentreSite> {
  const total = options.articles;
  const articles = new Map<number, Article>();
  for (let id = 1; id <= total; id += 1) {
    const action = ACTIONS[id % ACTIONS.length]!;
    const topic = TOPICS[(id * 5) % TOPICS.length]!;
    articles.set(id, { id, title: `How to ${action} ${topic} (guide ${id})`, body: defaultBody(id), version: 0, removed: false, unlinked: false });
  }
  const requests: Record<string, Record<number, number>> = {};
  let bytesSent = 0;
  const categories = Math.max(1, Math.ceil(total / CATEGORY_SIZE));
  const pdf = tinyPdf({ title: 'Trail guide', lines: [`${PDF_MARKER}: the trail guide.`, 'Pack water, a map and a warm layer.'] });
  const zip = tinyZip();
  let base = '';

  const linked = (id: number): boolean => {
    const article = articles.get(id);
    return article !== undefined && !article.unlinked;
  };

  const page = (p: { title: string; main: string; head?: string }): string => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escape(p.title)} | Outdoor Shop Help Centre</title>${p.head ?? ''}</head>
<body>
<header class="site-header"><a href="/">Outdoor Shop Help Centre</a><p>HEADER-CHROME Free shipping on orders over 50 euros.</p>
<form role="search" action="/search"><input name="q" placeholder="Search"></form></header>
<nav aria-label="Main"><ul><li><a href="/">Home NAV-CHROME</a></li>${Array.from({ length: Math.min(categories, 5) }, (_, i) => `<li><a href="/categories/${i + 1}">Category ${i + 1}</a></li>`).join('')}</ul></nav>
<div class="cookie-banner" id="cookie-consent" role="dialog" aria-label="Cookie consent"><p>COOKIE-CHROME We use cookies to improve your experience and to measure traffic. By continuing you accept our use of cookies.</p><button>Accept all</button><button>Manage preferences</button></div>
<main>${p.main}</main>
<aside class="sidebar"><h2>Popular articles</h2><p>ASIDE-CHROME Readers also viewed these guides.</p><ul>${[1, 2, 3]
    .filter(linked)
    .map((id) => `<li><a href="${articlePath(id)}">${escape(articles.get(id)!.title)}</a></li>`)
    .join('')}</ul></aside>
<footer class="site-footer"><p>FOOTER-CHROME Copyright 2026 Outdoor Shop. All rights reserved.</p><a href="/">Help home</a></footer>
</body></html>`;

  const related = (id: number): string[] => {
    const out: string[] = [];
    const candidates = [id + 1, id + 2, id * 3, id + 11, id - 1, id + 17];
    candidates.forEach((raw, i) => {
      const other = ((raw - 1 + total * 4) % total) + 1;
      if (other === id || !linked(other) || out.length >= 5) return;
      const suffix = i === 1 ? '?utm_source=help-centre&utm_medium=related' : i === 2 ? '#steps' : i === 3 ? '?utm_campaign=spring#top' : '';
      out.push(`<li><a href="${articlePath(other)}${suffix}">${escape(articles.get(other)!.title)}</a></li>`);
    });
    return out;
  };

  const articleHtml = (article: Article): string =>
    page({
      title: article.title,
      head: `<link rel="canonical" href="${base}${articlePath(article.id)}">`,
      main: `<article><h1>${escape(article.title)}</h1>${article.body
        .split(/\n{2,}/)
        .map((paragraph) => `<p>${escape(paragraph)}</p>`)
        .join('\n')}<h2 id="steps">Related articles</h2><ul>${related(article.id).join('')}</ul></article>`,
    });

  const categoryHtml = (n: number): string => {
    const ids = Array.from({ length: CATEGORY_SIZE }, (_, i) => (n - 1) * CATEGORY_SIZE + i + 1).filter((id) => id <= total && linked(id));
    return page({
      title: `Category ${n}`,
      main: `<h1>Category ${n}</h1><p>Guides in category ${n} of the help centre.</p><ul>${ids
        .map((id) => `<li><a href="${articlePath(id)}${id % 4 === 0 ? '?utm_source=category' : ''}">${escape(articles.get(id)!.title)}</a></li>`)
        .join('')}</ul>`,
    });
  };

  const homeHtml = (): string =>
    page({
      title: 'Help Centre',
      main: `<h1>How can we help?</h1><p>Browse the guides of the Outdoor Shop help centre by category.</p><ul>${Array.from(
        { length: categories },
        (_, i) => `<li><a href="/categories/${i + 1}">Category ${i + 1}</a></li>`,
      ).join('')}</ul><h2>More</h2><ul>
<li><a href="${REDIRECT_PATH}">Returns policy (old address)</a></li>
<li><a href="${NOINDEX_PATH}">Upcoming sale</a></li>
<li><a href="${NOINDEX_HEADER_PATH}">Staff notes</a></li>
<li><a href="${PRIVATE_PATH}">Internal procedures</a></li>
<li><a href="${SLOW_PATH}">Service status</a></li>
<li><a href="${ZIP_PATH}">Download our brochure</a></li>
<li><a href="${PDF_PATH}">Trail guide (PDF)</a></li>
</ul>`,
    });

  const robotsTxt = (): string => `User-agent: *\nDisallow: /private/\n\nSitemap: ${base}/sitemap.xml\n`;
  const sitemapIndex = (): string =>
    `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n<sitemap><loc>${base}/sitemaps/articles.xml</loc></sitemap>\n<sitemap><loc>${base}/sitemaps/pages.xml</loc></sitemap>\n</sitemapindex>\n`;
  const urlset = (paths: string[]): string =>
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${paths.map((p) => `<url><loc>${base}${p}</loc></url>`).join('\n')}\n</urlset>\n`;

  /** Sends with an ETag and a Last-Modified, or 304 when the request's validators still match. */
  const sendValidated = (
    req: IncomingMessage,
    res: ServerResponse,
    body: { type: string; bytes: Buffer | string; version: number; headers?: Record<string, string> },
  ): number => {
    const bytes = typeof body.bytes === 'string' ? Buffer.from(body.bytes) : body.bytes;
    const etag = `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 16)}"`;
    const lastModified = new Date(EPOCH + body.version * 86_400_000).toUTCString();
    const inm = req.headers['if-none-match'];
    const ims = req.headers['if-modified-since'];
    const fresh = inm !== undefined ? inm.split(',').some((tag) => tag.trim() === etag) : ims !== undefined && Date.parse(ims) >= Date.parse(lastModified);
    const headers = { etag, 'last-modified': lastModified, ...body.headers };
    if (fresh) {
      res.writeHead(304, headers).end();
      return 304;
    }
    res.writeHead(200, { 'content-type': body.type, 'content-length': String(bytes.length), ...headers }).end(bytes);
    if (req.method === 'GET') bytesSent += bytes.length;
    return 200;
  };

  const html = 'text/html; charset=utf-8';
  const notFound = (res: ServerResponse): number => {
    res.writeHead(404, { 'content-type': html }).end('<!doctype html><title>Not found</title><h1>Not found</h1>');
    return 404;
  };

  const route = (req: IncomingMessage, res: ServerResponse, path: string): number | null => {
    if (path === '/') return sendValidated(req, res, { type: html, bytes: homeHtml(), version: 0 });
    if (path === '/robots.txt') return sendValidated(req, res, { type: 'text/plain', bytes: robotsTxt(), version: 0 });
    if (path === '/sitemap.xml') return sendValidated(req, res, { type: 'application/xml', bytes: sitemapIndex(), version: 0 });
    if (path === '/sitemaps/articles.xml') {
      const paths = [...articles.values()].filter((a) => !a.unlinked).map((a) => articlePath(a.id));
      return sendValidated(req, res, { type: 'application/xml', bytes: urlset(paths), version: 0 });
    }
    if (path === '/sitemaps/pages.xml') {
      const paths = ['/', ...Array.from({ length: categories }, (_, i) => `/categories/${i + 1}`), PDF_PATH];
      return sendValidated(req, res, { type: 'application/xml', bytes: urlset(paths), version: 0 });
    }
    const article = /^\/articles\/(\d+)$/.exec(path);
    if (article) {
      const found = articles.get(Number(article[1]));
      if (!found || found.removed) return notFound(res);
      return sendValidated(req, res, { type: html, bytes: articleHtml(found), version: found.version });
    }
    const category = /^\/categories\/(\d+)$/.exec(path);
    if (category) {
      const n = Number(category[1]);
      if (n < 1 || n > categories) return notFound(res);
      return sendValidated(req, res, { type: html, bytes: categoryHtml(n), version: 0 });
    }
    if (path === REDIRECT_PATH) {
      res.writeHead(301, { location: articlePath(1) }).end();
      return 301;
    }
    if (path === NOINDEX_PATH) {
      const main = `<h1>Upcoming sale</h1><p>${NOINDEX_MARKER} The spring sale starts soon; this draft is not for search engines.</p>`;
      return sendValidated(req, res, { type: html, bytes: page({ title: 'Upcoming sale', head: '<meta name="robots" content="noindex, nofollow">', main }), version: 0 });
    }
    if (path === NOINDEX_HEADER_PATH) {
      const main = `<h1>Staff notes</h1><p>${NOINDEX_HEADER_MARKER} Notes for staff, marked noindex by a response header.</p>`;
      return sendValidated(req, res, { type: html, bytes: page({ title: 'Staff notes', main }), version: 0, headers: { 'x-robots-tag': 'noindex' } });
    }
    if (path === PRIVATE_PATH) {
      const main = `<h1>Internal procedures</h1><p>${PRIVATE_MARKER} Procedures robots.txt keeps crawlers away from.</p>`;
      return sendValidated(req, res, { type: html, bytes: page({ title: 'Internal procedures', main }), version: 0 });
    }
    if (path === ZIP_PATH) return sendValidated(req, res, { type: 'application/zip', bytes: zip, version: 0 });
    if (path === PDF_PATH) return sendValidated(req, res, { type: 'application/pdf', bytes: pdf, version: 0 });
    if (path === SLOW_PATH) return null; // never answers
    return notFound(res);
  };

  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://site.invalid').pathname;
    const status = req.method === 'GET' || req.method === 'HEAD' ? route(req, res, path) : (res.writeHead(405).end(), 405);
    if (status === null || req.method !== 'GET') return;
    const byStatus = (requests[path] ??= {});
    byStatus[status] = (byStatus[status] ?? 0) + 1;
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the help centre did not get a port');
  base = `http://127.0.0.1:${address.port}`;

  const article = (id: number): Article => {
    const found = articles.get(id);
    if (!found) throw new Error(`the help centre has no article ${id}`);
    return found;
  };

  return {
    url: base,
    requests,
    bytesSent: () => bytesSent,
    count(path, status) {
      const paths = path === undefined ? Object.keys(requests) : [path];
      let n = 0;
      for (const p of paths) {
        for (const [s, c] of Object.entries(requests[p] ?? {})) if (status === undefined || Number(s) === status) n += c;
      }
      return n;
    },
    edit(id, text) {
      const found = article(id);
      found.body = text;
      found.version += 1;
    },
    remove(id) {
      article(id).removed = true;
    },
    unlink(id) {
      article(id).unlinked = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
