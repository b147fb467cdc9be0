import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIDENCE_THRESHOLD, manualClock, type Scope } from '@svc/core';
import { createHarness, type Harness, type JsonResponse } from '../testing/harness.js';

// Knowledge bases over HTTP (issue #3) and the widget's configuration (issue #6), through the real app.

const ORIGIN = 'https://shop.example';
const TENT = { name: 'Summit 1 Bivy Tent', price: 189, currency: 'EUR', description: 'A one-person bivy tent for alpine nights.' };
const GIFT_CARDS = {
  title: 'Gift cards',
  content: '# Gift cards\n\nNorthwind gift cards never expire and can be redeemed in any of our fourteen Reykjavik stores.',
  url: 'https://northwind-outfitters.example/gift-cards',
};
const RENTALS = { title: 'Rentals', content: '# Rentals\n\nKayak rentals cost 40 euros per day, life jacket included.' };

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
interface Call {
  method: Method;
  path: string;
  body?: unknown;
  /** Needs `knowledge:write`; otherwise `knowledge:read` or `knowledge:write` suffices. */
  write: boolean;
}

/** Every knowledge endpoint, with a valid body, addressing knowledge base `kb`, product `productId` and document `documentId`. */
function calls(kb: string, productId: string, documentId: string): Call[] {
  const base = `/knowledge-bases/${kb}`;
  return [
    { method: 'POST', path: '/knowledge-bases', body: { name: 'Spring catalogue' }, write: true },
    { method: 'GET', path: '/knowledge-bases', write: false },
    { method: 'GET', path: base, write: false },
    { method: 'GET', path: `${base}/products`, write: false },
    { method: 'POST', path: `${base}/products`, body: { products: [{ id: 'bivy-1', ...TENT }] }, write: true },
    { method: 'PUT', path: `${base}/products/${productId}`, body: TENT, write: true },
    { method: 'DELETE', path: `${base}/products/${productId}`, write: true },
    { method: 'GET', path: `${base}/documents`, write: false },
    { method: 'POST', path: `${base}/documents`, body: RENTALS, write: true },
    { method: 'PUT', path: `${base}/documents/${documentId}`, body: RENTALS, write: true },
    { method: 'DELETE', path: `${base}/documents/${documentId}`, write: true },
    { method: 'POST', path: `${base}/search`, body: { query: 'tent' }, write: false },
  ];
}

const label = (call: Call): string => `${call.method} ${call.path}`;
const send = (h: Harness, call: Call, key: string, headers?: Record<string, string>): Promise<JsonResponse> =>
  h.request(call.method, call.path, call.body, { key, ...(headers ? { headers } : {}) });

async function keys(h: Harness): Promise<Record<'write' | 'read' | 'chat', string>> {
  const key = (scopes: Scope[]) => h.newKey(scopes);
  return { write: await key(['knowledge:write']), read: await key(['knowledge:read']), chat: h.key };
}

/** A knowledge base of the harness account with one product (`bivy-1`) and one document, made through the API. */
async function stocked(h: Harness, writeKey: string): Promise<{ kb: string; documentId: string }> {
  const created = await h.post('/knowledge-bases', { name: 'Stocked' }, { key: writeKey });
  const kb: string = created.body.data.id;
  await h.request('PUT', `/knowledge-bases/${kb}/products/bivy-1`, TENT, { key: writeKey });
  const doc = await h.post(`/knowledge-bases/${kb}/documents`, GIFT_CARDS, { key: writeKey });
  return { kb, documentId: doc.body.data.id };
}

function expectError(res: JsonResponse, status: number, code: string, field?: string): void {
  expect({ status: res.status, code: res.body?.error?.code, field: res.body?.error?.field }).toEqual({ status, code, field });
  expect(res.body.meta).toEqual({ creditsConsumed: 0 });
}

describe('knowledge bases: scopes (DESIGN.md section 4)', () => {
  it('knowledge:write may call every endpoint', async () => {
    const h = await createHarness();
    const { write } = await keys(h);
    const { kb, documentId } = await stocked(h, write);
    for (const call of calls(kb, 'bivy-1', documentId)) {
      const res = await send(h, call, write);
      expect(res.status, label(call)).toBeLessThan(300);
    }
  });

  it('knowledge:read may read and search; every write is 403 insufficient_scope and changes nothing', async () => {
    const h = await createHarness();
    const { write, read } = await keys(h);
    const { kb, documentId } = await stocked(h, write);
    for (const call of calls(kb, 'bivy-1', documentId)) {
      const res = await send(h, call, read);
      if (call.write) expectError(res, 403, 'insufficient_scope');
      else expect(res.status, label(call)).toBe(200);
    }
    const detail = await h.get(`/knowledge-bases/${kb}`, { key: read });
    expect(detail.body.data).toMatchObject({ products: 1, documents: 1 });
    expect((await h.get('/knowledge-bases', { key: read })).body.pagination.total).toBe(2);
  });

  it('a conversations:chat key is 403 insufficient_scope on every endpoint', async () => {
    const h = await createHarness();
    const { write, chat } = await keys(h);
    const { kb, documentId } = await stocked(h, write);
    for (const call of calls(kb, 'bivy-1', documentId)) expectError(await send(h, call, chat), 403, 'insufficient_scope');
  });

  it("a widget public key, even from its allowed origin, is 403 on every endpoint", async () => {
    const h = await createHarness();
    const { write } = await keys(h);
    const { kb, documentId } = await stocked(h, write);
    const { key } = await h.admin.createPublicKey(h.account.id, { widgetId: h.widget.id, origins: [ORIGIN] });
    for (const call of calls(kb, 'bivy-1', documentId)) {
      const res = await send(h, call, key, { Origin: ORIGIN });
      expectError(res, 403, 'insufficient_scope');
      // The browser may read the refusal: it came from an allowed origin.
      expect(res.headers.get('access-control-allow-origin'), label(call)).toBe(ORIGIN);
    }
    expectError(await send(h, calls(kb, 'bivy-1', documentId)[1]!, key, { Origin: 'https://evil.example' }), 403, 'origin_not_allowed');
  });
});

describe('knowledge bases: tenancy', () => {
  it("answers 404 knowledge_base_not_found for another account's knowledge base on every endpoint, and changes nothing", async () => {
    const h = await createHarness();
    const { write } = await keys(h);
    const { kb, documentId } = await stocked(h, write);
    const other = await h.admin.createAccount({ name: 'Other', credits: 100 });
    const theirs = await h.newKey(['knowledge:write'], other.id);
    const scoped = calls(kb, 'bivy-1', documentId).filter((call) => call.path.startsWith(`/knowledge-bases/${kb}`));
    expect(scoped).toHaveLength(10);
    for (const call of scoped) expectError(await send(h, call, theirs), 404, 'knowledge_base_not_found');
    // Unknown ids look the same as foreign ones.
    for (const call of calls('kb_doesnotexist', 'bivy-1', documentId).slice(2)) expectError(await send(h, call, write), 404, 'knowledge_base_not_found');
    // Their listing does not show ours; ours is intact.
    expect((await h.get('/knowledge-bases', { key: theirs })).body).toMatchObject({ data: [], pagination: { total: 0, hasMore: false, cursor: null } });
    expect((await h.get(`/knowledge-bases/${kb}`, { key: write })).body.data).toMatchObject({ products: 1, documents: 1 });
  });
});

describe('knowledge bases: validation (400 naming the field)', () => {
  it.each([
    ['missing name', {}, 'name'],
    ['blank name', { name: '   ' }, 'name'],
    ['name not a string', { name: 42 }, 'name'],
    ['name too long', { name: 'x'.repeat(201) }, 'name'],
  ])('POST /knowledge-bases: %s', async (_, body, field) => {
    const h = await createHarness();
    expectError(await h.post('/knowledge-bases', body, { key: await h.newKey(['knowledge:write']) }), 400, 'validation_failed', field);
  });

  it.each([
    ['negative price', { name: 'Tent', price: -1 }, 'price'],
    ['price as text', { name: 'Tent', price: '249' }, 'price'],
    ['missing price', { name: 'Tent' }, 'price'],
    ['missing name', { price: 10 }, 'name'],
    ['empty name', { name: '', price: 10 }, 'name'],
    ['bad url', { name: 'Tent', price: 10, url: 'not a url' }, 'url'],
    ['bad imageUrl', { name: 'Tent', price: 10, imageUrl: '/relative.png' }, 'imageUrl'],
    ['a javascript: url (regression: any scheme was stored and shown to visitors as a link)', { name: 'Tent', price: 10, url: 'javascript:alert(1)' }, 'url'],
    ['a data: imageUrl', { name: 'Tent', price: 10, imageUrl: 'data:image/svg+xml,<svg onload=alert(1)>' }, 'imageUrl'],
    ['bad currency', { name: 'Tent', price: 10, currency: 'euro' }, 'currency'],
  ])('PUT …/products/{productId}: %s', async (_, body, field) => {
    const h = await createHarness();
    const res = await h.request('PUT', `/knowledge-bases/${h.knowledgeBase.id}/products/p1`, body, { key: await h.newKey(['knowledge:write']) });
    expectError(res, 400, 'validation_failed', field);
  });

  it('PUT …/products/{productId}: a product id over 128 characters is refused naming productId', async () => {
    const h = await createHarness();
    const res = await h.request('PUT', `/knowledge-bases/${h.knowledgeBase.id}/products/${'p'.repeat(129)}`, TENT, { key: await h.newKey(['knowledge:write']) });
    expectError(res, 400, 'validation_failed', 'productId');
  });

  it('PUT …/products/{productId}: a body id other than the path id is refused naming id (it was silently ignored)', async () => {
    const h = await createHarness();
    const res = await h.request('PUT', `/knowledge-bases/${h.knowledgeBase.id}/products/p1`, { ...TENT, id: 'p2' }, { key: await h.newKey(['knowledge:write']) });
    expectError(res, 400, 'validation_failed', 'id');
  });

  it.each([
    ['missing products', {}, 'products'],
    ['empty products', { products: [] }, 'products'],
    ['products not an array', { products: { id: 'a' } }, 'products'],
    ['bad price in the second item', { products: [{ id: 'a', ...TENT }, { id: 'b', name: 'B', price: -5 }] }, 'products.1.price'],
    ['missing id', { products: [{ ...TENT }] }, 'products.0.id'],
    ['duplicate ids', { products: [{ id: 'a', ...TENT }, { id: 'b', ...TENT }, { id: 'a', ...TENT }] }, 'products.2.id'],
    ['more than 1000 products', { products: Array.from({ length: 1001 }, (_, i) => ({ id: `p${i}`, name: 'P', price: 1 })) }, 'products'],
  ])('POST …/products: %s', async (_, body, field) => {
    const h = await createHarness();
    const key = await h.newKey(['knowledge:write']);
    const count = async () => (await h.get(`/knowledge-bases/${h.knowledgeBase.id}`, { key })).body.data.products as number;
    const before = await count();
    expectError(await h.post(`/knowledge-bases/${h.knowledgeBase.id}/products`, body, { key }), 400, 'validation_failed', field);
    // A refused batch writes nothing, not even its valid items.
    expect(await count()).toBe(before);
  });

  it.each([
    ['missing title', { content: 'Text' }, 'title'],
    ['empty title', { title: '', content: 'Text' }, 'title'],
    ['blank title', { title: '  ', content: 'Text' }, 'title'],
    ['missing content', { title: 'T' }, 'content'],
    ['empty content', { title: 'T', content: '' }, 'content'],
    ['bad url', { title: 'T', content: 'Text', url: 'www.example.com/page' }, 'url'],
    ['a javascript: url (regression: any scheme was stored)', { title: 'T', content: 'Text', url: 'javascript:alert(1)' }, 'url'],
    ['an ftp: url', { title: 'T', content: 'Text', url: 'ftp://files.example/guide.pdf' }, 'url'],
    ['content too long', { title: 'T', content: 'x'.repeat(60_001) }, 'content'],
  ])('POST and PUT …/documents: %s', async (_, body, field) => {
    const h = await createHarness();
    const key = await h.newKey(['knowledge:write']);
    const kb = h.knowledgeBase.id;
    expectError(await h.post(`/knowledge-bases/${kb}/documents`, body, { key }), 400, 'validation_failed', field);
    const { body: added } = await h.post(`/knowledge-bases/${kb}/documents`, RENTALS, { key });
    expectError(await h.request('PUT', `/knowledge-bases/${kb}/documents/${added.data.id}`, body, { key }), 400, 'validation_failed', field);
  });

  it.each([
    ['missing query', {}, 'query'],
    ['empty query', { query: '' }, 'query'],
    ['blank query', { query: '   ' }, 'query'],
    ['query not a string', { query: 42 }, 'query'],
    ['query too long', { query: 'tent '.repeat(201) }, 'query'],
    ['limit 0', { query: 'tent', limit: 0 }, 'limit'],
    ['limit 21', { query: 'tent', limit: 21 }, 'limit'],
    ['fractional limit', { query: 'tent', limit: 2.5 }, 'limit'],
  ])('POST …/search: %s', async (_, body, field) => {
    const h = await createHarness();
    const res = await h.post(`/knowledge-bases/${h.knowledgeBase.id}/search`, body, { key: await h.newKey(['knowledge:read']) });
    expectError(res, 400, 'validation_failed', field);
  });

  it('list endpoints refuse a bad limit naming limit and a forged cursor with invalid_cursor', async () => {
    const h = await createHarness();
    const key = await h.newKey(['knowledge:read']);
    for (const path of ['/knowledge-bases', `/knowledge-bases/${h.knowledgeBase.id}/documents`]) {
      expectError(await h.get(`${path}?limit=0`, { key }), 400, 'validation_failed', 'limit');
      expectError(await h.get(`${path}?limit=101`, { key }), 400, 'validation_failed', 'limit');
      expectError(await h.get(`${path}?cursor=forged`, { key }), 400, 'invalid_cursor', 'cursor');
    }
  });

  it('PUT bodies must be JSON objects sent as application/json', async () => {
    const h = await createHarness();
    const key = await h.newKey(['knowledge:write']);
    const path = `/knowledge-bases/${h.knowledgeBase.id}/products/p1`;
    expectError(await h.request('PUT', path, undefined, { key, raw: '{"name":"Tent","price":1}', headers: { 'Content-Type': 'text/plain' } }), 415, 'unsupported_media_type');
    expectError(await h.request('PUT', path, undefined, { key, raw: '{"name":', headers: { 'Content-Type': 'application/json' } }), 400, 'invalid_json');
    expectError(await h.request('PUT', path, [TENT], { key }), 400, 'validation_failed', 'body');
  });
});

describe('knowledge bases: lifecycle', () => {
  it('create → list → get → products → documents → search, as a client meets them', async () => {
    // The harness's demo knowledge base is created a second before ours, so the listing order is by creation time.
    const clock = manualClock('2029-12-31T23:59:59.000Z');
    const h = await createHarness({ clock });
    clock.advance(1000);
    const { write, read } = await keys(h);

    // Create: 201, free.
    const created = await h.post('/knowledge-bases', { name: '  Winter catalogue  ' }, { key: write });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      data: { id: expect.stringMatching(/^kb_/), name: 'Winter catalogue', createdAt: '2030-01-01T00:00:00.000Z' },
      meta: { creditsConsumed: 0 },
    });
    const kb: string = created.body.data.id;
    const base = `/knowledge-bases/${kb}`;

    // List: the demo knowledge base (older) and ours, with total.
    const list = await h.get('/knowledge-bases', { key: read });
    expect(list.status).toBe(200);
    expect(list.body.data.map((k: { id: string }) => k.id)).toEqual([h.knowledgeBase.id, kb]);
    expect(list.body.pagination).toEqual({ cursor: null, hasMore: false, total: 2 });

    // Get: counts start at zero.
    expect((await h.get(base, { key: read })).body).toEqual({
      data: { id: kb, name: 'Winter catalogue', createdAt: '2030-01-01T00:00:00.000Z', products: 0, documents: 0, embeddings: null },
      meta: { creditsConsumed: 0 },
    });

    // Put a product: answered as stored, listed, counted; putting it again replaces it whole.
    const put = await h.request('PUT', `${base}/products/bivy-1`, { ...TENT, id: 'bivy-1' }, { key: write });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ data: { id: 'bivy-1', ...TENT }, meta: { creditsConsumed: 0 } });
    const replaced = await h.request('PUT', `${base}/products/bivy-1`, { name: 'Summit 1 Bivy', price: 179 }, { key: write });
    expect(replaced.body.data).toEqual({ id: 'bivy-1', name: 'Summit 1 Bivy', price: 179 });
    const products = await h.get(`${base}/products`, { key: read });
    expect(products.body.data).toEqual([{ id: 'bivy-1', name: 'Summit 1 Bivy', price: 179 }]);
    expect(products.body.pagination).toEqual({ cursor: null, hasMore: false, total: 1 });

    // Batch upsert: adds new ids and replaces known ones.
    const upserted = await h.post(`${base}/products`, { products: [{ id: 'bivy-1', ...TENT }, { id: 'stove-1', name: 'Jet Stove', price: 89 }] }, { key: write });
    expect(upserted.body).toEqual({ data: { upserted: 2 }, meta: { creditsConsumed: 0 } });
    expect((await h.get(`${base}/products`, { key: read })).body.data).toEqual([
      { id: 'bivy-1', ...TENT },
      { id: 'stove-1', name: 'Jet Stove', price: 89 },
    ]);
    expect((await h.get(base, { key: read })).body.data.products).toBe(2);

    // Delete a product; the second time it is gone.
    const deleted = await h.request('DELETE', `${base}/products/stove-1`, undefined, { key: write });
    expect(deleted.body).toEqual({ data: { id: 'stove-1', deleted: true }, meta: { creditsConsumed: 0 } });
    expectError(await h.request('DELETE', `${base}/products/stove-1`, undefined, { key: write }), 404, 'product_not_found');
    expect((await h.get(`${base}/products`, { key: read })).body.data.map((p: { id: string }) => p.id)).toEqual(['bivy-1']);

    // Add a document: 201 without its content; search returns the passage it became.
    clock.advance(1000);
    const added = await h.post(`${base}/documents`, GIFT_CARDS, { key: write });
    expect(added.status).toBe(201);
    expect(added.body).toEqual({
      // Written by hand: the knowledge base's manual source (DESIGN.md section 11 "Sources").
      data: { id: expect.stringMatching(/^doc_/), knowledgeBaseId: kb, sourceId: expect.stringMatching(/^src_/), title: 'Gift cards', url: GIFT_CARDS.url, createdAt: '2030-01-01T00:00:01.000Z' },
      meta: { creditsConsumed: 0 },
    });
    const documentId: string = added.body.data.id;
    expect((await h.get(base, { key: read })).body.data).toMatchObject({ products: 1, documents: 1 });

    const found = await h.post(`${base}/search`, { query: 'Do gift cards expire?' }, { key: read });
    expect(found.status).toBe(200);
    expect(found.body.meta.creditsConsumed).toBeGreaterThan(0);
    expect(found.body.data.passages[0]).toEqual({
      documentId,
      title: 'Gift cards',
      url: GIFT_CARDS.url,
      content: expect.stringContaining('gift cards never expire'),
      rank: expect.any(Number),
      score: expect.any(Number),
      confidence: expect.any(Number),
      retrievers: ['text'],
    });
    // The title holds the question's words: the agent would answer from this passage.
    expect(found.body.data.confidence).toBe(found.body.data.passages[0].confidence);
    expect(found.body.data.confidence).toBeGreaterThanOrEqual(DEFAULT_CONFIDENCE_THRESHOLD);
    const tents = await h.post(`${base}/search`, { query: 'bivy tent', limit: 1 }, { key: read });
    expect(tents.body.data.products).toEqual([{ id: 'bivy-1', ...TENT, rank: expect.any(Number), confidence: expect.any(Number) }]);

    // Replace it: the old text is no longer found, the new one is, under the same id.
    const replacedDoc = await h.request('PUT', `${base}/documents/${documentId}`, RENTALS, { key: write });
    expect(replacedDoc.status).toBe(200);
    expect(replacedDoc.body.data).toEqual({ id: documentId, knowledgeBaseId: kb, sourceId: added.body.data.sourceId, title: 'Rentals', url: null, createdAt: '2030-01-01T00:00:01.000Z' });
    const stale = await h.post(`${base}/search`, { query: 'gift cards Reykjavik' }, { key: read });
    expect(stale.body.data.passages).toEqual([]);
    const fresh = await h.post(`${base}/search`, { query: 'kayak rentals' }, { key: read });
    expect(fresh.body.data.passages).toEqual([expect.objectContaining({ documentId, title: 'Rentals', content: expect.stringContaining('Kayak rentals cost 40 euros') })]);

    // Delete it: gone from search, the listing and the counts; a second delete and a replace are 404.
    const gone = await h.request('DELETE', `${base}/documents/${documentId}`, undefined, { key: write });
    expect(gone.body).toEqual({ data: { id: documentId, deleted: true }, meta: { creditsConsumed: 0 } });
    expectError(await h.request('DELETE', `${base}/documents/${documentId}`, undefined, { key: write }), 404, 'document_not_found');
    expectError(await h.request('PUT', `${base}/documents/${documentId}`, RENTALS, { key: write }), 404, 'document_not_found');
    expect((await h.post(`${base}/search`, { query: 'kayak rentals' }, { key: read })).body.data.passages).toEqual([]);
    expect((await h.get(`${base}/documents`, { key: read })).body.data).toEqual([]);
    expect((await h.get(base, { key: read })).body.data).toMatchObject({ products: 1, documents: 0 });
  });

  it('pages knowledge bases oldest first with total and an opaque cursor', async () => {
    const clock = manualClock('2030-01-01T00:00:00.000Z');
    const h = await createHarness({ clock });
    const { write, read } = await keys(h);
    const ids = [h.knowledgeBase.id];
    for (const name of ['A', 'B', 'C', 'D']) {
      clock.advance(1000);
      ids.push((await h.post('/knowledge-bases', { name }, { key: write })).body.data.id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor === null ? '?limit=2' : `?limit=2&cursor=${encodeURIComponent(cursor)}`;
      const page: JsonResponse = await h.get(`/knowledge-bases${query}`, { key: read });
      expect(page.status).toBe(200);
      expect(page.body.pagination.total).toBe(5);
      expect(page.body.pagination.hasMore).toBe(page.body.pagination.cursor !== null);
      seen.push(...page.body.data.map((k: { id: string }) => k.id));
      cursor = page.body.pagination.cursor;
      pages++;
    } while (cursor !== null);
    expect(pages).toBe(3);
    expect(seen).toEqual(ids);
    // A cursor of this list means nothing on another: it is refused, not misread.
    const first = await h.get('/knowledge-bases?limit=1', { key: read });
    const foreign = await h.get(`/knowledge-bases/${h.knowledgeBase.id}/documents?cursor=${encodeURIComponent(first.body.pagination.cursor)}`, { key: read });
    expectError(foreign, 400, 'invalid_cursor', 'cursor');
  });

  it('pages documents oldest first with total and an opaque cursor, each page billed like a products page', async () => {
    const clock = manualClock('2030-01-01T00:00:00.000Z');
    const h = await createHarness({ clock });
    const { write, read } = await keys(h);
    const kb: string = (await h.post('/knowledge-bases', { name: 'Guides' }, { key: write })).body.data.id;
    const ids: string[] = [];
    for (let i = 1; i <= 5; i++) {
      clock.advance(1000);
      ids.push((await h.post(`/knowledge-bases/${kb}/documents`, { title: `Guide ${i}`, content: `Guide number ${i}.` }, { key: write })).body.data.id);
    }
    const first = await h.get(`/knowledge-bases/${kb}/documents?limit=2`, { key: read });
    expect(first.body.data.map((d: { title: string }) => d.title)).toEqual(['Guide 1', 'Guide 2']);
    expect(first.body.data[0]).toEqual({ id: ids[0], knowledgeBaseId: kb, sourceId: expect.stringMatching(/^src_/), title: 'Guide 1', url: null, createdAt: '2030-01-01T00:00:01.000Z' });
    expect(first.body.pagination).toEqual({ cursor: expect.any(String), hasMore: true, total: 5 });
    expect(first.body.meta).toEqual({ creditsConsumed: 1 });
    const second = await h.get(`/knowledge-bases/${kb}/documents?limit=2&cursor=${encodeURIComponent(first.body.pagination.cursor)}`, { key: read });
    expect(second.body.data.map((d: { id: string }) => d.id)).toEqual(ids.slice(2, 4));
    const last = await h.get(`/knowledge-bases/${kb}/documents?limit=2&cursor=${encodeURIComponent(second.body.pagination.cursor)}`, { key: read });
    expect(last.body.data.map((d: { id: string }) => d.id)).toEqual([ids[4]]);
    expect(last.body.pagination).toEqual({ cursor: null, hasMore: false, total: 5 });
    const all = await h.get(`/knowledge-bases/${kb}/documents`, { key: read });
    expect(all.body.data.map((d: { id: string }) => d.id)).toEqual(ids);
    // A cursor from another knowledge base's documents is refused.
    const theirs = await h.get(`/knowledge-bases/${h.knowledgeBase.id}/documents?cursor=${encodeURIComponent(first.body.pagination.cursor)}`, { key: read });
    expectError(theirs, 400, 'invalid_cursor', 'cursor');
  });

  // Regression: pages used to continue from the index of the cursor's document, so deleting it broke paging.
  it('keeps paging documents when the last document of a page is deleted meanwhile', async () => {
    const clock = manualClock('2030-01-01T00:00:00.000Z');
    const h = await createHarness({ clock });
    const { write } = await keys(h);
    const kb: string = (await h.post('/knowledge-bases', { name: 'Guides' }, { key: write })).body.data.id;
    const ids: string[] = [];
    for (let i = 1; i <= 3; i++) {
      clock.advance(1000);
      ids.push((await h.post(`/knowledge-bases/${kb}/documents`, { title: `Guide ${i}`, content: `Guide number ${i}.` }, { key: write })).body.data.id);
    }
    const first = await h.get(`/knowledge-bases/${kb}/documents?limit=1`, { key: write });
    await h.request('DELETE', `/knowledge-bases/${kb}/documents/${ids[0]}`, undefined, { key: write });
    const next = await h.get(`/knowledge-bases/${kb}/documents?limit=1&cursor=${encodeURIComponent(first.body.pagination.cursor)}`, { key: write });
    expect(next.status).toBe(200);
    expect(next.body.data.map((d: { id: string }) => d.id)).toEqual([ids[1]]);
  });

  it('replays a POST …/documents sent again with the same Idempotency-Key: one document', async () => {
    const h = await createHarness();
    const { write } = await keys(h);
    const path = `/knowledge-bases/${h.knowledgeBase.id}/documents`;
    const before = (await h.get(path, { key: write })).body.pagination.total as number;
    const headers = { 'Idempotency-Key': 'add-doc-1' };
    const first = await h.post(path, RENTALS, { key: write, headers });
    const again = await h.post(path, RENTALS, { key: write, headers });
    expect(first.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await h.get(path, { key: write })).body.pagination.total).toBe(before + 1);
  });

  // Regression: the API middleware ran twice on POST /knowledge-bases ('/x/*' also matches '/x' in Hono).
  it('replays a POST /knowledge-bases sent again with the same Idempotency-Key: one knowledge base', async () => {
    const h = await createHarness();
    const { write } = await keys(h);
    const headers = { 'Idempotency-Key': 'create-kb-1' };
    const first = await h.post('/knowledge-bases', { name: 'Once' }, { key: write, headers });
    const again = await h.post('/knowledge-bases', { name: 'Once' }, { key: write, headers });
    expect(first.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await h.get('/knowledge-bases', { key: write })).body.pagination.total).toBe(2);
  });
});

describe('knowledge bases: the widget answers from them', () => {
  it('a widget whose knowledge base got a new document over the API answers a sync message from it', async () => {
    const h = await createHarness();
    const write = await h.newKey(['knowledge:write']);
    const id = await h.session();
    const before = await h.post(`${h.base}/${id}/messages`, { content: 'Do your gift cards expire?' });
    expect(before.body.data.content).not.toMatch(/never expire/i);

    const added = await h.post(`/knowledge-bases/${h.knowledgeBase.id}/documents`, GIFT_CARDS, { key: write });
    expect(added.status).toBe(201);
    const after = await h.post(`${h.base}/${await h.session({ visitorId: 'visitor-2' })}/messages`, { content: 'Do your gift cards expire?' });
    expect(after.status).toBe(200);
    expect(after.body.data.content).toMatch(/never expire/i);
    expect(after.body.data.content).toMatch(/Reykjavik/);
  });
});

describe('GET /widget/config (DESIGN.md section 7)', () => {
  async function setup() {
    const h = await createHarness();
    const { key } = await h.admin.createPublicKey(h.account.id, { widgetId: h.widget.id, origins: [ORIGIN] });
    return { h, key };
  }

  it('answers a public key from an allowed origin with its widget, free, readable by that origin', async () => {
    const { h, key } = await setup();
    const res = await h.get('/widget/config', { key, headers: { Origin: ORIGIN } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: { widgetId: h.widget.id, name: 'Acme Assistant', greeting: h.widget.greeting, language: h.widget.language, theme: h.widget.theme },
      meta: { creditsConsumed: 0 },
    });
    expect(Object.keys(res.body.data).sort()).toEqual(['greeting', 'language', 'name', 'theme', 'widgetId']);
    expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(res.headers.get('vary')).toMatch(/origin/i);
  });

  it('refuses a disallowed or missing origin with 403 origin_not_allowed and no CORS header', async () => {
    const { h, key } = await setup();
    for (const headers of [{ Origin: 'https://evil.example' }, { Origin: 'https://shop.example:8443' }, undefined]) {
      const res = await h.get('/widget/config', { key, ...(headers ? { headers } : {}) });
      expectError(res, 403, 'origin_not_allowed');
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    }
  });

  it('refuses a server key with 403 insufficient_scope, and no key or a revoked one with 401', async () => {
    const { h, key } = await setup();
    expectError(await h.get('/widget/config', { headers: { Origin: ORIGIN } }), 403, 'insufficient_scope');
    expectError(await h.get('/widget/config', { key: await h.newKey(['knowledge:write']) }), 403, 'insufficient_scope');
    expectError(await h.get('/widget/config', { key: null, headers: { Origin: ORIGIN } }), 401, 'missing_api_key');
    const [record] = (await h.store.listApiKeys(h.account.id)).filter((k) => k.kind === 'public');
    await h.store.revokeApiKey(record!.id, new Date());
    expectError(await h.get('/widget/config', { key, headers: { Origin: ORIGIN } }), 401, 'invalid_api_key');
  });

  it('answers a CORS preflight from an allowed origin with 204 and the allow headers, from another with 403', async () => {
    const { h } = await setup();
    const preflight = (origin: string) =>
      h.request('OPTIONS', '/widget/config', undefined, {
        key: null,
        headers: { Origin: origin, 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'x-api-key' },
      });
    const allowed = await preflight(ORIGIN);
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(allowed.headers.get('access-control-allow-methods')).toContain('GET');
    expect(allowed.headers.get('access-control-allow-headers')).toMatch(/X-API-Key/i);
    expect(allowed.headers.get('access-control-allow-headers')).toMatch(/X-Identity-Token/i);
    // The widget resumes the session event stream with it (DESIGN.md section 6).
    expect(allowed.headers.get('access-control-allow-headers')).toMatch(/Last-Event-ID/i);
    const refused = await preflight('https://evil.example');
    expectError(refused, 403, 'origin_not_allowed');
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
  });
});
