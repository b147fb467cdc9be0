import { expect, it } from 'vitest';
import type { Product } from '../../domain.js';
import type { Store } from '../../store/store.js';
import { at, makeDocument, makeKnowledgeBase, makeProduct } from '../fixtures.js';

export function knowledgeContract(store: () => Store): void {
  it('round-trips a knowledge base', async () => {
    const kb = makeKnowledgeBase();
    await store().insertKnowledgeBase(kb);
    expect(await store().getKnowledgeBase(kb.id)).toEqual(kb);
    expect(await store().getKnowledgeBase('kb_missing')).toBeNull();
    await expect(store().insertKnowledgeBase(kb)).rejects.toThrow();
  });

  it("lists one account's knowledge bases oldest first, ties in id code-point order", async () => {
    const second = makeKnowledgeBase({ id: 'kb_a', accountId: 'acct_k', createdAt: at(2) });
    // Same instant as `second`: code-point order puts 'kb_B' first, where many locales would not.
    const secondTie = makeKnowledgeBase({ id: 'kb_B', accountId: 'acct_k', createdAt: at(2) });
    const first = makeKnowledgeBase({ accountId: 'acct_k', name: 'Catalogue', createdAt: at(1) });
    for (const kb of [second, makeKnowledgeBase({ accountId: 'acct_other' }), secondTie, first]) await store().insertKnowledgeBase(kb);
    expect(await store().listKnowledgeBases('acct_k')).toEqual([first, secondTie, second]);
    expect(await store().listKnowledgeBases('acct_none')).toEqual([]);
  });

  it('round-trips products with and without their optional fields', async () => {
    const full = makeProduct({ id: 'p-full' });
    const bare: Product = { id: 'p-bare', name: 'Gift card', price: 0 };
    await store().upsertProducts('kb_1', [full, bare]);
    expect(await store().listProducts({ knowledgeBaseId: 'kb_1', limit: 10 })).toEqual([bare, full]);
  });

  it('upsert replaces a product by id, dropping fields the new version lacks', async () => {
    await store().upsertProducts('kb_1', [makeProduct({ id: 'p1', price: 10 }), makeProduct({ id: 'p2' })]);
    const replacement: Product = { id: 'p1', name: 'Renamed', price: 12.5 };
    await store().upsertProducts('kb_1', [replacement]);
    const [first, second] = await store().listProducts({ knowledgeBaseId: 'kb_1', limit: 10 });
    expect(first).toStrictEqual(replacement);
    expect(second?.id).toBe('p2');
    expect(await store().countProducts('kb_1')).toBe(2);
  });

  it('keeps products of different knowledge bases apart, even with the same id', async () => {
    await store().upsertProducts('kb_1', [makeProduct({ id: 'same', name: 'In one' })]);
    await store().upsertProducts('kb_2', [makeProduct({ id: 'same', name: 'In two' })]);
    expect((await store().listProducts({ knowledgeBaseId: 'kb_1', limit: 10 })).map((p) => p.name)).toEqual(['In one']);
    expect(await store().deleteProduct('kb_2', 'same')).toBe(true);
    expect(await store().countProducts('kb_1')).toBe(1);
    expect(await store().countProducts('kb_2')).toBe(0);
  });

  it('pages products by id with a keyset position', async () => {
    const ids = ['p07', 'p03', 'p10', 'p01', 'p05', 'p02', 'p09', 'p04', 'p08', 'p06'];
    await store().upsertProducts('kb_1', ids.map((id) => makeProduct({ id })));
    await store().upsertProducts('kb_other', [makeProduct({ id: 'p00' })]);
    const seen: string[] = [];
    let afterId: string | undefined;
    for (;;) {
      const page = await store().listProducts({ knowledgeBaseId: 'kb_1', limit: 4, ...(afterId ? { afterId } : {}) });
      seen.push(...page.map((p) => p.id));
      if (page.length < 4) break;
      afterId = page.at(-1)?.id;
    }
    expect(seen).toEqual([...ids].sort());
    expect(await store().listProducts({ knowledgeBaseId: 'kb_1', afterId: 'p10', limit: 4 })).toEqual([]);
    expect(await store().countProducts('kb_1')).toBe(10);
    expect(await store().countProducts('kb_empty')).toBe(0);
  });

  it('deletes a product, saying whether it existed', async () => {
    await store().upsertProducts('kb_1', [makeProduct({ id: 'p1' })]);
    expect(await store().deleteProduct('kb_1', 'p1')).toBe(true);
    expect(await store().deleteProduct('kb_1', 'p1')).toBe(false);
    expect(await store().listProducts({ knowledgeBaseId: 'kb_1', limit: 10 })).toEqual([]);
  });

  it("lists one knowledge base's documents oldest first, with every field", async () => {
    const second = makeDocument({ knowledgeBaseId: 'kb_1', createdAt: at(2), url: null });
    const first = makeDocument({ knowledgeBaseId: 'kb_1', createdAt: at(1), content: '# Title\n\nBody with *Markdown*.' });
    await store().insertDocument(second);
    await store().insertDocument(makeDocument({ knowledgeBaseId: 'kb_2' }));
    await store().insertDocument(first);
    expect(await store().listDocuments('kb_1')).toEqual([first, second]);
    expect(await store().listDocuments('kb_none')).toEqual([]);
  });

  it('gets one document by knowledge base and id', async () => {
    const document = makeDocument({ knowledgeBaseId: 'kb_1', content: '# Returns\n\nWithin 30 days.' });
    const sameIdElsewhere = makeDocument({ id: document.id, knowledgeBaseId: 'kb_2', title: 'Other', url: null });
    await store().insertDocument(document);
    await store().insertDocument(sameIdElsewhere);
    expect(await store().getDocument('kb_1', document.id)).toEqual(document);
    expect(await store().getDocument('kb_2', document.id)).toEqual(sameIdElsewhere);
    expect(await store().getDocument('kb_3', document.id)).toBeNull();
    expect(await store().getDocument('kb_1', 'doc_missing')).toBeNull();
    await store().deleteDocument('kb_1', document.id);
    expect(await store().getDocument('kb_1', document.id)).toBeNull();
  });

  it('rejects a duplicate document id within a knowledge base and deletes documents', async () => {
    const document = makeDocument({ knowledgeBaseId: 'kb_1' });
    await store().insertDocument(document);
    await expect(store().insertDocument({ ...document, title: 'Again' })).rejects.toThrow();
    expect(await store().deleteDocument('kb_2', document.id)).toBe(false);
    expect(await store().deleteDocument('kb_1', document.id)).toBe(true);
    expect(await store().deleteDocument('kb_1', document.id)).toBe(false);
    expect(await store().listDocuments('kb_1')).toEqual([]);
  });
}
