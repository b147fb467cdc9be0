import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../store/memory-store.js';
import type { EmbeddingProvider, RerankProvider } from './providers.js';
import { adjacentPairs, coverageConfidence, createRetriever, DEFAULT_CONFIDENCE_THRESHOLD, RERANK_CANDIDATES } from './retrieve.js';

async function storeWith(documents: Array<{ id: string; title: string; content: string }>) {
  const store = createMemoryStore();
  for (const doc of documents) {
    await store.insertDocument({ ...doc, knowledgeBaseId: 'kb_1', sourceId: null, url: null, createdAt: new Date(0) });
  }
  return store;
}

const FAQ = [
  { id: 'doc_pool', title: 'Can the virus spread in swimming pools?', content: 'Proper chlorination should inactivate the virus in pools.' },
  { id: 'doc_hands', title: 'How do I wash my hands?', content: 'Wash your hands with soap and water for 20 seconds, also after visiting a pool.' },
  { id: 'doc_masks', title: 'Should I wear a mask?', content: 'Wear a cloth face covering in public settings.' },
];

describe('coverageConfidence', () => {
  const terms = { passages: 100, frequencies: { pool: 2, swim: 5, safe: 40 } };

  it('is 1 when the title holds every term of the question and 0 when the passage holds none', () => {
    expect(coverageConfidence({ title: ['pool', 'swim', 'safe'], all: ['pool', 'swim', 'safe'] }, terms)).toBe(1);
    expect(coverageConfidence({ title: [], all: [] }, terms)).toBe(0);
  });

  it('weights the title three times the body, and rare terms above common ones', () => {
    const inTitle = coverageConfidence({ title: ['pool'], all: ['pool'] }, terms);
    const inBody = coverageConfidence({ title: [], all: ['pool'] }, terms);
    expect(inTitle / inBody).toBeCloseTo(4, 2); // 0.75 + 0.25 against 0.25 (rounded to 4 places)
    expect(coverageConfidence({ title: ['pool'], all: ['pool'] }, terms)).toBeGreaterThan(coverageConfidence({ title: ['safe'], all: ['safe'] }, terms));
  });

  it('counts a question word found in no passage against the answer: the knowledge base does not cover it', () => {
    const known = coverageConfidence({ title: ['pool'], all: ['pool'] }, { passages: 100, frequencies: { pool: 2 } });
    const withUnknown = coverageConfidence({ title: ['pool'], all: ['pool'] }, { passages: 100, frequencies: { pool: 2, cruise: 0 } });
    expect(withUnknown).toBeLessThan(known / 1.5);
  });
});

describe('adjacentPairs', () => {
  it('counts each pair of consecutive question terms standing side by side in the text once', () => {
    expect(adjacentPairs(['hand', 'sanit', 'safe'], ['use', 'hand', 'sanit', 'hand', 'sanit'])).toBe(1);
    expect(adjacentPairs(['hand', 'sanit'], ['sanit', 'your', 'hand'])).toBe(0);
  });
});

describe('createRetriever', () => {
  it('returns passages with a score, a confidence and the retriever that found them, best first', async () => {
    const retriever = createRetriever({ store: await storeWith(FAQ) });
    const found = await retriever.retrieve({ knowledgeBaseIds: ['kb_1'], text: 'Can swimming pools spread the virus?', limit: 5 });
    expect(found.passages[0]).toMatchObject({ documentId: 'doc_pool', retrievers: ['text'] });
    expect(found.confidence).toBe(found.passages[0]!.confidence);
    expect(found.confidence).toBeGreaterThan(DEFAULT_CONFIDENCE_THRESHOLD);
    expect(found.passages.map((p) => p.score)).toEqual([...found.passages.map((p) => p.score)].sort((a, b) => b - a));
    expect(found.meters).toEqual({ retrievals: 1, embeddings: 0, reranks: 0 });
  });

  it('gives a low confidence to a question the knowledge base does not cover, though some passage shares a word', async () => {
    const retriever = createRetriever({ store: await storeWith(FAQ) });
    const found = await retriever.retrieve({ knowledgeBaseIds: ['kb_1'], text: 'Can I go on a cruise with a pool on board?', limit: 5 });
    expect(found.passages.length).toBeGreaterThan(0);
    expect(found.confidence).toBeLessThan(DEFAULT_CONFIDENCE_THRESHOLD);
  });

  it('searches nothing and bills nothing without a knowledge base', async () => {
    const retriever = createRetriever({ store: await storeWith(FAQ) });
    expect(await retriever.retrieve({ knowledgeBaseIds: [], text: 'pool', limit: 5 })).toEqual({
      passages: [],
      products: [],
      confidence: 0,
      meters: { retrievals: 0, embeddings: 0, reranks: 0 },
    });
  });

  it('follows the rerank provider, scores passages with it and meters one rerank', async () => {
    const seen: string[][] = [];
    const rerank: RerankProvider = {
      model: 'test:rerank',
      async rerank(_query, documents) {
        seen.push([...documents]);
        // The masks entry is what this reranker finds relevant, whatever the words say.
        return documents.map((text, index) => ({ index, score: text.includes('mask') ? 0.93 : 0.01 })).sort((a, b) => b.score - a.score);
      },
    };
    const retriever = createRetriever({ store: await storeWith(FAQ), rerank });
    const found = await retriever.retrieve({ knowledgeBaseIds: ['kb_1'], text: 'wash hands pool mask', limit: 5 });
    expect(seen[0]!.length).toBeLessThanOrEqual(RERANK_CANDIDATES);
    expect(found.passages[0]).toMatchObject({ documentId: 'doc_masks', score: 0.93, retrievers: ['text', 'rerank'] });
    expect(found.passages[0]!.confidence).toBeGreaterThanOrEqual(0.93);
    expect(found.meters.reranks).toBe(1);
  });

  it('degrades to full text when the rerank provider fails: no failed search, no rerank billed, the failure reported', async () => {
    const failures: unknown[] = [];
    const rerank: RerankProvider = {
      model: 'test:down',
      rerank: async () => {
        throw new Error('HTTP 503');
      },
    };
    const plain = await createRetriever({ store: await storeWith(FAQ) }).retrieve({ knowledgeBaseIds: ['kb_1'], text: 'swimming pool', limit: 5 });
    const retriever = createRetriever({ store: await storeWith(FAQ), rerank, onProviderError: (provider, error) => failures.push([provider, error]) });
    const found = await retriever.retrieve({ knowledgeBaseIds: ['kb_1'], text: 'swimming pool', limit: 5 });
    expect(found.passages.map((p) => p.documentId)).toEqual(plain.passages.map((p) => p.documentId));
    expect(found.meters.reranks).toBe(0);
    expect(failures).toEqual([['rerank', expect.objectContaining({ message: 'HTTP 503' })]]);
  });
});

describe('createRetriever with an embedding provider', () => {
  const hanging: EmbeddingProvider = {
    model: 'test:hang:2',
    dimensions: 2,
    maxBatch: 8,
    embed: (_texts, options) =>
      new Promise((_resolve, reject) => options.signal?.addEventListener('abort', () => reject(options.signal?.reason as Error), { once: true })),
  };

  it('goes on with full text when the question’s embedding misses its deadline, reporting it', async () => {
    const failures: Array<[string, unknown]> = [];
    const retriever = createRetriever({ store: await storeWith(FAQ), embeddings: hanging, embeddingTimeoutMs: 50, onProviderError: (provider, error) => failures.push([provider, error]) });

    const found = await retriever.retrieve({ knowledgeBaseIds: ['kb_1'], text: 'swimming pool', limit: 5 });

    expect(found.passages[0]).toMatchObject({ documentId: 'doc_pool', retrievers: ['text'] });
    expect(found.meters.embeddings).toBe(0);
    expect(failures.map(([provider]) => provider)).toEqual(['embedding']);
  });

  it('rejects with the caller’s reason when the caller gives up, reporting no provider failure', async () => {
    const failures: unknown[] = [];
    const retriever = createRetriever({ store: await storeWith(FAQ), embeddings: hanging, onProviderError: (...failure) => failures.push(failure) });
    const controller = new AbortController();
    const reason = new Error('the turn was cancelled');
    setTimeout(() => controller.abort(reason), 20);

    await expect(retriever.retrieve({ knowledgeBaseIds: ['kb_1'], text: 'swimming pool', limit: 5, signal: controller.signal })).rejects.toBe(reason);
    expect(failures).toEqual([]);
  });

  it('needs a store with the vector operations', () => {
    expect(() => createRetriever({ store: { searchKnowledge: async () => ({ passages: [], products: [], terms: { passages: 0, frequencies: {} } }) }, embeddings: hanging })).toThrow(
      'createRetriever: vector retrieval (the `embeddings` option) needs a store with the vector operations',
    );
  });
});
