import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { KB, meta, product } from './testing/fixtures.js';
import { BASE_URL, testClient, useMockServer } from './testing/mock-server.js';

const { server, requests } = useMockServer();

function catalogue(total: number) {
  return http.get(`${BASE_URL}/knowledge-bases/${KB}/products`, ({ request }) => {
    const url = new URL(request.url);
    const limit = Number(url.searchParams.get('limit') ?? 50);
    const after = url.searchParams.get('cursor');
    const start = after === null ? 0 : Number(after);
    const data = Array.from({ length: Math.min(limit, total - start) }, (_, i) => product(start + i + 1));
    const hasMore = start + limit < total;
    return HttpResponse.json({ data, pagination: { cursor: hasMore ? String(start + limit) : null, hasMore, total }, meta: meta(1) });
  });
}

describe('client.products', () => {
  it('list returns a page with pagination.total', async () => {
    server.use(catalogue(12));
    const page = await testClient().products.list(KB, { limit: 5 });
    expect(page.data).toHaveLength(5);
    expect(page.data[0]).toEqual(product(1));
    expect(page.pagination).toEqual({ cursor: '5', hasMore: true, total: 12 });
    expect(new URL(requests[0]!.url).pathname).toBe(`/knowledge-bases/${KB}/products`);
  });

  it('iterate walks every product across pages', async () => {
    server.use(catalogue(12));
    const ids: string[] = [];
    for await (const item of testClient().products.iterate(KB, { limit: 5 })) ids.push(item.id);
    expect(ids).toEqual(Array.from({ length: 12 }, (_, i) => product(i + 1).id));
    expect(requests).toHaveLength(3);
  });
});
