import { describe, expect, it, vi } from 'vitest';
import { createMemoryStore } from '../store/memory-store.js';
import type { Store } from '../store/store.js';
import { at, makeDocument, makeKnowledgeBase } from '../testing/fixtures.js';
import { createVectorIndex } from './vector-index.js';

const MODEL = 'stub:axes:3';

/** A store whose knowledge base `kb_1` has one passage per document, each embedded as the given vector. */
async function storeWith(vectors: Record<string, number[]>): Promise<{ store: Store; reads: () => number }> {
  const store = createMemoryStore();
  await store.insertKnowledgeBase(makeKnowledgeBase({ id: 'kb_1', accountId: 'acct_1' }));
  let i = 0;
  for (const id of Object.keys(vectors)) await store.insertDocument(makeDocument({ id, knowledgeBaseId: 'kb_1', content: `Passage ${id}.`, createdAt: at(i++) }));
  await embed(store, vectors);
  let reads = 0;
  const counting: Store = { ...store, listPassageVectors: (query) => ((reads += 1), store.listPassageVectors(query)) };
  return { store: counting, reads: () => reads };
}

async function embed(store: Store, vectors: Record<string, number[]>): Promise<void> {
  const claimed = await store.claimPassagesToEmbed({ model: MODEL, owner: 'wrk_test', now: at(100), leaseMs: 1_000, limit: 100 });
  await store.savePassageVectors({
    model: MODEL,
    owner: 'wrk_test',
    vectors: claimed.filter((p) => vectors[p.documentId] !== undefined).map((p) => ({ ...p, vector: Float32Array.from(vectors[p.documentId]!) })),
  });
}

describe('createVectorIndex', () => {
  it('ranks passages by cosine similarity, whatever their length', async () => {
    const { store } = await storeWith({ doc_x: [10, 0, 0], doc_xy: [1, 1, 0], doc_z: [0, 0, 0.1] });
    const index = createVectorIndex({ store, model: MODEL, dimensions: 3 });

    const found = await index.nearest({ knowledgeBaseIds: ['kb_1'], vector: Float32Array.from([1, 0.1, 0]), limit: 2 });

    expect(found.map((p) => p.documentId)).toEqual(['doc_x', 'doc_xy']);
    expect(found[0]).toEqual({ knowledgeBaseId: 'kb_1', documentId: 'doc_x', position: 0, similarity: 0.995037 });
  });

  it('loads a knowledge base once, in pages, and again only when its vectors changed, searching the old ones meanwhile', async () => {
    const { store, reads } = await storeWith({ doc_a: [1, 0, 0], doc_b: [0, 1, 0], doc_c: [0, 0, 1] });
    const index = createVectorIndex({ store, model: MODEL, dimensions: 3, pageSize: 2 });
    const query = { knowledgeBaseIds: ['kb_1'], vector: Float32Array.from([0, 0, 1]), limit: 1 };

    expect((await index.nearest(query))[0]?.documentId).toBe('doc_c');
    expect(reads()).toBe(2);
    await index.nearest(query);
    await index.nearest(query);
    expect(reads()).toBe(2);

    await store.deleteDocument('kb_1', 'doc_c');
    // The search that sees the change answers from the vectors loaded (retrieval skips a passage that is gone) while
    // the new ones load.
    expect((await index.nearest(query))[0]?.documentId).toBe('doc_c');
    await vi.waitFor(async () => expect((await index.nearest(query))[0]?.documentId).not.toBe('doc_c'));
    expect(reads()).toBe(4);
    await store.insertDocument(makeDocument({ id: 'doc_d', knowledgeBaseId: 'kb_1', content: 'Passage d.', createdAt: at(9) }));
    await embed(store, { doc_d: [0, 0.1, 1] });
    await vi.waitFor(async () => expect((await index.nearest(query))[0]?.documentId).toBe('doc_d'));
  });

  it('reads nothing of a knowledge base not asked for', async () => {
    const { store, reads } = await storeWith({ doc_a: [1, 0, 0] });
    const index = createVectorIndex({ store, model: MODEL, dimensions: 3 });

    expect(await index.nearest({ knowledgeBaseIds: ['kb_other'], vector: Float32Array.from([1, 0, 0]), limit: 5 })).toEqual([]);
    expect(reads()).toBe(1);
  });
});
