import { beforeEach, expect, it } from 'vitest';
import type { KnowledgeHits, Store } from '../../store/store.js';
import { makeDocument, makeProduct } from '../fixtures.js';

const KB = 'kb_search_main';
const OTHER_TENANT_KB = 'kb_search_other';

const SHIPPING = makeDocument({
  id: 'doc_shipping',
  knowledgeBaseId: KB,
  title: 'Shipping',
  url: 'https://example.com/help/shipping',
  content: [
    '# Delivery',
    'Orders leave our warehouse within two working days.',
    '## International delivery',
    'We ship to Canada, the United States and Mexico. Parcels to Canada arrive in 5 to 7 business days.',
  ].join('\n\n'),
});
const RETURNS = makeDocument({
  id: 'doc_returns',
  knowledgeBaseId: KB,
  title: 'Returns and refunds',
  content: 'You can return any unworn item within 30 days for a full refund. Refunds are paid to the original card.',
});
const HOURS = makeDocument({ id: 'doc_hours', knowledgeBaseId: KB });
/** Same words as the shipping page, in another account's knowledge base: it must never leak. */
const FOREIGN = makeDocument({
  id: 'doc_foreign',
  knowledgeBaseId: OTHER_TENANT_KB,
  title: 'Shipping to Canada',
  content: 'We ship to Canada every day. Canada shipping is free. Ship ship ship to Canada.',
});
const LONG_GUIDE = makeDocument({
  id: 'doc_guide',
  knowledgeBaseId: KB,
  title: 'Care guide',
  content: [
    '# Leather boots',
    ...Array.from({ length: 12 }, (_, i) => `Paragraph ${i + 1} about brushing leather boots and applying polish evenly.`),
    '# Waterproof jackets',
    'Wash waterproof jackets at thirty degrees, then tumble dry gently to reactivate the membrane coating.',
  ].join('\n\n'),
});

const SOCKS = makeProduct({ id: 'prod_socks', name: 'Merino hiking socks', description: 'Warm wool socks for long hikes.', price: 19 });
const TENT = makeProduct({ id: 'prod_tent', name: 'Two-person tent', description: 'Light tent for camping trips.', price: 249 });
const STOVE = makeProduct({ id: 'prod_stove', name: 'Camping stove', description: undefined, price: 45 });
const FOREIGN_SOCKS = makeProduct({ id: 'prod_foreign_socks', name: 'Hiking socks deluxe', description: 'Merino hiking socks.' });

function expectRankedDescending(hits: KnowledgeHits): void {
  for (const list of [hits.passages, hits.products]) {
    for (const [index, hit] of list.entries()) {
      expect(hit.rank).toBeGreaterThan(0);
      const previous = list[index - 1];
      if (previous) expect(previous.rank).toBeGreaterThanOrEqual(hit.rank);
    }
  }
}

export function searchContract(store: () => Store): void {
  beforeEach(async () => {
    for (const document of [SHIPPING, RETURNS, HOURS, FOREIGN, LONG_GUIDE]) await store().insertDocument(document);
    await store().upsertProducts(KB, [SOCKS, TENT, STOVE]);
    await store().upsertProducts(OTHER_TENANT_KB, [FOREIGN_SOCKS]);
  });

  it('ranks the passage that answers a visitor question first, even when not every word appears', async () => {
    const hits = await store().searchKnowledge({ knowledgeBaseIds: [KB], text: 'Do you ship to Canada?', limit: 5 });
    expect(hits.passages[0]).toMatchObject({ documentId: SHIPPING.id, knowledgeBaseId: KB, title: 'Shipping', url: SHIPPING.url });
    expect(hits.passages[0]?.content).toContain('We ship to Canada');
    expectRankedDescending(hits);
  });

  it('matches inflected forms (shipping, ships) of the same word', async () => {
    const hits = await store().searchKnowledge({ knowledgeBaseIds: [KB], text: 'shipping options for Mexico', limit: 5 });
    expect(hits.passages[0]?.documentId).toBe(SHIPPING.id);
    const refunds = await store().searchKnowledge({ knowledgeBaseIds: [KB], text: 'how do refunds work', limit: 5 });
    expect(refunds.passages[0]?.documentId).toBe(RETURNS.id);
  });

  it('returns the matching passage of a long document, with its heading, not the whole document', async () => {
    const hits = await store().searchKnowledge({ knowledgeBaseIds: [KB], text: 'waterproof jacket membrane', limit: 3 });
    const top = hits.passages[0];
    expect(top?.documentId).toBe(LONG_GUIDE.id);
    expect(top?.content).toContain('Waterproof jackets');
    expect(top?.content).toContain('tumble dry');
    expect(top?.content).not.toContain('Paragraph 1 ');
    expect(top?.content.length).toBeLessThan(LONG_GUIDE.content.length);
  });

  it('ranks products by name and description', async () => {
    const hits = await store().searchKnowledge({ knowledgeBaseIds: [KB], text: 'warm socks for hiking', limit: 5 });
    expect(hits.products[0]).toEqual({ knowledgeBaseId: KB, product: SOCKS, rank: expect.any(Number), matched: { title: expect.any(Array), all: expect.any(Array), counts: expect.any(Object), length: { title: expect.any(Number), body: expect.any(Number) } } });
    // The query's terms the product holds, as the store reads them: "socks" in its name, and "hiking" somewhere.
    expect(hits.products[0]!.matched.title.length).toBeGreaterThan(0);
    expect(hits.products[0]!.matched.all.length).toBeGreaterThanOrEqual(hits.products[0]!.matched.title.length);
    // How often each of those terms occurs in the name and the description, and how long each is: what BM25F needs.
    const socks = hits.products[0]!.matched;
    expect(Object.keys(socks.counts).sort()).toEqual([...socks.all].sort());
    for (const term of socks.title) expect(socks.counts[term]!.title).toBeGreaterThan(0);
    expect(socks.length.title).toBeGreaterThanOrEqual(socks.title.length);
    expect(hits.products.map((hit) => hit.product.id)).not.toContain(FOREIGN_SOCKS.id);
    const camping = await store().searchKnowledge({ knowledgeBaseIds: [KB], text: 'camping', limit: 5 });
    expect(camping.products.map((hit) => hit.product.id).sort()).toEqual([STOVE.id, TENT.id].sort());
    expectRankedDescending(camping);
  });

  it('never returns hits from a knowledge base that was not asked for', async () => {
    const mine = await store().searchKnowledge({ knowledgeBaseIds: [KB], text: 'ship to Canada hiking socks', limit: 20 });
    expect(mine.passages.length).toBeGreaterThan(0);
    expect(mine.passages.every((hit) => hit.knowledgeBaseId === KB)).toBe(true);
    expect(mine.products.every((hit) => hit.knowledgeBaseId === KB)).toBe(true);

    const theirs = await store().searchKnowledge({ knowledgeBaseIds: [OTHER_TENANT_KB], text: 'ship to Canada hiking socks', limit: 20 });
    expect(theirs.passages.map((hit) => hit.documentId)).toEqual([FOREIGN.id]);
    expect(theirs.products.map((hit) => hit.product.id)).toEqual([FOREIGN_SOCKS.id]);

    const none = await store().searchKnowledge({ knowledgeBaseIds: [], text: 'ship to Canada', limit: 20 });
    expect(none).toMatchObject({ passages: [], products: [] });
  });

  it('returns nothing when nothing matches, and respects the limit', async () => {
    expect(await store().searchKnowledge({ knowledgeBaseIds: [KB], text: 'xylophone quartet', limit: 5 })).toMatchObject({
      passages: [],
      products: [],
    });
    expect(await store().searchKnowledge({ knowledgeBaseIds: [KB], text: '?!', limit: 5 })).toMatchObject({ passages: [], products: [] });
    const limited = await store().searchKnowledge({ knowledgeBaseIds: [KB, OTHER_TENANT_KB], text: 'Canada shipping socks camping', limit: 1 });
    expect(limited.passages).toHaveLength(1);
    expect(limited.products).toHaveLength(1);
  });

  it('reflects deleted documents and replaced products', async () => {
    await store().deleteDocument(KB, SHIPPING.id);
    const afterDelete = await store().searchKnowledge({ knowledgeBaseIds: [KB], text: 'ship to Canada', limit: 5 });
    expect(afterDelete.passages.map((hit) => hit.documentId)).not.toContain(SHIPPING.id);

    await store().upsertProducts(KB, [{ ...TENT, description: 'Now sold with a carbon fibre pole kit.' }]);
    const hits = await store().searchKnowledge({ knowledgeBaseIds: [KB], text: 'carbon pole', limit: 5 });
    expect(hits.products.map((hit) => hit.product.id)).toEqual([TENT.id]);
  });

  it('counts the passages holding each query term, for the confidence of retrieval', async () => {
    const hits = await store().searchKnowledge({ knowledgeBaseIds: [KB], text: 'ship to Canada xylophone', limit: 5 });
    const frequencies = Object.entries(hits.terms.frequencies);
    // Every term of the query as the store reads it, a term found nowhere with 0; never more than there are passages.
    expect(frequencies.length).toBeGreaterThanOrEqual(3);
    expect(frequencies.filter(([, count]) => count === 0).length).toBeGreaterThanOrEqual(1);
    expect(frequencies.every(([, count]) => count >= 0 && count <= hits.terms.passages)).toBe(true);
    expect(frequencies.some(([, count]) => count > 0)).toBe(true);
    const top = hits.passages[0]!;
    expect(top.matched.all.length).toBeGreaterThan(0);
    expect(top.matched.all.every((term) => term in hits.terms.frequencies)).toBe(true);
    expect(top.matched.title.every((term) => top.matched.all.includes(term))).toBe(true);
  });

  it('matches a word joined to a number by a hyphen whichever way it is written (COVID-19, COVID 19)', async () => {
    await store().insertDocument({ ...SHIPPING, id: 'doc_covid', title: 'Are orders delayed by COVID-19?', content: 'Parcels leave on time.' });
    for (const text of ['orders delayed by covid 19', 'orders delayed by COVID-19']) {
      const hits = await store().searchKnowledge({ knowledgeBaseIds: [KB], text, limit: 5 });
      expect(hits.passages[0]?.documentId).toBe('doc_covid');
      // Every word of the question found in the title: the number counts, not only the word before it.
      expect([...hits.passages[0]!.matched.title].sort()).toEqual(Object.keys(hits.terms.frequencies).filter((term) => !term.includes('-')).sort());
    }
  });

  it('accepts the language of the query', async () => {
    await store().insertDocument(
      makeDocument({ id: 'doc_fr', knowledgeBaseId: KB, title: 'Livraison', content: 'Nous livrons au Canada en cinq jours ouvrés.' }),
    );
    const hits = await store().searchKnowledge({ knowledgeBaseIds: [KB], text: 'Livraison au Canada ?', language: 'fr-CA', limit: 5 });
    expect(hits.passages[0]?.documentId).toBe('doc_fr');
    const unknownLanguage = await store().searchKnowledge({ knowledgeBaseIds: [KB], text: 'Canada', language: 'x-klingon', limit: 5 });
    expect(unknownLanguage.passages.length).toBeGreaterThan(0);
  });
}
