import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Source } from './index.js';
import { KB, meta } from './testing/fixtures.js';
import { API_KEY, BASE_URL, testClient, useMockServer } from './testing/mock-server.js';

const { server, requests } = useMockServer();
const kbUrl = `${BASE_URL}/knowledge-bases/${KB}`;

const source = (overrides: Partial<Source> = {}): Source => ({
  id: 'src_1',
  knowledgeBaseId: KB,
  type: 'website',
  url: 'https://help.shop.example/',
  fileName: null,
  include: [],
  exclude: [],
  maxPages: 500,
  schedule: 'off',
  status: 'queued',
  progress: { found: 0, fetched: 0, unchanged: 0, failed: 0, skipped: 0 },
  documents: 0,
  lastSync: null,
  nextSyncAt: null,
  createdAt: '2026-11-21T10:00:00.000Z',
  ...overrides,
});

describe('client.sources', () => {
  it('add POSTs the website as JSON; get, sync and delete address the source', async () => {
    server.use(
      http.post(`${kbUrl}/sources`, () => HttpResponse.json({ data: source(), meta: meta(0) }, { status: 201 })),
      http.get(`${kbUrl}/sources/src_1`, () => HttpResponse.json({ data: { ...source({ status: 'ready' }), failedPages: [] }, meta: meta(0) })),
      http.post(`${kbUrl}/sources/src_1/sync`, () => HttpResponse.json({ data: source(), meta: meta(0) }, { status: 202 })),
      http.delete(`${kbUrl}/sources/src_1`, () => HttpResponse.json({ data: { id: 'src_1', deleted: true }, meta: meta(0) })),
    );
    const client = testClient();
    const added = await client.sources.add(KB, { type: 'website', url: 'https://help.shop.example/', schedule: 'weekly' });
    expect(added).toMatchObject({ status: 201, data: { id: 'src_1', status: 'queued' } });
    expect(await requests[0]!.json()).toEqual({ type: 'website', url: 'https://help.shop.example/', schedule: 'weekly' });
    expect((await client.sources.get(KB, 'src_1')).data.failedPages).toEqual([]);
    expect((await client.sources.sync(KB, 'src_1')).status).toBe(202);
    expect((await client.sources.delete(KB, 'src_1')).data).toEqual({ id: 'src_1', deleted: true });
    expect(requests.map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual([
      `POST /knowledge-bases/${KB}/sources`,
      `GET /knowledge-bases/${KB}/sources/src_1`,
      `POST /knowledge-bases/${KB}/sources/src_1/sync`,
      `DELETE /knowledge-bases/${KB}/sources/src_1`,
    ]);
  });

  it('upload sends bytes, a Blob or a File as the multipart field `file` with its name', async () => {
    server.use(http.post(`${kbUrl}/files`, () => HttpResponse.json({ data: source({ type: 'file', url: null, fileName: 'faq.md', status: 'ready' }), meta: meta(0) }, { status: 201 })));
    const client = testClient();
    const res = await client.sources.upload(KB, { data: new TextEncoder().encode('# FAQ\n'), name: 'faq.md' }, { idempotencyKey: 'faq-1' });
    expect(res).toMatchObject({ status: 201, data: { type: 'file', fileName: 'faq.md' } });
    await client.sources.upload(KB, { data: new File(['hello'], 'hello.txt') });
    const [bytes, file] = requests;
    expect(bytes!.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/);
    expect(bytes!.headers.get('x-api-key')).toBe(API_KEY);
    expect(bytes!.headers.get('idempotency-key')).toBe('faq-1');
    const sent = (await bytes!.formData()).get('file') as File;
    expect([sent.name, await sent.text()]).toEqual(['faq.md', '# FAQ\n']);
    expect(((await file!.formData()).get('file') as File).name).toBe('hello.txt');
  });

  it('list pages on with the cursor', async () => {
    server.use(
      http.get(`${kbUrl}/sources`, ({ request }) => {
        const cursor = new URL(request.url).searchParams.get('cursor');
        return HttpResponse.json({
          data: [source({ id: cursor ? 'src_2' : 'src_1' })],
          pagination: { cursor: cursor ? null : 'c1', hasMore: !cursor, total: 2 },
          meta: meta(0),
        });
      }),
    );
    const ids: string[] = [];
    for await (const each of testClient().sources.iterate(KB, { limit: 1 })) ids.push(each.id);
    expect(ids).toEqual(['src_1', 'src_2']);
  });
});
