import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  articleMarker,
  articlePath,
  CHROME_MARKERS,
  NOINDEX_HEADER_PATH,
  NOINDEX_PATH,
  PDF_MARKER,
  PDF_PATH,
  REDIRECT_PATH,
  SLOW_PATH,
  startHelpCentreSite,
  ZIP_PATH,
  type HelpCentreSite,
} from '../testing/help-centre-site.js';
import { createSiteReader, USER_AGENT } from './site-reader.js';
import type { PageRead } from '@svc/core';

let site: HelpCentreSite;
beforeAll(async () => {
  site = await startHelpCentreSite({ articles: 30 });
});
afterAll(() => site.close());

let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

/** A loopback server answering with `handler`; closed after the test. */
async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const sockets = new Set<Socket>();
  const server = createServer(handler);
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

const reader = createSiteReader({ allowPrivateUrls: true });

function asPage(read: PageRead): Extract<PageRead, { kind: 'page' }> {
  if (read.kind !== 'page') throw new Error(`expected a page, got ${JSON.stringify(read)}`);
  return read;
}

describe('the site reader reads a help centre (issue 22)', () => {
  it('keeps the main content of every article and none of the header, navigation, cookie banner, sidebar or footer', async () => {
    for (const id of [1, 2, 9, 30]) {
      const page = asPage(await reader.read(`${site.url}${articlePath(id)}`, {}));
      expect(page.format).toBe('html');
      expect(page.text).toContain(articleMarker(id));
      expect(page.text).toContain(`Step one for case ${id}:`);
      for (const marker of CHROME_MARKERS) expect(page.text).not.toContain(marker);
      expect(page.title).toMatch(new RegExp(`\\(guide ${id}\\)$`));
      expect(page.text.startsWith(`# ${page.title}\n\n`)).toBe(true);
      expect(page.canonical).toBe(`${site.url}/articles/${id}`);
      expect(page.validators.etag).toMatch(/^".+"$/);
      expect(page.validators.lastModified).toMatch(/GMT$/);
      expect([page.noindex, page.nofollow, page.downloaded]).toEqual([false, false, true]);
    }
  });

  it('needs its landmark pass: Readability alone returns the cookie banner of these short articles', async () => {
    const html = await (await fetch(`${site.url}${articlePath(3)}`)).text();
    const alone = new Readability(parseHTML(html).document as unknown as Document).parse();
    expect(alone?.textContent).toContain('COOKIE-CHROME');
    expect(alone?.textContent).not.toContain(articleMarker(3));
  });

  it('returns every link absolute with its fragment dropped, navigation and tracking parameters included', async () => {
    const page = asPage(await reader.read(`${site.url}${articlePath(5)}`, {}));
    expect(page.links).toContain(`${site.url}/`);
    expect(page.links).toContain(`${site.url}/categories/1`);
    expect(page.links).toContain(`${site.url}/articles/7?utm_source=help-centre&utm_medium=related`);
    expect(page.links).toContain(`${site.url}/articles/15`);
    expect(page.links.some((link) => link.includes('#'))).toBe(false);
    expect(new Set(page.links).size).toBe(page.links.length);
    const home = asPage(await reader.read(`${site.url}/`, {}));
    expect(home.links).toEqual(expect.arrayContaining([`${site.url}${PDF_PATH}`, `${site.url}${ZIP_PATH}`, `${site.url}${REDIRECT_PATH}`]));
  });

  it('reports noindex and nofollow from the robots meta tag and noindex from the X-Robots-Tag header', async () => {
    expect(asPage(await reader.read(`${site.url}${NOINDEX_PATH}`, {}))).toMatchObject({ noindex: true, nofollow: true });
    expect(asPage(await reader.read(`${site.url}${NOINDEX_HEADER_PATH}`, {}))).toMatchObject({ noindex: true, nofollow: false });
    const url = await serve((_req, res) => {
      res.setHeader('x-robots-tag', ['otherbot: noindex', 'SvcConversationsBot: nofollow']);
      res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Scoped</h1><p>Directives for named crawlers.</p>');
    });
    expect(asPage(await reader.read(url, {}))).toMatchObject({ noindex: false, nofollow: true });
  });

  it('revalidates with If-None-Match and If-Modified-Since: 304 is not_modified and downloads nothing; an edit is read again', async () => {
    const url = `${site.url}${articlePath(12)}`;
    const first = asPage(await reader.read(url, {}));
    expect(await reader.read(url, { validators: first.validators })).toEqual({ kind: 'not_modified', downloaded: false });
    expect(await reader.read(url, { validators: { etag: null, lastModified: first.validators.lastModified } })).toEqual({ kind: 'not_modified', downloaded: false });
    expect(site.requests[articlePath(12)]).toEqual({ 200: 1, 304: 2 });
    site.edit(12, 'Article twelve now says: tents can be returned for 100 days.');
    const edited = asPage(await reader.read(url, { validators: first.validators }));
    expect(edited.text).toContain('tents can be returned for 100 days');
    expect(edited.validators.etag).not.toBe(first.validators.etag);
  });

  it('says a removed page is gone (404 and 410) and a server error failed', async () => {
    site.remove(20);
    expect(await reader.read(`${site.url}${articlePath(20)}`, {})).toEqual({ kind: 'gone', status: 404, downloaded: false });
    const url = await serve((req, res) => {
      if (req.url === '/gone') res.writeHead(410).end('gone');
      else if (req.url === '/forbidden') res.writeHead(403).end('no');
      else res.writeHead(503).end('down');
    });
    expect(await reader.read(`${url}/gone`, {})).toEqual({ kind: 'gone', status: 410, downloaded: false });
    expect(await reader.read(`${url}/down`, {})).toEqual({ kind: 'failed', reason: 'HTTP 503', status: 503, downloaded: false });
    expect(await reader.read(`${url}/forbidden`, {})).toMatchObject({ kind: 'failed', status: 403 });
  });

  it('follows a redirect to the article and reports the final URL', async () => {
    const page = asPage(await reader.read(`${site.url}${REDIRECT_PATH}`, {}));
    expect(page.url).toBe(`${site.url}/articles/1`);
    expect(page.text).toContain(articleMarker(1));
  });

  it('follows at most 5 redirects', async () => {
    const url = await serve((req, res) => {
      const n = Number(/^\/r\/(\d+)$/.exec(req.url ?? '')?.[1] ?? -1);
      if (n > 0) res.writeHead(302, { location: `/r/${n - 1}` }).end();
      else res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Landed</h1><p>After the redirects.</p>');
    });
    expect(asPage(await reader.read(`${url}/r/5`, {})).url).toBe(`${url}/r/0`);
    expect(await reader.read(`${url}/r/6`, {})).toEqual({ kind: 'skipped', reason: 'more than 5 redirects', downloaded: false });
  });

  it('gives up on a page that never answers at the page deadline', async () => {
    const quick = createSiteReader({ allowPrivateUrls: true, pageTimeoutMs: 400 });
    const started = Date.now();
    const read = await quick.read(`${site.url}${SLOW_PATH}`, {});
    const elapsed = Date.now() - started;
    expect(read).toEqual({ kind: 'failed', reason: 'no complete response within 0.4 s', status: null, downloaded: false });
    expect(elapsed).toBeGreaterThanOrEqual(380);
    expect(elapsed).toBeLessThan(2_000);
  });

  it('skips a page over 5 MB without reading it whole, announced or not', async () => {
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const url = await serve((req, res) => {
      const headers: Record<string, string> = { 'content-type': 'text/html' };
      if (req.url === '/announced') headers['content-length'] = String(6 * 1024 * 1024);
      res.writeHead(200, headers);
      res.write('<html><body><p>');
      let sent = 0;
      const more = (): void => {
        while (sent < 6 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end('</p></body></html>');
      };
      res.on('error', () => undefined);
      more();
    });
    expect(await reader.read(`${url}/streamed`, {})).toEqual({ kind: 'skipped', reason: 'larger than 5 MB', downloaded: true });
    expect(await reader.read(`${url}/announced`, {})).toEqual({ kind: 'skipped', reason: 'larger than 5 MB', downloaded: false });
  });

  it('skips a binary download without reading it, and reads a linked PDF', async () => {
    expect(await reader.read(`${site.url}${ZIP_PATH}`, {})).toEqual({ kind: 'skipped', reason: 'not an HTML page or a PDF (application/zip)', downloaded: false });
    const pdf = asPage(await reader.read(`${site.url}${PDF_PATH}`, {}));
    expect(pdf).toMatchObject({ format: 'pdf', title: 'Trail guide', canonical: null, links: [], noindex: false, downloaded: true });
    expect(pdf.text).toContain(PDF_MARKER);
    expect(pdf.validators.etag).not.toBeNull();
  });

  it('sniffs the bytes of an unlabelled download and fails an unreadable PDF', async () => {
    const url = await serve((req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(req.url === '/page' ? '<!doctype html><html><body><h1>Sniffed</h1><p>An unlabelled page.</p></body></html>' : '%PDF-1.4 this is not really a PDF');
    });
    expect(asPage(await reader.read(`${url}/page`, {})).text).toBe('# Sniffed\n\nAn unlabelled page.');
    expect(await reader.read(`${url}/broken.pdf`, {})).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/^unreadable PDF/), downloaded: true });
    expect(await reader.read(`${url}/files/setup.exe`, {})).toEqual({ kind: 'skipped', reason: 'not an HTML page or a PDF (application/octet-stream)', downloaded: false });
  });

  it('reads a sitemap index and a sitemap', async () => {
    expect(await reader.read(`${site.url}/sitemap.xml`, {})).toMatchObject({
      kind: 'sitemap',
      url: `${site.url}/sitemap.xml`,
      urls: [`${site.url}/sitemaps/articles.xml`, `${site.url}/sitemaps/pages.xml`],
      downloaded: true,
    });
    const articles = await reader.read(`${site.url}/sitemaps/articles.xml`, {});
    expect(articles.kind === 'sitemap' && articles.urls.length).toBe(30);
    expect(articles.kind === 'sitemap' && articles.urls[0]).toBe(`${site.url}/articles/1`);
  });

  it('sends its user agent and decodes the declared charset', async () => {
    const agents: string[] = [];
    const url = await serve((req, res) => {
      agents.push(req.headers['user-agent'] ?? '');
      res.writeHead(200, { 'content-type': 'text/html; charset=iso-8859-1' }).end(Buffer.from('<h1>Caf\xe9</h1><p>Cr\xe8me br\xfbl\xe9e.</p>', 'latin1'));
    });
    expect(asPage(await reader.read(url, {})).text).toBe('# Café\n\nCrème brûlée.');
    expect(agents).toEqual([USER_AGENT]);
    expect(USER_AGENT).toBe('SvcConversationsBot/1.0 (+https://github.com/svc-conversations/svc-conversations)');
  });

  it('throws only when aborted', async () => {
    const controller = new AbortController();
    const reading = reader.read(`${site.url}${SLOW_PATH}`, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('stopping')), 50);
    await expect(reading).rejects.toThrow('stopping');
    expect(await reader.read('not a url', {})).toEqual({ kind: 'skipped', reason: 'not a valid URL', downloaded: false });
    expect(await reader.read('ftp://example.com/file', {})).toMatchObject({ kind: 'skipped', reason: expect.stringMatching(/http and https/) });
    const badValidator = await reader.read(`${site.url}/`, { validators: { etag: '"a\nb"', lastModified: null } });
    expect(badValidator).toMatchObject({ kind: 'failed', status: null, downloaded: false });
    expect((await reader.robots('not an origin', {})).isAllowed('https://example.com/')).toBe(false);
  });
});

describe('robots.txt for SvcConversationsBot', () => {
  it('applies the help centre rules and lists its sitemaps', async () => {
    const rules = await reader.robots(site.url, {});
    expect(rules.isAllowed(`${site.url}/private/internal-procedures`)).toBe(false);
    expect(rules.isAllowed(`${site.url}${articlePath(3)}`)).toBe(true);
    expect(rules.isAllowed('https://elsewhere.example/articles/3')).toBe(false);
    expect(rules.sitemaps).toEqual([`${site.url}/sitemap.xml`]);
  });

  it('follows the group for our user agent over the wildcard', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /\n\nUser-agent: SvcConversationsBot\nDisallow: /drafts/\n');
    });
    const rules = await reader.robots(url, {});
    expect(rules.isAllowed(`${url}/help/returns`)).toBe(true);
    expect(rules.isAllowed(`${url}/drafts/sale`)).toBe(false);
  });

  it('allows everything without a robots.txt and nothing when it cannot be read', async () => {
    const missing = await serve((_req, res) => res.writeHead(404).end());
    expect((await reader.robots(missing, {})).isAllowed(`${missing}/anything`)).toBe(true);
    const broken = await serve((_req, res) => res.writeHead(500).end());
    expect((await reader.robots(broken, {})).isAllowed(`${broken}/anything`)).toBe(false);
    const closed = await serve(() => undefined);
    await cleanups.pop()!();
    expect((await reader.robots(closed, {})).isAllowed(`${closed}/anything`)).toBe(false);
  });
});

describe('the address policy, with private addresses not allowed', () => {
  /**
   * DNS is answered by the test: `help.example` resolves to a public address, which the policy approves and the
   * test's dial mapping sends to the loopback site; `intranet.example` resolves to a private address only.
   */
  const dialled: string[] = [];
  const strict = createSiteReader({
    allowPrivateUrls: false,
    connect: {
      resolve: async (hostname) => {
        if (hostname === 'help.example') return [{ address: '93.184.215.14', family: 4 }];
        if (hostname === 'intranet.example') return [{ address: '10.1.2.3', family: 4 }];
        throw Object.assign(new Error(`unexpected lookup of ${hostname}`), { code: 'ENOTFOUND' });
      },
      dialApproved: (approved) => {
        dialled.push(approved);
        return '127.0.0.1';
      },
    },
  });

  it('reads a public name, and refuses a redirect to a loopback address or to a name with only private answers', async () => {
    const url = await serve((req, res) => {
      const port = (req.socket.address() as { port: number }).port;
      if (req.url === '/to-loopback') res.writeHead(302, { location: `http://127.0.0.1:${port}/page` }).end();
      else if (req.url === '/to-intranet') res.writeHead(301, { location: `http://intranet.example:${port}/page` }).end();
      else if (req.url === '/to-metadata') res.writeHead(307, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      else res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Public page</h1><p>Reachable by name.</p>');
    });
    const port = new URL(url).port;
    const publicUrl = `http://help.example:${port}`;
    expect(asPage(await strict.read(`${publicUrl}/page`, {})).text).toBe('# Public page\n\nReachable by name.');
    expect(dialled).toEqual(['93.184.215.14']);
    expect(await strict.read(`${publicUrl}/to-loopback`, {})).toEqual({
      kind: 'skipped',
      reason: expect.stringMatching(/^redirected to a refused address: .*private, loopback.*127\.0\.0\.1/),
      downloaded: false,
    });
    expect(await strict.read(`${publicUrl}/to-intranet`, {})).toEqual({
      kind: 'skipped',
      reason: 'redirected to a refused address: intranet.example resolves only to private or reserved addresses',
      downloaded: false,
    });
    expect(await strict.read(`${publicUrl}/to-metadata`, {})).toMatchObject({ kind: 'skipped', reason: expect.stringMatching(/169\.254\.169\.254/) });
    expect(await strict.read(`${url}/page`, {})).toMatchObject({ kind: 'skipped', reason: expect.stringMatching(/^refused: /) });
    expect(await strict.read('http://printer.local/page', {})).toMatchObject({ kind: 'skipped', reason: expect.stringMatching(/local name/) });
    expect(dialled).toEqual(['93.184.215.14', '93.184.215.14', '93.184.215.14', '93.184.215.14']);
  });

  it('reads no robots.txt from a refused address', async () => {
    expect((await strict.robots(site.url, {})).isAllowed(`${site.url}/`)).toBe(false);
  });
});
