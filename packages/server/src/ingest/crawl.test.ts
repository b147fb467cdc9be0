import { afterEach, describe, expect, it } from 'vitest';
import { createCore, type Principal } from '@svc/core';
import { createMemoryStore, echoAgent, makeAccount, makeKnowledgeBase } from '@svc/core/testing';
import {
  articleMarker,
  articlePath,
  CHROME_MARKERS,
  NOINDEX_HEADER_MARKER,
  NOINDEX_MARKER,
  PDF_MARKER,
  PDF_PATH,
  PRIVATE_MARKER,
  PRIVATE_PATH,
  SLOW_PATH,
  startHelpCentreSite,
  ZIP_PATH,
  type HelpCentreSite,
} from '../testing/help-centre-site.js';
import { createSiteReader } from './site-reader.js';

/**
 * Core's sync job with this reader against the loopback help centre, on the memory store: the reader's side of the
 * crawl end to end (the HTTP, CLI and database suites run it on PGlite and PostgreSQL).
 */
let site: HelpCentreSite | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

const ARTICLES = 60;

async function setup() {
  site = await startHelpCentreSite({ articles: ARTICLES });
  const store = createMemoryStore();
  const account = makeAccount({ id: 'acct_crawl', balance: 10_000 });
  const kb = makeKnowledgeBase({ id: 'kb_crawl', accountId: account.id });
  await store.insertAccount(account);
  await store.insertKnowledgeBase(kb);
  const core = createCore({
    store,
    agent: echoAgent(),
    cursorSecret: 'crawl-test-cursor-secret-0123',
    urlProblem: () => null,
    reader: createSiteReader({ allowPrivateUrls: true, pageTimeoutMs: 2_000 }),
  });
  const principal: Principal = {
    accountId: account.id,
    keyId: 'key_crawl',
    kind: 'secret',
    scopes: ['knowledge:read', 'knowledge:write'],
    callbackUrl: null,
    replyFormat: 'markdown',
    widgetId: null,
    identity: null,
  };
  const sync = async (): Promise<void> => {
    for (let rounds = 0; (await core.work.syncSources()).busy; rounds += 1) if (rounds > 500) throw new Error('the sync does not end');
  };
  const documents = async () => store.listDocuments(kb.id);
  return { core, principal, kbId: kb.id, site, sync, documents };
}

describe('crawling the loopback help centre with the site reader', () => {
  it('stores every article once with no chrome, skips disallowed, noindex and binary pages, and re-syncs with 304s', { timeout: 60_000 }, async () => {
    const h = await setup();
    const added = await h.core.api.knowledge.addSource(h.principal, h.kbId, { type: 'website', url: `${h.site.url}/` });
    await h.sync();

    const docs = await h.documents();
    const all = docs.map((d) => d.content).join('\n');
    for (let id = 1; id <= ARTICLES; id += 1) {
      const holding = docs.filter((d) => d.content.includes(articleMarker(id)));
      expect(holding.map((d) => d.url)).toEqual([`${h.site.url}${articlePath(id)}`]);
    }
    for (const marker of CHROME_MARKERS) expect(all).not.toContain(marker);
    for (const marker of [PRIVATE_MARKER, NOINDEX_MARKER, NOINDEX_HEADER_MARKER]) expect(all).not.toContain(marker);
    expect(docs.find((d) => d.url === `${h.site.url}${PDF_PATH}`)?.content).toContain(PDF_MARKER);
    expect(h.site.count(PRIVATE_PATH)).toBe(0);
    expect(docs.some((d) => d.url?.includes('utm_') || d.url?.includes('#') || d.url?.includes(ZIP_PATH))).toBe(false);
    const first = await h.core.api.knowledge.getSource(h.principal, h.kbId, added.data.id);
    expect(first.data).toMatchObject({ status: 'ready' });
    expect(first.data.failedPages).toEqual([expect.objectContaining({ url: `${h.site.url}${SLOW_PATH}` })]);
    const articleGets = h.site.count(articlePath(5), 200);

    h.site.edit(7, `${articleMarker(7)} now says: stoves may be returned unused within 90 days.`);
    h.site.remove(8);
    h.site.unlink(9);
    await h.core.api.knowledge.syncSource(h.principal, h.kbId, added.data.id);
    await h.sync();

    const after = await h.documents();
    expect(h.site.count(articlePath(5), 200)).toBe(articleGets);
    expect(h.site.count(articlePath(5), 304)).toBe(1);
    expect(after.find((d) => d.url === `${h.site.url}${articlePath(7)}`)?.content).toContain('within 90 days');
    expect(after.some((d) => d.url === `${h.site.url}${articlePath(8)}`)).toBe(false);
    expect(after.some((d) => d.url === `${h.site.url}${articlePath(9)}`)).toBe(false);
    const kept = docs.find((d) => d.url === `${h.site.url}${articlePath(5)}`)!;
    expect(after.find((d) => d.url === kept.url)?.id).toBe(kept.id);
    expect(after).toHaveLength(docs.length - 2);
  });
});
