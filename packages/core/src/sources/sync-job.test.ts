import { describe, expect, it } from 'vitest';
import { manualClock } from '../clock.js';
import { createCore, type Core } from '../core.js';
import type { Principal } from '../domain.js';
import { isSvcError } from '../errors.js';
import { createMemoryStore } from '../store/memory-store.js';
import type { Store } from '../store/store.js';
import { echoAgent } from '../testing/engine-harness.js';
import { makeAccount, makeKnowledgeBase } from '../testing/fixtures.js';
import type { PageRead, PageValidators, RobotsRules, SiteReader } from './site-reader.js';

/**
 * The sync job on the memory store against an in-process site: the SiteReader port's test double, a map of URL to
 * what a read of it answers. The server's reader is tested over real HTTP on its side of the port.
 */

interface FakePage {
  title?: string;
  text?: string;
  links?: string[];
  etag?: string;
  noindex?: boolean;
  nofollow?: boolean;
  canonical?: string;
  /** Another answer than a page. */
  read?: PageRead;
  /** Where a redirect ends. */
  finalUrl?: string;
  sitemap?: string[];
}

class FakeSite implements SiteReader {
  pages = new Map<string, FakePage>();
  robotsRules = new Map<string, { disallow: string[]; sitemaps: string[] }>();
  reads: Array<{ url: string; validators: PageValidators | undefined }> = [];
  robotsReads: string[] = [];
  inFlight = new Map<string, number>();
  maxInFlight = new Map<string, number>();
  delayMs = 0;

  async robots(origin: string): Promise<RobotsRules> {
    this.robotsReads.push(origin);
    const rules = this.robotsRules.get(origin) ?? { disallow: [], sitemaps: [] };
    return { isAllowed: (url) => !rules.disallow.some((path) => new URL(url).pathname.startsWith(path)), sitemaps: rules.sitemaps };
  }

  async read(url: string, options: { validators?: PageValidators; signal?: AbortSignal }): Promise<PageRead> {
    const host = new URL(url).host;
    this.reads.push({ url, validators: options.validators });
    this.inFlight.set(host, (this.inFlight.get(host) ?? 0) + 1);
    this.maxInFlight.set(host, Math.max(this.maxInFlight.get(host) ?? 0, this.inFlight.get(host)!));
    try {
      if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
      else await Promise.resolve();
      options.signal?.throwIfAborted();
      return this.answer(url, options.validators);
    } finally {
      this.inFlight.set(host, this.inFlight.get(host)! - 1);
    }
  }

  private answer(url: string, validators: PageValidators | undefined): PageRead {
    const page = this.pages.get(url);
    if (!page) return { kind: 'gone', status: 404, downloaded: true };
    if (page.read) return page.read;
    const sent = { etag: page.etag ?? null, lastModified: null };
    if (page.etag !== undefined && validators?.etag === page.etag) return { kind: 'not_modified', downloaded: false };
    if (page.sitemap) return { kind: 'sitemap', url, urls: page.sitemap, validators: sent, downloaded: true };
    return {
      kind: 'page',
      url: page.finalUrl ?? url,
      format: 'html',
      canonical: page.canonical ?? null,
      title: page.title ?? url,
      text: page.text ?? `The text of ${url}.`,
      links: page.links ?? [],
      noindex: page.noindex ?? false,
      nofollow: page.nofollow ?? false,
      validators: sent,
      downloaded: true,
    };
  }

  readsOf(url: string): number {
    return this.reads.filter((read) => read.url === url).length;
  }
}

const SITE = 'https://help.example.com';

function helpCentre(site: FakeSite): void {
  site.robotsRules.set(SITE, { disallow: ['/docs/private'], sitemaps: [] });
  site.pages.set(`${SITE}/docs/`, {
    title: 'Help centre',
    text: 'Welcome to the help centre.',
    etag: '"index-1"',
    links: [
      `${SITE}/docs/returns`,
      `${SITE}/docs/shipping?utm_source=newsletter&utm_medium=email`,
      `${SITE}/docs/shipping#rates`,
      `${SITE}/docs/sizes`,
      `${SITE}/docs/private/notes`,
      `${SITE}/blog/launch`,
      'https://elsewhere.example.org/docs/x',
      `${SITE}/docs/quiet`,
      `${SITE}/docs/returns-copy`,
      `${SITE}/docs/manual.zip`,
      'mailto:help@example.com',
    ],
  });
  site.pages.set(`${SITE}/docs/returns`, { title: 'Returns', text: 'Return any item within 30 days.', etag: '"returns-1"' });
  site.pages.set(`${SITE}/docs/shipping`, { title: 'Shipping', text: 'We ship to Canada in 5-7 days.', etag: '"shipping-1"' });
  site.pages.set(`${SITE}/docs/sizes`, { title: 'Sizes', text: 'Boots come in sizes 36 to 47.', etag: '"sizes-1"' });
  site.pages.set(`${SITE}/docs/quiet`, { title: 'Internal', text: 'Not for the index.', noindex: true, links: [`${SITE}/docs/care`] });
  site.pages.set(`${SITE}/docs/care`, { title: 'Care', text: 'Wax leather boots twice a season.', etag: '"care-1"' });
  site.pages.set(`${SITE}/docs/returns-copy`, { title: 'Returns', text: 'Return any item within 30 days.' });
  site.pages.set(`${SITE}/docs/manual.zip`, { read: { kind: 'skipped', reason: 'not HTML or PDF (application/zip)', downloaded: false } });
  site.pages.set(`${SITE}/docs/private/notes`, { title: 'Private', text: 'Secret.' });
  site.pages.set(`${SITE}/blog/launch`, { title: 'Launch', text: 'Blog.' });
}

interface Harness {
  core: Core;
  store: Store;
  site: FakeSite;
  clock: ReturnType<typeof manualClock>;
  principal: Principal;
  kbId: string;
  accountId: string;
}

async function harness(options: { balance?: number; owner?: string; store?: Store; site?: FakeSite; sourceJob?: Parameters<typeof createCore>[0]['sourceJob']; clock?: ReturnType<typeof manualClock> } = {}): Promise<Harness> {
  const store = options.store ?? createMemoryStore();
  const site = options.site ?? new FakeSite();
  const clock = options.clock ?? manualClock('2026-11-28T09:00:00.000Z');
  const account = makeAccount({ id: 'acct_sources', balance: options.balance ?? 1000 });
  const kb = makeKnowledgeBase({ id: 'kb_help', accountId: account.id });
  if (!options.store) {
    await store.insertAccount(account);
    await store.insertKnowledgeBase(kb);
  }
  const core = createCore({
    store,
    agent: echoAgent(),
    cursorSecret: 'sources-test-cursor-secret',
    urlProblem: () => null,
    reader: site,
    clock,
    owner: options.owner ?? 'wrk_test',
    ...(options.sourceJob ? { sourceJob: options.sourceJob } : {}),
  });
  const principal: Principal = {
    accountId: account.id,
    keyId: 'key_sources',
    kind: 'secret',
    scopes: ['knowledge:read', 'knowledge:write'],
    callbackUrl: null,
    replyFormat: 'markdown',
    widgetId: null,
    identity: null,
  };
  return { core, store, site, clock, principal, kbId: kb.id, accountId: account.id };
}

async function syncToEnd(h: Harness): Promise<number> {
  let rounds = 0;
  while ((await h.core.work.syncSources()).busy) {
    if (++rounds > 200) throw new Error('the sync does not end');
  }
  return rounds;
}

async function documentsByUrl(h: Harness): Promise<Map<string, { id: string; title: string; content: string; sourceId: string | null; createdAt: Date }[]>> {
  const byUrl = new Map<string, { id: string; title: string; content: string; sourceId: string | null; createdAt: Date }[]>();
  for (const doc of await h.store.listDocuments(h.kbId)) byUrl.set(doc.url ?? '', [...(byUrl.get(doc.url ?? '') ?? []), doc]);
  return byUrl;
}

describe('the source sync job', () => {
  it('crawls a site once: in scope, allowed by robots.txt, canonical URLs, no noindex page, no duplicate, billed per page read', async () => {
    const h = await harness();
    helpCentre(h.site);
    const added = await h.core.api.knowledge.addSource(h.principal, h.kbId, { type: 'website', url: `${SITE}/docs/`, schedule: 'daily' });
    expect(added.status).toBe(201);
    expect(added.data).toMatchObject({ type: 'website', url: `${SITE}/docs/`, status: 'queued', maxPages: 500, schedule: 'daily', documents: 0, lastSync: null });
    expect(added.data.id).toMatch(/^src_/);

    await syncToEnd(h);

    const docs = await documentsByUrl(h);
    expect([...docs.keys()].sort()).toEqual([`${SITE}/docs/`, `${SITE}/docs/care`, `${SITE}/docs/returns`, `${SITE}/docs/shipping`, `${SITE}/docs/sizes`]);
    for (const [, versions] of docs) {
      expect(versions).toHaveLength(1);
      expect(versions[0]!.sourceId).toBe(added.data.id);
    }
    expect(docs.get(`${SITE}/docs/shipping`)![0]).toMatchObject({ title: 'Shipping', content: 'We ship to Canada in 5-7 days.' });
    // Never read: disallowed, out of scope, another host, tracking duplicates; each page once.
    const read = h.site.reads.map((r) => r.url);
    expect(read).not.toContain(`${SITE}/docs/private/notes`);
    expect(read.some((url) => url.includes('/blog/') || url.includes('elsewhere') || url.includes('utm_') || url.includes('#'))).toBe(false);
    expect(new Set(read).size).toBe(read.length);
    expect(h.site.robotsReads).toEqual([SITE]);

    const detail = (await h.core.api.knowledge.getSource(h.principal, h.kbId, added.data.id)).data;
    expect(detail).toMatchObject({
      status: 'ready',
      documents: 5,
      progress: { found: 8, fetched: 5, unchanged: 0, failed: 0, skipped: 3 },
      lastSync: { startedAt: '2026-11-28T09:00:00.000Z', finishedAt: '2026-11-28T09:00:00.000Z', error: null },
      nextSyncAt: '2026-11-29T09:00:00.000Z',
      failedPages: [],
    });
    // Seven reads downloaded a page (the binary download was refused before its body): seven crawler credits.
    const ledger = await h.store.listLedgerEntries(h.accountId, 100);
    expect(ledger.every((entry) => entry.operation === 'knowledge.crawl' && entry.credits.crawler === 1)).toBe(true);
    expect(ledger).toHaveLength(7);
    expect((await h.store.getAccount(h.accountId))?.balance).toBe(993);
  });

  it('re-syncs: a 304 keeps the document, an edited page is replaced, a gone page and an unlinked page are removed', async () => {
    const h = await harness();
    helpCentre(h.site);
    const { data: source } = await h.core.api.knowledge.addSource(h.principal, h.kbId, { type: 'website', url: `${SITE}/docs/` });
    await syncToEnd(h);
    const before = await documentsByUrl(h);

    // The index drops its link to the sizes page (which still exists); shipping is edited; care is deleted.
    const index = h.site.pages.get(`${SITE}/docs/`)!;
    h.site.pages.set(`${SITE}/docs/`, { ...index, etag: '"index-2"', links: index.links!.filter((url) => !url.endsWith('/sizes')) });
    h.site.pages.set(`${SITE}/docs/shipping`, { title: 'Shipping', text: 'We ship to Canada in 3 days now.', etag: '"shipping-2"' });
    h.site.pages.delete(`${SITE}/docs/care`);
    h.site.reads = [];
    h.clock.advance(60_000);

    const queued = await h.core.api.knowledge.syncSource(h.principal, h.kbId, source.id);
    expect(queued.status).toBe(202);
    expect(queued.data.status).toBe('queued');
    // Asking again while it is queued changes nothing.
    expect((await h.core.api.knowledge.syncSource(h.principal, h.kbId, source.id)).data.status).toBe('queued');
    await syncToEnd(h);

    const after = await documentsByUrl(h);
    expect([...after.keys()].sort()).toEqual([`${SITE}/docs/`, `${SITE}/docs/returns`, `${SITE}/docs/shipping`]);
    // Revalidated with the stored validator and answered 304: the very same document (its passages and vectors).
    expect(h.site.reads.find((r) => r.url === `${SITE}/docs/returns`)?.validators).toEqual({ etag: '"returns-1"', lastModified: null });
    expect(after.get(`${SITE}/docs/returns`)).toEqual(before.get(`${SITE}/docs/returns`));
    expect(after.get(`${SITE}/docs/shipping`)![0]!.content).toBe('We ship to Canada in 3 days now.');
    expect(h.site.readsOf(`${SITE}/docs/sizes`)).toBe(0);
    expect(await h.store.getSourcePage(source.id, `${SITE}/docs/sizes`)).toBeNull();
    expect(await h.store.getSourcePage(source.id, `${SITE}/docs/care`)).toBeNull();
    const detail = (await h.core.api.knowledge.getSource(h.principal, h.kbId, source.id)).data;
    expect(detail).toMatchObject({ status: 'ready', documents: 3, progress: { fetched: 2, unchanged: 1 } });
    expect((await h.core.api.knowledge.search(h.principal, h.kbId, { query: 'ship Canada' })).data.passages[0]?.content).toContain('3 days now');
  });

  it('revalidates a noindex page with its validators on a re-sync: a free 304, still out of the index, its links still followed (regression: downloaded and billed on every re-sync)', async () => {
    const h = await harness();
    h.site.pages.set(`${SITE}/docs/`, { title: 'Help centre', text: 'Welcome.', etag: '"index-1"', links: [`${SITE}/docs/quiet`] });
    h.site.pages.set(`${SITE}/docs/quiet`, { title: 'Internal', text: 'Not for the index.', noindex: true, etag: '"quiet-1"', links: [`${SITE}/docs/care`] });
    h.site.pages.set(`${SITE}/docs/care`, { title: 'Care', text: 'Wash your tent by hand.', etag: '"care-1"' });
    const { data: source } = await h.core.api.knowledge.addSource(h.principal, h.kbId, { type: 'website', url: `${SITE}/docs/` });
    await syncToEnd(h);
    expect([...(await documentsByUrl(h)).keys()].sort()).toEqual([`${SITE}/docs/`, `${SITE}/docs/care`]);

    h.site.reads = [];
    h.clock.advance(60_000);
    await h.core.api.knowledge.syncSource(h.principal, h.kbId, source.id);
    const balance = (await h.store.getAccount(h.principal.accountId))!.balance;
    await syncToEnd(h);
    expect(h.site.reads.find((r) => r.url === `${SITE}/docs/quiet`)?.validators).toEqual({ etag: '"quiet-1"', lastModified: null });
    // Every page answered 304: nothing downloaded, nothing billed, nothing indexed that was not before.
    expect((await h.store.getAccount(h.principal.accountId))!.balance).toBe(balance);
    expect([...(await documentsByUrl(h)).keys()].sort()).toEqual([`${SITE}/docs/`, `${SITE}/docs/care`]);
    expect((await h.core.api.knowledge.getSource(h.principal, h.kbId, source.id)).data).toMatchObject({ status: 'ready', progress: { unchanged: 3, fetched: 0 } });
  });

  it('resumes a sync whose worker died, without reading a stored page again or storing a document twice', async () => {
    const store = createMemoryStore();
    const site = new FakeSite();
    const clock = manualClock('2026-11-28T09:00:00.000Z');
    site.pages.set(`${SITE}/kb/`, { title: 'Index', text: 'All articles.', links: Array.from({ length: 12 }, (_, i) => `${SITE}/kb/article-${i}`) });
    for (let i = 0; i < 12; i++) site.pages.set(`${SITE}/kb/article-${i}`, { title: `Article ${i}`, text: `Article number ${i} explains one thing.` });
    const first = await harness({ store, site, clock, owner: 'wrk_first', sourceJob: { batch: 4, leaseMs: 30_000 } });
    await store.insertAccount(makeAccount({ id: 'acct_sources', balance: 1000 }));
    await store.insertKnowledgeBase(makeKnowledgeBase({ id: 'kb_help', accountId: 'acct_sources' }));
    const { data: source } = await first.core.api.knowledge.addSource(first.principal, first.kbId, { type: 'website', url: `${SITE}/kb/` });

    expect((await first.core.work.syncSources()).pages).toBe(1);
    expect((await first.core.work.syncSources()).pages).toBe(4);
    // The first worker dies here. Another one waits for the lease to run out, then carries on.
    const second = await harness({ store, site, clock, owner: 'wrk_second', sourceJob: { batch: 4, leaseMs: 30_000 } });
    expect(await second.core.work.syncSources()).toEqual({ pages: 0, busy: false });
    clock.advance(30_001);
    await syncToEnd(second);
    // The first worker comes back: the source is no longer its own.
    expect((await first.core.work.syncSources()).pages).toBe(0);

    expect(site.reads.map((read) => read.url).sort()).toEqual([...new Set(site.reads.map((read) => read.url))].sort());
    const docs = await documentsByUrl(second);
    expect(docs.size).toBe(13);
    for (const versions of docs.values()) expect(versions).toHaveLength(1);
    const detail = (await second.core.api.knowledge.getSource(second.principal, second.kbId, source.id)).data;
    expect(detail).toMatchObject({ status: 'ready', documents: 13, progress: { found: 13, fetched: 13 } });
    expect((await store.listLedgerEntries('acct_sources', 100)).length).toBe(13);
  });

  it('stops cleanly when the credits run out, keeping the pages already stored', async () => {
    const h = await harness({ balance: 3, sourceJob: { batch: 2 } });
    h.site.pages.set(`${SITE}/kb/`, { title: 'Index', text: 'All articles.', links: Array.from({ length: 8 }, (_, i) => `${SITE}/kb/a${i}`) });
    for (let i = 0; i < 8; i++) h.site.pages.set(`${SITE}/kb/a${i}`, { title: `A${i}`, text: `Article ${i}.` });
    const { data: source } = await h.core.api.knowledge.addSource(h.principal, h.kbId, { type: 'website', url: `${SITE}/kb/` });
    await syncToEnd(h);
    const detail = (await h.core.api.knowledge.getSource(h.principal, h.kbId, source.id)).data;
    expect(detail.status).toBe('failed');
    expect(detail.lastSync?.error).toMatch(/credits ran out/i);
    expect(h.site.reads.length).toBe(3);
    expect(detail.documents).toBe(3);
    expect((await h.store.getAccount(h.accountId))?.balance).toBe(0);
    // Nothing more is read until someone asks (and pays).
    expect(await h.core.work.syncSources()).toEqual({ pages: 0, busy: false });
  });

  it('keeps at most 2 reads in flight per host', async () => {
    const h = await harness();
    h.site.delayMs = 5;
    const other = 'https://docs.example.com';
    const links = [...Array.from({ length: 15 }, (_, i) => `${SITE}/p/${i}`), ...Array.from({ length: 15 }, (_, i) => `${other}/p/${i}`)];
    h.site.pages.set(`${SITE}/p/`, { title: 'Index', text: 'Pages.', links });
    for (const url of links) h.site.pages.set(url, { title: url, text: `About ${url}.` });
    await h.core.api.knowledge.addSource(h.principal, h.kbId, { type: 'website', url: `${SITE}/p/`, include: [`${SITE}/p/`, `${other}/p/`] });
    await syncToEnd(h);
    expect(h.site.reads.length).toBe(31);
    expect(h.site.maxInFlight.get('help.example.com')).toBe(2);
    expect(h.site.maxInFlight.get('docs.example.com')).toBe(2);
    expect((await h.store.listDocuments(h.kbId)).length).toBe(31);
  });

  it('hands its source back when aborted (shutting down), and another round finishes it', async () => {
    const h = await harness({ sourceJob: { batch: 8 } });
    h.site.delayMs = 20;
    h.site.pages.set(`${SITE}/kb/`, { title: 'Index', text: 'All.', links: Array.from({ length: 6 }, (_, i) => `${SITE}/kb/${i}`) });
    for (let i = 0; i < 6; i++) h.site.pages.set(`${SITE}/kb/${i}`, { title: `Page ${i}`, text: `Page ${i}.` });
    const { data: source } = await h.core.api.knowledge.addSource(h.principal, h.kbId, { type: 'website', url: `${SITE}/kb/` });
    await h.core.work.syncSources();
    const shutdown = new AbortController();
    const round = h.core.work.syncSources({ signal: shutdown.signal });
    setTimeout(() => shutdown.abort(), 30);
    expect((await round).busy).toBe(false);
    const handedBack = await h.store.getSource(h.kbId, source.id);
    expect(handedBack).toMatchObject({ status: 'syncing', lease: null });
    expect(await h.store.listSourcePages({ sourceId: source.id, state: 'pending', limit: 10 })).not.toHaveLength(0);
    await syncToEnd(h);
    const docs = await documentsByUrl(h);
    expect(docs.size).toBe(7);
    for (const versions of docs.values()) expect(versions).toHaveLength(1);
    expect((await h.core.api.knowledge.getSource(h.principal, h.kbId, source.id)).data).toMatchObject({ status: 'ready', progress: { found: 7, fetched: 7 } });
  });

  it('reads no more than maxPages pages', async () => {
    const h = await harness({ sourceJob: { batch: 3 } });
    h.site.pages.set(`${SITE}/kb/`, { title: 'Index', text: 'All.', links: Array.from({ length: 10 }, (_, i) => `${SITE}/kb/${i}`) });
    for (let i = 0; i < 10; i++) h.site.pages.set(`${SITE}/kb/${i}`, { title: `Page ${i}`, text: `Page ${i}.`, links: [`${SITE}/kb/${i + 10}`] });
    const { data: source } = await h.core.api.knowledge.addSource(h.principal, h.kbId, { type: 'website', url: `${SITE}/kb/`, maxPages: 4 });
    await syncToEnd(h);
    expect(h.site.reads.map((read) => read.url)).toEqual([`${SITE}/kb/`, `${SITE}/kb/0`, `${SITE}/kb/1`, `${SITE}/kb/2`]);
    expect((await h.core.api.knowledge.getSource(h.principal, h.kbId, source.id)).data).toMatchObject({ status: 'ready', documents: 4, progress: { found: 4 } });
  });

  it('reads the sitemaps robots.txt names for a site root, and honours rel=canonical, redirects and failures', async () => {
    const h = await harness();
    h.site.robotsRules.set(SITE, { disallow: [], sitemaps: [`${SITE}/sitemap.xml`] });
    h.site.pages.set(`${SITE}/`, { title: 'Home', text: 'Home page.', links: [`${SITE}/print/guide`] });
    h.site.pages.set(`${SITE}/sitemap.xml`, { sitemap: [`${SITE}/guide`, `${SITE}/old`, `${SITE}/flaky`, `${SITE}/faq`, `${SITE}/extra`] });
    h.site.pages.set(`${SITE}/guide`, { title: 'Guide', text: 'The guide.' });
    h.site.pages.set(`${SITE}/print/guide`, { title: 'Guide', text: 'The guide, printable.', canonical: '/guide' });
    h.site.pages.set(`${SITE}/old`, { title: 'FAQ', text: 'Questions.', finalUrl: `${SITE}/faq` });
    h.site.pages.set(`${SITE}/flaky`, { read: { kind: 'failed', reason: 'timed out after 15 s', status: null, downloaded: false } });
    h.site.pages.set(`${SITE}/faq`, { title: 'FAQ', text: 'Questions.' });
    h.site.pages.set(`${SITE}/extra`, { title: 'Extra', text: 'Beyond the page limit.' });
    const { data: source } = await h.core.api.knowledge.addSource(h.principal, h.kbId, { type: 'website', url: `${SITE}/` });
    await syncToEnd(h);
    const detail = (await h.core.api.knowledge.getSource(h.principal, h.kbId, source.id)).data;
    expect(detail.status).toBe('ready');
    expect(detail.failedPages).toEqual([{ url: `${SITE}/flaky`, status: null, reason: 'timed out after 15 s' }]);
    expect(detail.progress).toEqual({ found: 8, fetched: 5, unchanged: 0, failed: 1, skipped: 2 });
    const docs = await documentsByUrl(h);
    // The printable copy names the guide canonical; the redirect's text is the FAQ's, stored once.
    expect([...docs.keys()].sort()).toEqual([`${SITE}/`, `${SITE}/extra`, `${SITE}/faq`, `${SITE}/guide`]);
    expect(docs.get(`${SITE}/guide`)![0]!.content).toBe('The guide.');
  });

  it('fails a sync that could read nothing, or that passed its deadline, and keeps earlier documents', async () => {
    const h = await harness({ sourceJob: { batch: 1, deadlineMs: 60_000 } });
    h.site.pages.set(`${SITE}/kb/`, { title: 'Index', text: 'All.', links: [`${SITE}/kb/a`, `${SITE}/kb/b`] });
    h.site.pages.set(`${SITE}/kb/a`, { title: 'A', text: 'Page A.' });
    h.site.pages.set(`${SITE}/kb/b`, { title: 'B', text: 'Page B.' });
    const { data: source } = await h.core.api.knowledge.addSource(h.principal, h.kbId, { type: 'website', url: `${SITE}/kb/` });
    await syncToEnd(h);
    expect((await h.store.listDocuments(h.kbId)).length).toBe(3);

    // The site is down: nothing is removed.
    for (const url of h.site.pages.keys()) h.site.pages.set(url, { read: { kind: 'failed', reason: 'HTTP 503', status: 503, downloaded: true } });
    await h.core.api.knowledge.syncSource(h.principal, h.kbId, source.id);
    await syncToEnd(h);
    let detail = (await h.core.api.knowledge.getSource(h.principal, h.kbId, source.id)).data;
    expect(detail.status).toBe('failed');
    expect(detail.lastSync?.error).toContain('HTTP 503');
    expect(detail.failedPages.map((page) => page.status)).toEqual([503, 503, 503]);
    expect(detail.documents).toBe(3);

    // A slow sync passes its deadline.
    h.site.pages.set(`${SITE}/kb/`, { title: 'Index', text: 'All, again.', links: [`${SITE}/kb/a`, `${SITE}/kb/b`] });
    await h.core.api.knowledge.syncSource(h.principal, h.kbId, source.id);
    await h.core.work.syncSources();
    h.clock.advance(60_001);
    await syncToEnd(h);
    detail = (await h.core.api.knowledge.getSource(h.principal, h.kbId, source.id)).data;
    expect(detail.status).toBe('failed');
    expect(detail.lastSync?.error).toMatch(/deadline/);
    expect(detail.documents).toBe(3);
  });
});

describe('knowledge sources through the API', () => {
  it('refuses file and manual sources, and websites without a reader, naming the field', async () => {
    const h = await harness();
    const refusal = async (body: unknown, core = h.core) => {
      try {
        await core.api.knowledge.addSource(h.principal, h.kbId, body);
      } catch (error) {
        if (isSvcError(error)) return { status: error.status, field: error.field, message: error.message };
        throw error;
      }
      throw new Error('accepted');
    };
    expect(await refusal({ type: 'file', url: `${SITE}/x.pdf` })).toMatchObject({ status: 400, field: 'type', message: expect.stringContaining('/files') });
    expect(await refusal({ type: 'manual' })).toMatchObject({ status: 400, field: 'type', message: expect.stringContaining('/documents') });
    expect(await refusal({ type: 'website', url: 'ftp://example.com/' })).toMatchObject({ status: 400, field: 'url' });
    expect(await refusal({ type: 'website', url: `${SITE}/`, maxPages: 20_000 })).toMatchObject({ status: 400, field: 'maxPages' });
    expect(await refusal({ type: 'website', url: `${SITE}/`, include: Array.from({ length: 51 }, () => '/a') })).toMatchObject({ status: 400, field: 'include' });
    expect(await refusal({ type: 'website', url: `${SITE}/`, depth: 3 })).toMatchObject({ status: 400, field: 'depth' });
    const readerless = createCore({ store: h.store, agent: echoAgent(), cursorSecret: 'sources-test-cursor-secret', urlProblem: () => null });
    expect(await refusal({ type: 'website', url: `${SITE}/` }, readerless)).toMatchObject({ status: 400, message: expect.stringContaining('site reader') });
    expect(await readerless.work.syncSources()).toEqual({ pages: 0, busy: false });
  });

  it('puts hand-written documents in the manual source, lists sources in pages, deletes a source with its documents', async () => {
    const h = await harness();
    const doc = await h.core.api.knowledge.addDocument(h.principal, h.kbId, { title: 'Hours', content: 'Open 9 to 5.' });
    await h.core.api.knowledge.addDocument(h.principal, h.kbId, { title: 'Phone', content: 'Call 555-0100.' });
    const listed = await h.core.api.knowledge.listSources(h.principal, h.kbId, {});
    expect(listed.data).toHaveLength(1);
    const manual = listed.data[0]!;
    expect(manual).toMatchObject({ type: 'manual', status: 'ready', url: null, documents: 2 });
    expect(doc.data.sourceId).toBe(manual.id);

    h.clock.advance(1000);
    const upload = await h.core.api.knowledge.addFile(h.principal, h.kbId, {
      name: 'guide.md',
      bytes: 120_000,
      extracted: { kind: 'documents', format: 'markdown', documents: [{ title: 'Guide', content: `${'Long paragraph. '.repeat(3000)}\n\n${'Second part. '.repeat(2000)}` }] },
    });
    expect(upload.status).toBe(201);
    expect(upload.data).toMatchObject({ type: 'file', fileName: 'guide.md', status: 'ready', documents: 2 });
    const parts = (await h.store.listDocuments(h.kbId)).filter((d) => d.sourceId === upload.data.id);
    expect(parts.map((d) => d.title).sort()).toEqual(['Guide', 'Guide (part 2)']);
    expect(parts.every((d) => d.content.length <= 60_000)).toBe(true);

    const products = await h.core.api.knowledge.addFile(h.principal, h.kbId, {
      name: 'catalogue.csv',
      bytes: 100,
      extracted: { kind: 'products', format: 'csv', products: [{ id: 'boot-1', name: 'Trail boot', price: 120 }] },
    });
    expect(products.data).toMatchObject({ status: 'ready', documents: 0, progress: { fetched: 1 } });
    const bad = await h.core.api.knowledge.addFile(h.principal, h.kbId, {
      name: 'broken.json',
      bytes: 100,
      extracted: { kind: 'products', format: 'json', products: [{ id: 'x', name: 'X', price: 'cheap' }] },
    });
    expect(bad.data).toMatchObject({ status: 'failed', lastSync: { error: expect.stringContaining('product 1 (price)') } });
    const unreadable = await h.core.api.knowledge.addFile(h.principal, h.kbId, { name: 'scan.pdf', bytes: 10, extracted: { kind: 'failed', format: 'pdf', error: 'the PDF is encrypted' } });
    expect(unreadable.data).toMatchObject({ status: 'failed', lastSync: { error: 'the PDF is encrypted' } });

    const first = await h.core.api.knowledge.listSources(h.principal, h.kbId, { limit: '2' });
    expect(first.pagination).toMatchObject({ hasMore: true, total: 5 });
    const rest = await h.core.api.knowledge.listSources(h.principal, h.kbId, { cursor: first.pagination.cursor! });
    expect([...first.data, ...rest.data].map((s) => s.type)).toEqual(['manual', 'file', 'file', 'file', 'file']);

    expect((await h.core.api.knowledge.deleteSource(h.principal, h.kbId, products.data.id)).data).toEqual({ id: products.data.id, deleted: true });
    expect(await h.store.countProducts(h.kbId)).toBe(0);
    await h.core.api.knowledge.deleteSource(h.principal, h.kbId, upload.data.id);
    expect((await h.store.listDocuments(h.kbId)).map((d) => d.title).sort()).toEqual(['Hours', 'Phone']);
    await expect(h.core.api.knowledge.getSource(h.principal, h.kbId, upload.data.id)).rejects.toMatchObject({ code: 'source_not_found', status: 404 });
    await expect(h.core.api.knowledge.syncSource(h.principal, h.kbId, manual.id)).rejects.toMatchObject({ status: 400, field: 'sourceId' });
    // The console's operations are the same ones.
    expect((await h.core.admin.listKnowledgeSources(h.accountId, h.kbId)).map((s) => s.id)).toEqual(
      (await h.core.api.knowledge.listSources(h.principal, h.kbId, {})).data.map((s) => s.id),
    );
    await expect(h.core.admin.getKnowledgeSource('acct_other', h.kbId, manual.id)).rejects.toMatchObject({ status: 404 });
  });
});
