import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractPdf } from '../ingest/pdf.js';
import {
  articleMarker,
  articlePath,
  CHROME_MARKERS,
  NOINDEX_MARKER,
  NOINDEX_PATH,
  PDF_MARKER,
  PDF_PATH,
  PRIVATE_PATH,
  REDIRECT_PATH,
  SLOW_PATH,
  startHelpCentreSite,
  ZIP_PATH,
  type HelpCentreSite,
} from './help-centre-site.js';

let site: HelpCentreSite;
beforeAll(async () => {
  site = await startHelpCentreSite({ articles: 45 });
});
afterAll(() => site.close());

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${site.url}${path}`, { headers, redirect: 'manual' });

describe('the loopback help centre crawl tests use', () => {
  it('serves articles with chrome, a canonical link and related links with tracking parameters and fragments', async () => {
    const res = await get(articlePath(7));
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(articleMarker(7));
    for (const marker of CHROME_MARKERS) expect(html).toContain(marker);
    expect(html).toContain(`<link rel="canonical" href="${site.url}/articles/7">`);
    expect(html).toMatch(/href="\/articles\/\d+\?utm_source=help-centre&amp;utm_medium=related"|href="\/articles\/\d+\?utm_source=help-centre&utm_medium=related"/);
    expect(html).toMatch(/href="\/articles\/\d+#steps"/);
    expect(html.match(/<li><a href="\/articles\/\d+[^"]*">/g)!.length).toBeGreaterThanOrEqual(5);
  });

  it('links every article from a category page reachable from home, and lists them in the sitemap index', async () => {
    const home = await (await get('/')).text();
    for (const path of ['/categories/1', '/categories/3', REDIRECT_PATH, NOINDEX_PATH, PRIVATE_PATH, SLOW_PATH, ZIP_PATH, PDF_PATH]) expect(home).toContain(`href="${path}"`);
    const category = await (await get('/categories/3')).text();
    for (let id = 41; id <= 45; id += 1) expect(category).toContain(`/articles/${id}`);
    const robots = await (await get('/robots.txt')).text();
    expect(robots).toContain('Disallow: /private/');
    expect(robots).toContain(`Sitemap: ${site.url}/sitemap.xml`);
    expect(await (await get('/sitemap.xml')).text()).toContain(`<loc>${site.url}/sitemaps/articles.xml</loc>`);
    expect((await (await get('/sitemaps/articles.xml')).text()).match(/<loc>/g)).toHaveLength(45);
  });

  it('answers 304 to matching validators and changes them when an article is edited', async () => {
    const first = await get(articlePath(2));
    const etag = first.headers.get('etag')!;
    const lastModified = first.headers.get('last-modified')!;
    expect((await get(articlePath(2), { 'if-none-match': etag })).status).toBe(304);
    expect((await get(articlePath(2), { 'if-modified-since': lastModified })).status).toBe(304);
    site.edit(2, 'The new returns window is 60 days.');
    const edited = await get(articlePath(2), { 'if-none-match': etag });
    expect(edited.status).toBe(200);
    expect(await edited.text()).toContain('The new returns window is 60 days.');
    expect((await get(articlePath(2), { 'if-modified-since': lastModified })).status).toBe(200);
    expect(site.requests[articlePath(2)]).toEqual({ 200: 3, 304: 2 });
  });

  it('removes and unlinks articles, redirects, marks the noindex page, serves a zip and a readable PDF', async () => {
    site.remove(44);
    expect((await get(articlePath(44))).status).toBe(404);
    site.unlink(43);
    expect((await get(articlePath(43))).status).toBe(200);
    expect(await (await get('/categories/3')).text()).not.toContain('/articles/43"');
    expect(await (await get('/sitemaps/articles.xml')).text()).not.toContain('/articles/43<');
    const redirect = await get(REDIRECT_PATH);
    expect([redirect.status, redirect.headers.get('location')]).toEqual([301, '/articles/1']);
    const noindex = await (await get(NOINDEX_PATH)).text();
    expect(noindex).toContain('content="noindex, nofollow"');
    expect(noindex).toContain(NOINDEX_MARKER);
    const zip = await get(ZIP_PATH);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    expect(Buffer.from(await zip.arrayBuffer()).readUInt32LE(0)).toBe(0x04034b50);
    const pdf = await extractPdf(new Uint8Array(await (await get(PDF_PATH)).arrayBuffer()));
    expect(pdf.title).toBe('Trail guide');
    expect(pdf.pages.join('\n')).toContain(PDF_MARKER);
    expect(site.count(articlePath(44), 404)).toBe(1);
  });

  it('never answers the slow page', async () => {
    const started = Date.now();
    await expect(fetch(`${site.url}${SLOW_PATH}`, { signal: AbortSignal.timeout(300) })).rejects.toThrow();
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });
});
