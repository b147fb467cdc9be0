import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { document, KB, knowledgeBase, knowledgeBaseDetail, meta, product, searchResult } from './testing/fixtures.js';
import { API_KEY, BASE_URL, testClient, useMockServer } from './testing/mock-server.js';

const { server, requests } = useMockServer();
const kbUrl = `${BASE_URL}/knowledge-bases/${KB}`;
const errorBody = (code: string, field?: string) => ({ error: { code, message: code, ...(field ? { field } : {}) }, meta: meta(0) });

/** Serves `total` items made by `item` in pages, with cursors `c<offset>` as opaque strings and `total`. */
function paged<T>(url: string, total: number, item: (n: number) => T) {
  return http.get(url, ({ request }) => {
    const params = new URL(request.url).searchParams;
    const limit = Number(params.get('limit') ?? 50);
    const offset = Number(params.get('cursor')?.slice(1) ?? 0);
    const data = Array.from({ length: Math.min(limit, total - offset) }, (_, i) => item(offset + i + 1));
    const hasMore = offset + limit < total;
    return HttpResponse.json({ data, pagination: { cursor: hasMore ? `c${offset + limit}` : null, hasMore, total }, meta: meta(0) });
  });
}

/** Answers each of `responses` in turn, then keeps answering the last one. */
function sequence(method: 'put' | 'delete' | 'post', url: string, responses: Array<() => Response>) {
  let calls = 0;
  return http[method](url, () => responses[Math.min(calls++, responses.length - 1)]!());
}
const unavailable = () => HttpResponse.json(errorBody('internal_error'), { status: 503 });

describe('client.knowledgeBases', () => {
  it('create POSTs { name } as JSON and resolves to the 201 knowledge base', async () => {
    server.use(http.post(`${BASE_URL}/knowledge-bases`, () => HttpResponse.json({ data: knowledgeBase(1), meta: meta(0) }, { status: 201 })));
    const res = await testClient().knowledgeBases.create({ name: 'Catalogue 1' }, { idempotencyKey: 'kb-1' });
    expect(res).toMatchObject({ status: 201, data: knowledgeBase(1), meta: { creditsConsumed: 0 } });
    const [request] = requests;
    expect(request!.method).toBe('POST');
    expect(request!.headers.get('x-api-key')).toBe(API_KEY);
    expect(request!.headers.get('content-type')).toBe('application/json');
    expect(request!.headers.get('idempotency-key')).toBe('kb-1');
    expect(await request!.json()).toEqual({ name: 'Catalogue 1' });
  });

  it('list returns a page with total; iterate walks every knowledge base across pages', async () => {
    server.use(paged(`${BASE_URL}/knowledge-bases`, 5, knowledgeBase));
    const page = await testClient().knowledgeBases.list({ limit: 2 });
    expect(page.data).toEqual([knowledgeBase(1), knowledgeBase(2)]);
    expect(page.pagination).toEqual({ cursor: 'c2', hasMore: true, total: 5 });
    expect(new URL(requests[0]!.url).search).toBe('?limit=2');
    const ids: string[] = [];
    for await (const kb of testClient().knowledgeBases.iterate({ limit: 2 })) ids.push(kb.id);
    expect(ids).toEqual([1, 2, 3, 4, 5].map((n) => knowledgeBase(n).id));
    expect(requests.slice(1).map((r) => new URL(r.url).search)).toEqual(['?limit=2', '?limit=2&cursor=c2', '?limit=2&cursor=c4']);
  });

  it('get reads a knowledge base with its counts', async () => {
    server.use(http.get(kbUrl, () => HttpResponse.json({ data: knowledgeBaseDetail, meta: meta(0) })));
    const res = await testClient().knowledgeBases.get(KB);
    expect(res.data).toEqual(knowledgeBaseDetail);
    expect(requests[0]!.method).toBe('GET');
  });

  it('rejects with the service error, e.g. 404 knowledge_base_not_found', async () => {
    server.use(http.get(kbUrl, () => HttpResponse.json(errorBody('knowledge_base_not_found'), { status: 404, headers: { 'X-Request-Id': 'req-9' } })));
    await expect(testClient().knowledgeBases.get(KB)).rejects.toMatchObject({ status: 404, code: 'knowledge_base_not_found', requestId: 'req-9' });
  });
});

describe('client.products writes', () => {
  it('put PUTs the product without its id to the product path, encoding the id', async () => {
    const stored = { ...product(1), id: 'tent/2p' };
    server.use(http.put(`${kbUrl}/products/:productId`, () => HttpResponse.json({ data: stored, meta: meta(0) })));
    const { id: _, ...body } = stored;
    const res = await testClient().products.put(KB, 'tent/2p', body);
    expect(res).toMatchObject({ status: 200, data: stored });
    const [request] = requests;
    expect(request!.method).toBe('PUT');
    expect(new URL(request!.url).pathname).toBe(`/knowledge-bases/${KB}/products/tent%2F2p`);
    expect(request!.headers.get('content-type')).toBe('application/json');
    expect(await request!.json()).toEqual(body);
  });

  it('upsert POSTs { products } and resolves to how many were written', async () => {
    server.use(http.post(`${kbUrl}/products`, () => HttpResponse.json({ data: { upserted: 2 }, meta: meta(0) })));
    const res = await testClient().products.upsert(KB, { products: [product(1), product(2)] });
    expect(res.data).toEqual({ upserted: 2 });
    expect(await requests[0]!.json()).toEqual({ products: [product(1), product(2)] });
  });

  it('upsert reports the refused item in field', async () => {
    server.use(http.post(`${kbUrl}/products`, () => HttpResponse.json(errorBody('validation_failed', 'products.1.price'), { status: 400 })));
    await expect(testClient().products.upsert(KB, { products: [product(1), { ...product(2), price: -1 }] })).rejects.toMatchObject({
      status: 400,
      code: 'validation_failed',
      field: 'products.1.price',
    });
  });

  it('delete sends DELETE without a body; a product already gone is product_not_found', async () => {
    server.use(
      sequence('delete', `${kbUrl}/products/p-001`, [
        () => HttpResponse.json({ data: { id: 'p-001', deleted: true }, meta: meta(0) }),
        () => HttpResponse.json(errorBody('product_not_found'), { status: 404 }),
      ]),
    );
    const res = await testClient().products.delete(KB, 'p-001');
    expect(res.data).toEqual({ id: 'p-001', deleted: true });
    expect(requests[0]!.method).toBe('DELETE');
    expect(await requests[0]!.text()).toBe('');
    expect(requests[0]!.headers.get('content-type')).toBeNull();
    await expect(testClient().products.delete(KB, 'p-001')).rejects.toMatchObject({ status: 404, code: 'product_not_found' });
  });

  it('refuses ids that would address another endpoint, before sending anything', () => {
    expect(() => testClient().products.put(KB, '..', { name: 'x', price: 1 })).toThrow(TypeError);
    expect(() => testClient().products.delete('.', 'p-001')).toThrow(TypeError);
    expect(() => testClient().documents.delete(KB, '')).toThrow(TypeError);
    expect(requests).toHaveLength(0);
  });
});

describe('client.documents', () => {
  it('add POSTs the document and resolves to 201 without content', async () => {
    server.use(http.post(`${kbUrl}/documents`, () => HttpResponse.json({ data: document(1), meta: meta(0) }, { status: 201 })));
    const body = { title: 'Guide 1', content: '# Guide\n\nText.', url: 'https://shop.example/guide' };
    const res = await testClient().documents.add(KB, body);
    expect(res).toMatchObject({ status: 201, data: document(1) });
    expect(await requests[0]!.json()).toEqual(body);
  });

  it('replace PUTs the new title and content to the document path', async () => {
    server.use(http.put(`${kbUrl}/documents/doc_001`, () => HttpResponse.json({ data: { ...document(1), title: 'New' }, meta: meta(0) })));
    const res = await testClient().documents.replace(KB, 'doc_001', { title: 'New', content: 'New text.' });
    expect(res.data.title).toBe('New');
    expect(requests[0]!.method).toBe('PUT');
    expect(await requests[0]!.json()).toEqual({ title: 'New', content: 'New text.' });
  });

  it('delete sends DELETE to the document path', async () => {
    server.use(http.delete(`${kbUrl}/documents/doc_001`, () => HttpResponse.json({ data: { id: 'doc_001', deleted: true }, meta: meta(0) })));
    expect((await testClient().documents.delete(KB, 'doc_001')).data).toEqual({ id: 'doc_001', deleted: true });
    expect(requests[0]!.method).toBe('DELETE');
  });

  it('list returns a page with total; iterate walks every document', async () => {
    server.use(paged(`${kbUrl}/documents`, 7, document));
    const page = await testClient().documents.list(KB, { limit: 3 });
    expect(page.data).toEqual([document(1), document(2), document(3)]);
    expect(page.pagination).toEqual({ cursor: 'c3', hasMore: true, total: 7 });
    const titles: string[] = [];
    for await (const doc of testClient().documents.iterate(KB, { limit: 3 })) titles.push(doc.title);
    expect(titles).toEqual([1, 2, 3, 4, 5, 6, 7].map((n) => `Guide ${n}`));
    expect(requests).toHaveLength(4);
  });
});

describe('client.knowledge.search', () => {
  it('POSTs the query and resolves to passages and products', async () => {
    server.use(http.post(`${kbUrl}/search`, () => HttpResponse.json({ data: searchResult, meta: meta(1) })));
    const res = await testClient().knowledge.search(KB, { query: 'Do you ship to Canada?', limit: 3 });
    expect(res.data).toEqual(searchResult);
    expect(res.meta.creditsConsumed).toBe(1);
    expect(await requests[0]!.json()).toEqual({ query: 'Do you ship to Canada?', limit: 3 });
  });
});

describe('retries of knowledge writes', () => {
  it('retries PUT and DELETE (idempotent methods) on 503 and network errors', async () => {
    server.use(
      sequence('put', `${kbUrl}/products/p-001`, [unavailable, () => HttpResponse.error(), () => HttpResponse.json({ data: product(1), meta: meta(0) })]),
      sequence('delete', `${kbUrl}/documents/doc_001`, [unavailable, () => HttpResponse.json({ data: { id: 'doc_001', deleted: true }, meta: meta(0) })]),
    );
    const { id: _, ...body } = product(1);
    await expect(testClient().products.put(KB, 'p-001', body)).resolves.toMatchObject({ data: product(1) });
    await expect(testClient().documents.delete(KB, 'doc_001')).resolves.toMatchObject({ data: { deleted: true } });
    expect(requests.map((r) => r.method)).toEqual(['PUT', 'PUT', 'PUT', 'DELETE', 'DELETE']);
    expect(await Promise.all(requests.slice(0, 3).map((r) => r.json()))).toEqual([body, body, body]);
  });

  it('does not retry a POST without an Idempotency-Key (upsert, add, search), and retries one with it', async () => {
    server.use(sequence('post', `${kbUrl}/documents`, [unavailable, () => HttpResponse.json({ data: document(1), meta: meta(0) }, { status: 201 })]));
    await expect(testClient().documents.add(KB, { title: 'T', content: 'C' })).rejects.toMatchObject({ status: 503 });
    expect(requests).toHaveLength(1);
    server.use(sequence('post', `${kbUrl}/documents`, [unavailable, () => HttpResponse.json({ data: document(1), meta: meta(0) }, { status: 201 })]));
    await expect(testClient().documents.add(KB, { title: 'T', content: 'C' }, { idempotencyKey: 'doc-1' })).resolves.toMatchObject({ status: 201 });
    expect(requests).toHaveLength(3);
  });
});
