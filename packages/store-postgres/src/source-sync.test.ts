import { createCore, type Core, type PageRead, type PageValidators, type Principal, type RobotsRules, type SiteReader, type Store } from '@svc/core';
import { echoAgent, makeAccount, makeKnowledgeBase, manualClock } from '@svc/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { createPgliteStore } from './pglite-store.js';
import { createPostgresStore } from './postgres-store.js';
import { TEST_DATABASE_URL, adminPool, dropSchema, testSchemaName } from './test-support.js';

/**
 * The source sync job (DESIGN.md section 11 "Sources") on the SQL stores, against an in-process site (the SiteReader
 * port's test double): a first sync, a re-sync with a 304, an edit and a removed page, and two workers sharing one
 * PostgreSQL where the first dies mid-sync.
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

const principal: Principal = {
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

async function seed(store: Store): Promise<void> {
  await store.insertAccount(makeAccount({ id: principal.accountId, balance: 100 }));
  await store.insertKnowledgeBase(makeKnowledgeBase({ id: 'kb_crawl', accountId: principal.accountId }));
}

async function untilIdle(core: Core): Promise<void> {
  for (let round = 0; (await core.work.syncSources()).busy; round++) if (round > 100) throw new Error('the sync does not end');
}

const admin = adminPool();
const schemas: string[] = [];
afterAll(async () => {
  for (const schema of schemas) await dropSchema(admin, schema);
  await admin.end();
});

describe('the source sync job on PGlite', () => {
  it('syncs, then re-syncs: a 304 keeps the document, an edit replaces it, a removed page goes', async () => {
    const store = await createPgliteStore();
    try {
      await seed(store);
      const site = new Site();
      articles(site, 5);
      const clock = manualClock('2026-11-28T09:00:00.000Z');
      const core = coreOn(store, { site, clock, owner: 'wrk_pglite' });
      const { data: source } = await core.api.knowledge.addSource(principal, 'kb_crawl', { type: 'website', url: `${SITE}/kb/` });
      await untilIdle(core);
      const first = await store.listDocuments('kb_crawl');
      expect(first.map((doc) => doc.url).sort()).toEqual([`${SITE}/kb/`, ...Array.from({ length: 5 }, (_, i) => `${SITE}/kb/article-${i}`)].sort());
      expect(first.every((doc) => doc.sourceId === source.id)).toBe(true);

      site.pages.set(`${SITE}/kb/article-1`, { title: 'Article 1', text: 'Article 1 now covers stakes.', links: [], etag: '"a1-2"' });
      site.pages.delete(`${SITE}/kb/article-2`);
      site.reads = [];
      await core.api.knowledge.syncSource(principal, 'kb_crawl', source.id);
      await untilIdle(core);
      const second = await store.listDocuments('kb_crawl');
      const byUrl = new Map(second.map((doc) => [doc.url, doc]));
      expect(byUrl.has(`${SITE}/kb/article-2`)).toBe(false);
      expect(byUrl.get(`${SITE}/kb/article-1`)?.content).toBe('Article 1 now covers stakes.');
      expect(byUrl.get(`${SITE}/kb/article-3`)).toEqual(first.find((doc) => doc.url === `${SITE}/kb/article-3`));
      expect((await core.api.knowledge.getSource(principal, 'kb_crawl', source.id)).data).toMatchObject({
        status: 'ready',
        documents: 5,
        progress: { found: 6, fetched: 1, unchanged: 4, skipped: 1, failed: 0 },
      });
      // 6 pages read the first time, 2 the second (the edit and the 404; the 304s are free).
      expect((await store.getAccount(principal.accountId))?.balance).toBe(92);
    } finally {
      await store.close();
    }
  });
});

describe('the source sync job on PostgreSQL', () => {
  it('is resumed by another process when its worker dies, with no page read twice and no duplicate document', async () => {
    const schema = testSchemaName();
    schemas.push(schema);
    const site = new Site();
    articles(site, 10);
    const clock = manualClock('2026-11-28T09:00:00.000Z');
    const storeA = await createPostgresStore({ connectionString: TEST_DATABASE_URL, schema, max: 2 });
    const storeB = await createPostgresStore({ connectionString: TEST_DATABASE_URL, schema, max: 2 });
    try {
      await seed(storeA);
      const a = coreOn(storeA, { site, clock, owner: 'wrk_a' });
      const b = coreOn(storeB, { site, clock, owner: 'wrk_b' });
      const { data: source } = await a.api.knowledge.addSource(principal, 'kb_crawl', { type: 'website', url: `${SITE}/kb/` });
      await a.work.syncSources();
      await a.work.syncSources();
      // Worker A dies holding the lease: B waits it out, then resumes.
      expect((await b.work.syncSources()).pages).toBe(0);
      clock.advance(30_001);
      await untilIdle(b);
      expect((await a.work.syncSources()).pages).toBe(0);

      expect(new Set(site.reads).size).toBe(site.reads.length);
      expect(site.reads).toHaveLength(11);
      const docs = await storeB.listDocuments('kb_crawl');
      expect(docs).toHaveLength(11);
      expect(new Set(docs.map((doc) => doc.url)).size).toBe(11);
      expect((await b.api.knowledge.getSource(principal, 'kb_crawl', source.id)).data).toMatchObject({ status: 'ready', documents: 11, progress: { found: 11, fetched: 11 } });
      expect(await storeB.listLedgerEntries(principal.accountId, 100)).toHaveLength(11);
    } finally {
      await storeA.close();
      await storeB.close();
    }
  });
});
