import { describe, expect, it } from 'vitest';
import { createScriptedAgent } from '@svc/agents';
import { createHarness, type Harness } from '../testing/harness.js';

async function chat(h: Harness, turns: number): Promise<string> {
  const id = await h.session();
  for (let i = 1; i <= turns; i++) await h.post(`${h.base}/${id}/messages`, { content: `question ${i}` });
  return id;
}

describe('GET …/messages (spec 4.7)', () => {
  const agent = createScriptedAgent(({ message }) => ({
    content: `answer to ${message}`,
    products: message === 'question 1' ? [{ id: 'p1', name: 'Tent', price: 199 }] : [],
  }));

  it('pages oldest first with an opaque cursor until hasMore is false', async () => {
    const h = await createHarness({ agent });
    const id = await chat(h, 5); // 10 messages
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor ? `?limit=3&cursor=${encodeURIComponent(cursor)}` : '?limit=3';
      const res = await h.get(`${h.base}/${id}/messages${query}`);
      expect(res.status).toBe(200);
      expect(res.body.meta).toEqual({ creditsConsumed: 1 });
      expect(Object.keys(res.body.pagination).sort()).toEqual(['cursor', 'hasMore']);
      seen.push(...res.body.data.map((m: { content: string }) => m.content));
      cursor = res.body.pagination.cursor;
      expect(cursor === null).toBe(!res.body.pagination.hasMore);
      pages++;
    } while (cursor);
    expect(pages).toBe(4);
    expect(seen).toEqual(Array.from({ length: 5 }, (_, i) => [`question ${i + 1}`, `answer to question ${i + 1}`]).flat());
  });

  it('returns history items with the fields of spec 2.5; products only on assistant items that have them', async () => {
    const h = await createHarness({ agent });
    const id = await chat(h, 2);
    const res = await h.get(`${h.base}/${id}/messages`);
    const [user, withProducts, , withoutProducts] = res.body.data;
    expect(Object.keys(user).sort()).toEqual(['content', 'createdAt', 'messageId', 'role']);
    expect(withProducts).toMatchObject({ role: 'assistant', products: [{ id: 'p1', name: 'Tent', price: 199 }] });
    expect(withoutProducts).not.toHaveProperty('products');
  });

  it('defaults to 50 per page and allows up to 100', async () => {
    const h = await createHarness({ agent });
    const id = await chat(h, 30); // 60 messages
    const first = await h.get(`${h.base}/${id}/messages`);
    expect(first.body.data).toHaveLength(50);
    expect(first.body.pagination.hasMore).toBe(true);
    const all = await h.get(`${h.base}/${id}/messages?limit=100`);
    expect(all.body.data).toHaveLength(60);
    expect(all.body.pagination).toEqual({ cursor: null, hasMore: false });
  });

  it.each(['0', '101', 'ten', '-1', '2.5'])('rejects limit=%s with 400 naming limit', async (limit) => {
    const h = await createHarness({ agent });
    const id = await h.session();
    const res = await h.get(`${h.base}/${id}/messages?limit=${limit}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'validation_failed', field: 'limit' });
  });

  it('rejects forged and foreign cursors with 400 invalid_cursor', async () => {
    const h = await createHarness({ agent });
    const a = await chat(h, 2);
    const b = await chat(h, 2);
    const page = await h.get(`${h.base}/${a}/messages?limit=1`);
    const cursor: string = page.body.pagination.cursor;
    for (const bad of ['garbage', `${cursor}x`, cursor.replace(/^./, (ch) => (ch === 'A' ? 'B' : 'A'))]) {
      const res = await h.get(`${h.base}/${a}/messages?cursor=${encodeURIComponent(bad)}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_cursor', field: 'cursor' });
    }
    const foreign = await h.get(`${h.base}/${b}/messages?cursor=${encodeURIComponent(cursor)}`);
    expect(foreign.body.error.code).toBe('invalid_cursor');
  });

  it('reads history of resolved sessions', async () => {
    const h = await createHarness({ agent });
    const id = await chat(h, 1);
    await h.post(`${h.base}/${id}/end`);
    expect((await h.get(`${h.base}/${id}/messages`)).body.data).toHaveLength(2);
  });
});

describe('GET /knowledge-bases/{kbId}/products (spec 4.8)', () => {
  it('pages products by id with total, for knowledge:read keys', async () => {
    const h = await createHarness();
    const key = await h.newKey(['knowledge:read']);
    const total = (await h.store.countProducts(h.knowledgeBase.id));
    expect(total).toBeGreaterThan(3);
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `?limit=2&cursor=${encodeURIComponent(cursor)}` : '?limit=2';
      const res = await h.get(`/knowledge-bases/${h.knowledgeBase.id}/products${query}`, { key });
      expect(res.status).toBe(200);
      expect(res.body.pagination.total).toBe(total);
      expect(res.body.meta.creditsConsumed).toBe(1);
      for (const p of res.body.data) expect(p).toMatchObject({ id: expect.any(String), name: expect.any(String), price: expect.any(Number) });
      ids.push(...res.body.data.map((p: { id: string }) => p.id));
      cursor = res.body.pagination.cursor;
    } while (cursor);
    expect(ids).toHaveLength(total);
    expect([...ids].sort()).toEqual(ids);
  });

  it('refuses chat-only keys (403) and hides other accounts’ knowledge bases (404)', async () => {
    const h = await createHarness();
    expect((await h.get(`/knowledge-bases/${h.knowledgeBase.id}/products`)).status).toBe(403);
    const other = await h.admin.createAccount({ name: 'Other' });
    const { knowledgeBase } = await h.admin.importKnowledgeBase({ accountId: other.id, content: { products: [{ id: 'x', name: 'X', price: 1 }] } });
    const key = await h.newKey(['knowledge:write']);
    const res = await h.get(`/knowledge-bases/${knowledgeBase.id}/products`, { key });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('knowledge_base_not_found');
  });
});
