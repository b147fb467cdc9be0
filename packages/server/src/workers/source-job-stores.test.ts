import { createCore, type Core, type PageRead, type PageValidators, type Principal, type RobotsRules, type SiteReader, type Store } from '@svc/core';
import { echoAgent, makeAccount, makeKnowledgeBase, manualClock } from '@svc/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRODUCTION_STORES, type OpenedStore } from '../testing/production-stores.js';

/**
 * Core's source sync job (DESIGN.md section 11 "Sources") on the stores production runs on, against an in-process
 * site (the SiteReader port's test double; the web reader is tested over real HTTP): a first sync, a re-sync with
 * 304s, an edit and a removed page, and two workers on one database where the first dies mid-sync.
 */

const SITE = 'https://help.example.com';

class Site implements SiteReader {
  pages = new Map<string, { title: string; text: string; links: string[]; etag: string }>();
  reads: string[] = [];

  async robots(): Promise<RobotsRules> {
    return { isAllowed: (url) => !url.includes('/private'), sitemaps: [] };
  }

  async read(url: string, options: { validators?: PageValidators }): Promise<PageRead> {
    this.reads.push(url);
    const page = this.pages.get(url);
    if (!page) return { kind: 'gone', status: 404, downloaded: true };
    if (options.validators?.etag === page.etag) return { kind: 'not_modified', downloaded: false };
    return {
      kind: 'page',
      url,
      format: 'html',
      canonical: null,
      title: page.title,
      text: page.text,
      links: page.links,
      noindex: false,
      nofollow: false,
      validators: { etag: page.etag, lastModified: null },
      downloaded: true,
    };
  }
}

function articles(site: Site, count: number): void {
  const links = Array.from({ length: count }, (_, i) => `${SITE}/kb/article-${i}?utm_source=nav`);
  site.pages.set(`${SITE}/kb/`, { title: 'Help', text: 'Every article.', links: [...links, `${SITE}/kb/private/x`], etag: '"index-1"' });
  for (let i = 0; i < count; i++) site.pages.set(`${SITE}/kb/article-${i}`, { title: `Article ${i}`, text: `Article ${i} explains tent pole ${i}.`, links: [], etag: `"a${i}-1"` });
}

const basePrincipal: Principal = {
  accountId: 'acct_crawl',
  keyId: 'key_crawl',
  kind: 'secret',
  scopes: ['knowledge:read', 'knowledge:write'],
  callbackUrl: null,
  replyFormat: 'markdown',
  widgetId: null,
  identity: null,
};

function coreOn(store: Store, options: { site: Site; clock: ReturnType<typeof manualClock>; owner: string }): Core {
  return createCore({
    store,
    agent: echoAgent(),
    cursorSecret: 'source-sync-cursor-secret',
    urlProblem: () => null,
    reader: options.site,
    clock: options.clock,
    owner: options.owner,
    sourceJob: { batch: 4, leaseMs: 30_000 },
  });
}

/** An account of its own per test (the tests share one database) with a knowledge base `kb_<name>`. */
async function seed(store: Store, name: string): Promise<Principal> {
  const principal = { ...basePrincipal, accountId: `acct_${name}` };
  await store.insertAccount(makeAccount({ id: principal.accountId, balance: 100 }));
  await store.insertKnowledgeBase(makeKnowledgeBase({ id: `kb_${name}`, accountId: principal.accountId }));
  return principal;
}

async function untilIdle(core: Core): Promise<void> {
  for (let round = 0; (await core.work.syncSources()).busy; round++) if (round > 100) throw new Error('the sync does not end');
}

describe.each(PRODUCTION_STORES)('the source sync job on %s', { timeout: 60_000 }, (_name, open) => {
  // One database for the file: opening PGlite takes seconds.
  let opened: OpenedStore;
  beforeAll(async () => {
    opened = await open();
  }, 60_000);
  afterAll(async () => {
    await opened.dispose();
  });

  it('syncs, then re-syncs: a 304 keeps the document, an edit replaces it, a removed page goes', async () => {
    const store = opened.store;
    const principal = await seed(store, 'resync');
    const kb = 'kb_resync';
    const site = new Site();
    articles(site, 5);
    const clock = manualClock('2026-11-28T09:00:00.000Z');
    const core = coreOn(store, { site, clock, owner: 'wrk_one' });
    const { data: source } = await core.api.knowledge.addSource(principal, kb, { type: 'website', url: `${SITE}/kb/` });
    await untilIdle(core);
    const first = await store.listDocuments(kb);
    expect(first.map((doc) => doc.url).sort()).toEqual([`${SITE}/kb/`, ...Array.from({ length: 5 }, (_, i) => `${SITE}/kb/article-${i}`)].sort());
    expect(first.every((doc) => doc.sourceId === source.id)).toBe(true);

    site.pages.set(`${SITE}/kb/article-1`, { title: 'Article 1', text: 'Article 1 now covers stakes.', links: [], etag: '"a1-2"' });
    site.pages.delete(`${SITE}/kb/article-2`);
    site.reads = [];
    await core.api.knowledge.syncSource(principal, kb, source.id);
    await untilIdle(core);
    const second = await store.listDocuments(kb);
    const byUrl = new Map(second.map((doc) => [doc.url, doc]));
    expect(byUrl.has(`${SITE}/kb/article-2`)).toBe(false);
    expect(byUrl.get(`${SITE}/kb/article-1`)?.content).toBe('Article 1 now covers stakes.');
    expect(byUrl.get(`${SITE}/kb/article-3`)).toEqual(first.find((doc) => doc.url === `${SITE}/kb/article-3`));
    expect((await core.api.knowledge.getSource(principal, kb, source.id)).data).toMatchObject({
      status: 'ready',
      documents: 5,
      progress: { found: 6, fetched: 1, unchanged: 4, skipped: 1, failed: 0 },
    });
    // 6 pages read the first time, 2 the second (the edit and the 404; the 304s are free).
    expect((await store.getAccount(principal.accountId))?.balance).toBe(92);
  });

  it('is resumed by another worker when its worker dies, with no page read twice and no duplicate document', async () => {
    const site = new Site();
    articles(site, 10);
    const clock = manualClock('2026-11-28T09:00:00.000Z');
    const storeA = opened.store;
    const storeB = await opened.peer();
    const principal = await seed(storeA, 'resume');
    const kb = 'kb_resume';
    const a = coreOn(storeA, { site, clock, owner: 'wrk_a' });
    const b = coreOn(storeB, { site, clock, owner: 'wrk_b' });
    const { data: source } = await a.api.knowledge.addSource(principal, kb, { type: 'website', url: `${SITE}/kb/` });
    await a.work.syncSources();
    await a.work.syncSources();
    // Worker A dies holding the lease: B waits it out, then resumes.
    expect((await b.work.syncSources()).pages).toBe(0);
    clock.advance(30_001);
    await untilIdle(b);
    expect((await a.work.syncSources()).pages).toBe(0);

    expect(new Set(site.reads).size).toBe(site.reads.length);
    expect(site.reads).toHaveLength(11);
    const docs = await storeB.listDocuments(kb);
    expect(docs).toHaveLength(11);
    expect(new Set(docs.map((doc) => doc.url)).size).toBe(11);
    expect((await b.api.knowledge.getSource(principal, kb, source.id)).data).toMatchObject({ status: 'ready', documents: 11, progress: { found: 11, fetched: 11 } });
    expect(await storeB.listLedgerEntries(principal.accountId, 100)).toHaveLength(11);
  });
});
