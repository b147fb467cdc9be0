import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Workers } from '../workers/workers.js';
import { createHarness, type Harness } from '../testing/harness.js';

/**
 * Knowledge sources over HTTP (DESIGN.md section 11 "Sources"): every route's answers and refusals, another account's
 * sources out of reach, and a website on loopback crawled by the server's own worker until the source is ready.
 */

const ARTICLE = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><nav><a href="/">Home</a> · Help centre</nav><main><article><h1>${title}</h1>${body
    .split('\n')
    .map((p) => `<p>${p}</p>`)
    .join('')}</article></main><footer>© Northwind Outfitters · Cookie settings</footer></body></html>`;

const PAGES: Record<string, string> = {
  '/help/': ARTICLE(
    'Help centre',
    'Welcome to the Northwind help centre. Find answers about delivery and returns below.\n<a href="/help/delivery">Delivery times</a> and <a href="/help/returns">Returns</a> and <a href="/help/broken">Gift cards</a>.',
  ),
  '/help/delivery': ARTICLE(
    'Delivery times',
    'Orders placed before noon leave our Reykjavik warehouse the same day.\nDelivery to Canada takes five to seven working days, and tracking is sent by email as soon as the parcel leaves.\nExpress delivery is available to most European countries for a fee of twelve euros.',
  ),
  '/help/returns': ARTICLE(
    'Returns',
    'You can return any unused item within sixty days of delivery for a full refund.\nPrint the prepaid label from your account, pack the item in its original box and drop it at any post office.\nRefunds reach your card within five working days of the parcel arriving back at our warehouse.',
  ),
};

/** A small help centre on loopback: three pages, one page that fails (500), ETags so a re-sync is answered 304. */
function startSite(): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const page = PAGES[path];
    if (path === '/help/broken') return res.writeHead(500, { 'content-type': 'text/plain' }).end('boom');
    if (!page) return res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    const etag = `"${Buffer.from(page).length}"`;
    if (req.headers['if-none-match'] === etag) return res.writeHead(304, { etag }).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', etag }).end(page);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })));
}

let h: Harness;
let site: { server: Server; origin: string };
let workers: Workers;
let writeKey: string;
let readKey: string;
let kbId: string;

beforeAll(async () => {
  [h, site] = await Promise.all([createHarness({ config: { allowPrivateCallbacks: true } }), startSite()]);
  workers = h.runtime.startWorkers({ sourcePollMs: 100 });
  writeKey = await h.newKey(['knowledge:write']);
  readKey = await h.newKey(['knowledge:read']);
  kbId = (await h.post('/knowledge-bases', { name: 'Help centre' }, { key: writeKey })).body.data.id;
});
afterAll(async () => {
  await workers?.stop();
  await new Promise((resolve) => site?.server.close(resolve));
});

const sources = () => `/knowledge-bases/${kbId}/sources`;

async function settled(sourceId: string): Promise<{ status: string; documents: number; progress: Record<string, number>; failedPages: Array<{ url: string; status: number | null; reason: string }> }> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const res = await h.get(`${sources()}/${sourceId}`, { key: readKey });
    expect(res.status).toBe(200);
    if (res.body.data.status === 'ready' || res.body.data.status === 'failed') return res.body.data;
    if (Date.now() > deadline) throw new Error(`still ${res.body.data.status}: ${JSON.stringify(res.body.data.progress)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('website sources', () => {
  it('are crawled on loopback by the worker: ready with a document per article, the failing page listed with why', async () => {
    const created = await h.post(sources(), { type: 'website', url: `${site.origin}/help/`, maxPages: 50 }, { key: writeKey });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`sources/${created.body.data.id}`);
    expect(created.body.data).toMatchObject({
      type: 'website',
      url: `${site.origin}/help/`,
      status: 'queued',
      maxPages: 50,
      schedule: 'off',
      include: [],
      exclude: [],
      knowledgeBaseId: kbId,
    });
    expect(created.body.data.id).toMatch(/^src_/);

    const ready = await settled(created.body.data.id);
    expect(ready.status).toBe('ready');
    expect(ready.documents).toBeGreaterThanOrEqual(2);
    expect(ready.failedPages).toEqual([expect.objectContaining({ url: `${site.origin}/help/broken`, status: 500 })]);

    const hits = (await h.post(`/knowledge-bases/${kbId}/search`, { query: 'how long does delivery to Canada take' }, { key: writeKey })).body.data.passages;
    expect(hits[0].content).toMatch(/five to seven working days/);
    expect(hits.every((hit: { content: string }) => !hit.content.includes('Cookie settings'))).toBe(true);

    // A re-sync (202) finds the pages unchanged: 304s, the documents kept.
    const sync = await h.post(`${sources()}/${created.body.data.id}/sync`, undefined, { key: writeKey });
    expect(sync.status).toBe(202);
    expect(['queued', 'syncing']).toContain(sync.body.data.status);
    const again = await settled(created.body.data.id);
    expect(again.status).toBe('ready');
    expect(again.documents).toBe(ready.documents);
    expect(again.progress.unchanged).toBeGreaterThanOrEqual(2);
  });

  it('list (paginated), read, delete (with their documents), and 404 once gone', async () => {
    const created = await h.post(sources(), { type: 'website', url: `${site.origin}/help/returns`, schedule: 'weekly' }, { key: writeKey });
    expect(created.status).toBe(201);
    const id: string = created.body.data.id;
    await settled(id);

    const page = await h.get(`${sources()}?limit=1`, { key: readKey });
    expect(page.status).toBe(200);
    expect(page.body.data).toHaveLength(1);
    expect(page.body.pagination).toMatchObject({ hasMore: true });
    const all = await h.get(`${sources()}?limit=100`, { key: readKey });
    expect(all.body.data.map((s: { id: string }) => s.id)).toContain(id);

    const read = await h.get(`${sources()}/${id}`, { key: readKey });
    expect(read.body.data).toMatchObject({ id, schedule: 'weekly', failedPages: [] });
    expect(read.body.data.nextSyncAt).toEqual(expect.any(String));

    const deleted = await h.request('DELETE', `${sources()}/${id}`, undefined, { key: writeKey });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual({ id, deleted: true });
    const documents = (await h.get(`/knowledge-bases/${kbId}/documents?limit=100`, { key: readKey })).body.data as Array<{ sourceId: string | null }>;
    expect(documents.filter((doc) => doc.sourceId === id)).toEqual([]);
    for (const [method, path] of [
      ['GET', `${sources()}/${id}`],
      ['DELETE', `${sources()}/${id}`],
      ['POST', `${sources()}/${id}/sync`],
    ] as const) {
      const gone = await h.request(method, path, undefined, { key: writeKey });
      expect(gone.status, `${method} ${path}`).toBe(404);
      expect(gone.body.error.code).toBe('source_not_found');
    }
  });

  it('refuses bad bodies naming the field', async () => {
    const cases: Array<[unknown, string]> = [
      [{ type: 'file', url: 'https://help.example.com/' }, 'type'],
      [{ type: 'manual' }, 'type'],
      [{ type: 'website', url: 'ftp://help.example.com/' }, 'url'],
      [{ type: 'website' }, 'url'],
      [{ type: 'website', url: 'https://help.example.com/', maxPages: 0 }, 'maxPages'],
      [{ type: 'website', url: 'https://help.example.com/', maxPages: 10_001 }, 'maxPages'],
      [{ type: 'website', url: 'https://help.example.com/', schedule: 'hourly' }, 'schedule'],
      [{ type: 'website', url: 'https://help.example.com/', crawl: true }, 'crawl'],
    ];
    for (const [body, field] of cases) {
      const res = await h.post(sources(), body, { key: writeKey });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error, JSON.stringify(body)).toMatchObject({ code: 'validation_failed', field });
    }
    const badId = await h.get(`${sources()}/not%20an%20id!`, { key: readKey });
    expect(badId.status).toBe(400);
    expect(badId.body.error.field).toBe('sourceId');
    const unknown = await h.get(`${sources()}/src_doesnotexist`, { key: readKey });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('source_not_found');
  });

  it('are out of reach of another account (404) and need knowledge:write to change (403)', async () => {
    const created = await h.post(sources(), { type: 'website', url: `${site.origin}/help/delivery` }, { key: writeKey });
    const id: string = created.body.data.id;
    const other = await h.admin.createAccount({ name: 'Other shop', credits: 100 });
    const otherKey = await h.newKey(['knowledge:write', 'knowledge:read'], other.id);
    const calls = [
      ['GET', sources(), undefined],
      ['POST', sources(), { type: 'website', url: 'https://help.example.com/' }],
      ['GET', `${sources()}/${id}`, undefined],
      ['POST', `${sources()}/${id}/sync`, undefined],
      ['DELETE', `${sources()}/${id}`, undefined],
    ] as const;
    for (const [method, path, body] of calls) {
      const res = await h.request(method, path, body, { key: otherKey });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error.code).toBe('knowledge_base_not_found');
    }
    for (const [method, path, body] of calls) {
      const res = await h.request(method, path, body, { key: readKey });
      expect(res.status, `${method} ${path}`).toBe(method === 'GET' ? 200 : 403);
    }
    expect((await h.get(`${sources()}/${id}`, { key: h.key })).status).toBe(403);
  });
});
