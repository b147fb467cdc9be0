import { afterAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { operatorAdmin } from '../cli/operator-admin.js';
import { loadConfig } from '../config.js';
import { openStore } from '../open-store.js';
import {
  articleMarker,
  articlePath,
  CHROME_MARKERS,
  NOINDEX_HEADER_MARKER,
  NOINDEX_MARKER,
  PRIVATE_MARKER,
  PRIVATE_PATH,
  startHelpCentreSite,
  type HelpCentreSite,
} from '../testing/help-centre-site.js';
import { freshSchema, kill, startCliServer, type CliServer } from '../testing/processes.js';

/**
 * Issue 22, "Done when": a crash mid-crawl between real processes. `svc start` crawls the loopback help centre (a few
 * hundred articles) for a website source added over HTTP, is SIGKILLed while pages are being read, and a new `svc
 * start` on the same database resumes the sync once the lease runs out (SVC_SOURCE_LEASE_MS): every article stored
 * exactly once, no chrome, nothing disallowed or noindex. Then a re-sync in the second process: 304s, an edited article
 * updated, a removed one gone. On PGlite and on PostgreSQL.
 */
const DATABASE_URL = process.env.SVC_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ARTICLES = 300;
const BASE_ENV = {
  LOG_LEVEL: 'silent',
  SVC_SEED_DEMO: 'false',
  SVC_ALLOW_PRIVATE_URLS: 'true',
  SVC_SOURCE_LEASE_MS: '2000',
  SVC_SOURCE_PAGE_TIMEOUT_MS: '1500',
  SVC_SHUTDOWN_TIMEOUT_MS: '5000',
};

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

type Open = () => Promise<Record<string, string>>;

const STORES: [string, Open][] = [
  [
    'PGlite',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'svc-crawl-'));
      cleanups.push(() => rm(dir, { recursive: true, force: true }));
      return { SVC_DATA_DIR: join(dir, 'data') };
    },
  ],
  [
    'PostgreSQL',
    async () => {
      const schema = await freshSchema(DATABASE_URL, 't_crawl');
      cleanups.push(schema.drop);
      return { DATABASE_URL: schema.url };
    },
  ],
];

/** An account with credits for two crawls, and a server key that may write knowledge. */
async function provision(env: Record<string, string>): Promise<string> {
  const store = await openStore(loadConfig(env));
  try {
    const admin = operatorAdmin(store, { allowPrivateCallbacks: true });
    const account = await admin.createAccount({ name: 'Crawl', credits: 10_000 });
    const created = await admin.createApiKey({ accountId: account.id, scopes: ['knowledge:read', 'knowledge:write'] });
    return created.key;
  } finally {
    await store.close();
  }
}

async function startServer(env: Record<string, string>): Promise<CliServer> {
  const server = await startCliServer(env);
  cleanups.push(() => kill(server.child, 'SIGKILL'));
  return server;
}

interface SourceView {
  status: string;
  documents: number;
  progress: { found: number; fetched: number; unchanged: number; failed: number; skipped: number };
}

function api(base: string, key: string) {
  const call = async (method: string, path: string, body?: unknown): Promise<{ status: number; json: { data: unknown; pagination?: { cursor: string | null; hasMore: boolean } } }> => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, json: (await res.json()) as { data: unknown; pagination?: { cursor: string | null; hasMore: boolean } } };
  };
  return {
    call,
    source: async (kbId: string, sourceId: string) => (await call('GET', `/knowledge-bases/${kbId}/sources/${sourceId}`)).json.data as SourceView,
    /** Every document's URL, through the paginated list. */
    documentUrls: async (kbId: string): Promise<(string | null)[]> => {
      const urls: (string | null)[] = [];
      let cursor: string | null = null;
      do {
        const page = await call('GET', `/knowledge-bases/${kbId}/documents?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        expect(page.status).toBe(200);
        urls.push(...(page.json.data as { url: string | null }[]).map((doc) => doc.url));
        cursor = page.json.pagination?.hasMore ? page.json.pagination.cursor : null;
      } while (cursor);
      return urls;
    },
  };
}

async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function expectEveryArticleOnce(site: HelpCentreSite, urls: (string | null)[], except: number[] = []): void {
  const counts = new Map<string | null, number>();
  for (const url of urls) counts.set(url, (counts.get(url) ?? 0) + 1);
  expect([...counts].filter(([, n]) => n > 1)).toEqual([]);
  for (let id = 1; id <= ARTICLES; id += 1) {
    if (!except.includes(id)) expect(counts.get(`${site.url}${articlePath(id)}`), `article ${id}`).toBe(1);
  }
}

describe.each(STORES)('a crawl killed mid-sync on %s', { timeout: 120_000 }, (name, open) => {
  it('is resumed by a new process with every article once, then re-synced with 304s, an edit and a removal', async () => {
    const started = Date.now();
    const site = await startHelpCentreSite({ articles: ARTICLES });
    cleanups.push(() => site.close());
    const env = { ...BASE_ENV, ...(await open()) };
    const key = await provision(env);

    const first = await startServer(env);
    let client = api(first.url, key);
    const kb = await client.call('POST', '/knowledge-bases', { name: 'Help centre' });
    expect(kb.status).toBe(201);
    const kbId = (kb.json.data as { id: string }).id;
    const added = await client.call('POST', `/knowledge-bases/${kbId}/sources`, { type: 'website', url: `${site.url}/` });
    expect(added.status).toBe(201);
    const sourceId = (added.json.data as { id: string }).id;
    const before = await until('pages fetched', () => client.source(kbId, sourceId), (s) => s.progress.fetched >= 30);
    await kill(first.child, 'SIGKILL');
    expect(before.status).toBe('syncing');
    expect(before.progress.fetched).toBeLessThan(ARTICLES);
    const readBeforeCrash = site.count();

    const second = await startServer(env);
    client = api(second.url, key);
    const synced = await until('the resumed sync', () => client.source(kbId, sourceId), (s) => s.status !== 'syncing' && s.status !== 'queued');
    expect(synced.status).toBe('ready');
    expect(site.count()).toBeGreaterThan(readBeforeCrash);
    expectEveryArticleOnce(site, await client.documentUrls(kbId));
    expect(site.count(PRIVATE_PATH)).toBe(0);
    // Resumed, not restarted: only the reads in flight at the kill (2 per host) and the redirect's hop read twice.
    const articleDownloads = Array.from({ length: ARTICLES }, (_, i) => site.count(articlePath(i + 1), 200)).reduce((a, b) => a + b, 0);
    expect(articleDownloads).toBeLessThanOrEqual(ARTICLES + 3);
    const articleGets = site.count(articlePath(5), 200);

    site.edit(7, `${articleMarker(7)} now says: stoves may be returned unused within 90 days.`);
    site.remove(8);
    const resync = await client.call('POST', `/knowledge-bases/${kbId}/sources/${sourceId}/sync`);
    expect(resync.status).toBe(202);
    const resynced = await until('the re-sync', () => client.source(kbId, sourceId), (s) => s.status === 'ready' && s.progress.unchanged > 0);
    expect(resynced.progress.unchanged).toBeGreaterThanOrEqual(ARTICLES - 2);
    expect(site.count(articlePath(5), 200)).toBe(articleGets);
    expect(site.count(articlePath(5), 304)).toBe(1);
    expect(site.count(articlePath(8), 404)).toBe(1);
    const urls = await client.documentUrls(kbId);
    expectEveryArticleOnce(site, urls, [8]);
    expect(urls).not.toContain(`${site.url}${articlePath(8)}`);
    await kill(second.child, 'SIGTERM');

    // The stored text, read from the database the processes shared.
    const store = await openStore(loadConfig(env));
    try {
      const docs = await store.listDocuments(kbId);
      const all = docs.map((doc) => doc.content).join('\n');
      for (const marker of CHROME_MARKERS) expect(all).not.toContain(marker);
      for (const marker of [PRIVATE_MARKER, NOINDEX_MARKER, NOINDEX_HEADER_MARKER]) expect(all).not.toContain(marker);
      expect(docs.find((doc) => doc.url === `${site.url}${articlePath(7)}`)?.content).toContain('within 90 days');
      for (let id = 1; id <= ARTICLES; id += 1) {
        const holding = docs.filter((doc) => doc.content.includes(articleMarker(id)));
        expect(holding.map((doc) => doc.url)).toEqual(id === 8 ? [] : [`${site.url}${articlePath(id)}`]);
      }
    } finally {
      await store.close();
    }
    console.log(`crawl-processes ${name}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  });
});
