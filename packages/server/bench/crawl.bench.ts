/**
 * `pnpm bench` (crawl): how fast a website source is crawled, and what a re-sync of unchanged pages costs next to the
 * first sync (DESIGN.md section 11 "Sources").
 *
 * The loopback help centre of `packages/server/src/testing/help-centre-site.ts` (BENCH_CRAWL_ARTICLES articles, 300,
 * with site chrome, categories, sitemaps, robots.txt, noindex pages, a redirect, a PDF and a zip) is crawled through
 * core's sync job (`core.work.syncSources`, rounds back to back as the source worker runs them) and the server's real
 * site reader (HTTP, Readability, 2 reads in flight per host), on PGlite (and PostgreSQL when SVC_BENCH_DATABASE_URL
 * or SVC_TEST_DATABASE_URL is set). The page that never answers is excluded so a timeout does not stand in for the
 * crawl. Then, with nothing changed on the site, a re-sync: every page revalidated with If-None-Match (304s, no
 * download, no credit). Reported per store: pages per second of the first sync, and the re-sync's time, bytes
 * downloaded, GETs answered 200 and crawler credits as ratios to the first sync's, measured in the same run.
 */
import pg from 'pg';
import { createInstantAgent } from '@svc/agents';
import { createCore, randomBase62, type Principal, type Store } from '@svc/core';
import { createPgliteStore, createPostgresStore } from '@svc/store-postgres';
import { operatorAdmin } from '../src/cli/operator-admin.js';
import { createSiteReader } from '../src/ingest/site-reader.js';
import { SLOW_PATH, startHelpCentreSite } from '../src/testing/help-centre-site.js';

const ARTICLES = Number(process.env.BENCH_CRAWL_ARTICLES ?? 300);
const POSTGRES_URL = process.env.SVC_BENCH_DATABASE_URL ?? process.env.SVC_TEST_DATABASE_URL;

interface Sync {
  seconds: number;
  /** Pages the sync stored or kept (fetched + unchanged). */
  pages: number;
  fetched: number;
  unchanged: number;
  gets: number;
  downloads: number;
  bytes: number;
  credits: number;
}

interface Figures {
  name: string;
  first: Sync;
  again: Sync;
  documents: number;
}

async function benchStore(name: string, store: Store): Promise<Figures> {
  const site = await startHelpCentreSite({ articles: ARTICLES });
  try {
    const admin = operatorAdmin(store);
    const account = await admin.createAccount({ name: 'Crawl bench', credits: 1e6 });
    const kb = await admin.createKnowledgeBase(account.id, { name: 'Help centre' });
    const principal: Principal = {
      accountId: account.id,
      keyId: 'key_bench',
      kind: 'secret',
      scopes: ['knowledge:read', 'knowledge:write'],
      callbackUrl: null,
      replyFormat: 'markdown',
      widgetId: null,
      identity: null,
    };
    const core = createCore({
      store,
      agent: createInstantAgent(),
      cursorSecret: `crawl-bench-${randomBase62(16)}`,
      urlProblem: () => null,
      reader: createSiteReader({ allowPrivateUrls: true }),
    });
    const balance = async (): Promise<number> => (await store.getAccount(account.id))!.balance;

    const sync = async (): Promise<Sync> => {
      const gets = site.count();
      const downloads = Object.values(site.requests).reduce((n, byStatus) => n + (byStatus[200] ?? 0), 0);
      const bytes = site.bytesSent();
      const before = await balance();
      const t0 = performance.now();
      for (let rounds = 0; (await core.work.syncSources()).busy; rounds++) if (rounds > 10_000) throw new Error('the sync does not end');
      const seconds = (performance.now() - t0) / 1000;
      const source = (await core.api.knowledge.getSource(principal, kb.id, sourceId)).data;
      if (source.status !== 'ready') throw new Error(`the sync ended ${source.status}: ${JSON.stringify(source)}`);
      return {
        seconds,
        pages: source.progress.fetched + source.progress.unchanged,
        fetched: source.progress.fetched,
        unchanged: source.progress.unchanged,
        gets: site.count() - gets,
        downloads: Object.values(site.requests).reduce((n, byStatus) => n + (byStatus[200] ?? 0), 0) - downloads,
        bytes: site.bytesSent() - bytes,
        credits: before - (await balance()),
      };
    };

    const added = await core.api.knowledge.addSource(principal, kb.id, { type: 'website', url: `${site.url}/`, exclude: [`${site.url}${SLOW_PATH}`] });
    const sourceId = added.data.id;
    const first = await sync();
    await core.api.knowledge.syncSource(principal, kb.id, sourceId);
    const again = await sync();
    const documents = (await store.listDocuments(kb.id)).length;
    if (again.unchanged < ARTICLES) throw new Error(`the re-sync kept ${again.unchanged} pages unchanged, expected at least ${ARTICLES}`);
    return { name, first, again, documents };
  } finally {
    await site.close();
  }
}

const results: Figures[] = [];
const pglite = await createPgliteStore();
try {
  results.push(await benchStore('PGlite', pglite));
} finally {
  await pglite.close();
}
if (POSTGRES_URL) {
  const schema = `bench_${randomBase62(8).toLowerCase()}`;
  const store = await createPostgresStore({ connectionString: POSTGRES_URL, schema, max: 4 });
  try {
    results.push(await benchStore('PostgreSQL', store));
  } finally {
    await store.close();
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    await client.query(`drop schema if exists "${schema}" cascade`);
    await client.end();
  }
}

const kb = (bytes: number): string => `${(bytes / 1024).toFixed(0)} KB`;
const ratio = (a: number, b: number): string => (b === 0 ? '-' : `${(a / b).toFixed(3)}×`);
console.log(`\nCrawl of the loopback help centre, ${ARTICLES} articles (core's sync job, the real site reader, 2 reads in flight), Node ${process.version}\n`);
console.log(`${'measurement'.padEnd(38)} ${'seconds'.padStart(8)} ${'pages'.padStart(6)} ${'pages/s'.padStart(8)} ${'GETs'.padStart(6)} ${'200s'.padStart(6)} ${'bytes'.padStart(9)} ${'credits'.padStart(8)}`);
for (const r of results) {
  for (const [label, s] of [
    ['first sync', r.first],
    ['re-sync, nothing changed', r.again],
  ] as const) {
    console.log(
      `${`${r.name}: ${label}`.padEnd(38)} ${s.seconds.toFixed(2).padStart(8)} ${String(s.pages).padStart(6)} ${(s.pages / s.seconds).toFixed(1).padStart(8)} ${String(s.gets).padStart(6)} ${String(s.downloads).padStart(6)} ${kb(s.bytes).padStart(9)} ${String(s.credits).padStart(8)}`,
    );
  }
}
console.log('');
for (const r of results) {
  console.log(
    `${r.name}: crawl ${(r.first.fetched / r.first.seconds).toFixed(1)} pages/s (${r.first.fetched} pages, ${r.documents} documents); re-sync of unchanged pages costs ${ratio(r.again.seconds, r.first.seconds)} the time, ${ratio(r.again.bytes, r.first.bytes)} the bytes, ${ratio(r.again.downloads, r.first.downloads)} the downloads and ${ratio(r.again.credits, r.first.credits)} the credits of the first sync (${r.again.unchanged} pages answered 304)`,
  );
}
if (!POSTGRES_URL) console.log('\nPostgreSQL: not measured; set SVC_BENCH_DATABASE_URL (or SVC_TEST_DATABASE_URL) to include it.');
