import { expect, it } from 'vitest';
import type { Store } from '../../store/store.js';
import type { PassageToEmbed } from '../../store/vector-store.js';
import { at, makeDocument, makeKnowledgeBase } from '../fixtures.js';

const MODEL = 'test:model:3';
const OTHER_MODEL = 'test:other:3';
/** Two passages (one per heading). */
const TWO_SECTIONS = '# Shipping\n\nWe ship to Canada.\n\n# Returns\n\nReturns are free within 30 days.';

const vectorFor = (seed: number): Float32Array => Float32Array.from([seed, seed / 2, -seed]);

export function vectorContract(store: () => Store): void {
  const kb = makeKnowledgeBase({ id: 'kb_vec', accountId: 'acct_vec' });
  const claim = (overrides: { owner?: string; now?: Date; limit?: number; model?: string; leaseMs?: number } = {}): Promise<PassageToEmbed[]> =>
    store().claimPassagesToEmbed({ model: MODEL, owner: 'wrk_a', now: at(100), leaseMs: 60_000, limit: 10, ...overrides });
  const saveAll = (passages: PassageToEmbed[], owner = 'wrk_a', model = MODEL) =>
    store().savePassageVectors({ model, owner, vectors: passages.map((p) => ({ ...p, vector: vectorFor(p.position + 1) })) });
  const setUp = async (): Promise<void> => {
    await store().insertKnowledgeBase(kb);
    await store().insertDocument(makeDocument({ id: 'doc_new', knowledgeBaseId: kb.id, title: 'Policies', content: TWO_SECTIONS, createdAt: at(2) }));
    await store().insertDocument(makeDocument({ id: 'doc_old', knowledgeBaseId: kb.id, title: 'Hours', content: 'Open 9 to 6.', createdAt: at(1) }));
  };

  it('claims the passages lacking a vector for the model, oldest document first, with what to embed and who pays', async () => {
    await setUp();
    // A knowledge base that does not exist has no account to charge: its passages are never claimed.
    await store().insertDocument(makeDocument({ id: 'doc_orphan', knowledgeBaseId: 'kb_gone', createdAt: at(0) }));
    const claimed = await claim();
    expect(claimed.map((p) => [p.documentId, p.position])).toEqual([
      ['doc_old', 0],
      ['doc_new', 0],
      ['doc_new', 1],
    ]);
    expect(claimed[0]).toEqual({ knowledgeBaseId: kb.id, documentId: 'doc_old', position: 0, accountId: 'acct_vec', title: 'Hours', content: 'Open 9 to 6.' });
    expect(claimed[2]?.content).toContain('Returns are free');
  });

  it('never hands a leased passage to another claimer until the lease runs out', async () => {
    await setUp();
    expect(await claim({ limit: 2 })).toHaveLength(2);
    const second = await claim({ owner: 'wrk_b' });
    expect(second.map((p) => [p.documentId, p.position])).toEqual([['doc_new', 1]]);
    expect(await claim({ owner: 'wrk_c' })).toEqual([]);
    // The first worker crashed: after its lease anyone may take its passages.
    const retaken = await claim({ owner: 'wrk_c', now: at(161) });
    expect(retaken.map((p) => [p.documentId, p.position])).toEqual([
      ['doc_old', 0],
      ['doc_new', 0],
      ['doc_new', 1],
    ]);
    // A lease is per model.
    expect(await claim({ owner: 'wrk_d', model: OTHER_MODEL })).toHaveLength(3);
  });

  it('saves vectors under a lease still held, then finds nothing missing; a released claim can be taken again', async () => {
    await setUp();
    const claimed = await claim();
    expect(await store().savePassageVectors({ model: MODEL, owner: 'wrk_b', vectors: claimed.map((p) => ({ ...p, vector: vectorFor(9) })) })).toEqual([]);
    const saved = await saveAll(claimed.slice(0, 2));
    expect(saved).toEqual(claimed.slice(0, 2).map(({ knowledgeBaseId, documentId, position }) => ({ knowledgeBaseId, documentId, position })));
    await store().releasePassageClaims({ model: MODEL, owner: 'wrk_a' });
    const again = await claim({ owner: 'wrk_b' });
    expect(again.map((p) => [p.documentId, p.position])).toEqual([['doc_new', 1]]);
    await saveAll(again, 'wrk_b');
    expect(await claim({ owner: 'wrk_c', now: at(1000) })).toEqual([]);
    expect(await store().embeddingProgress({ knowledgeBaseIds: [kb.id, 'kb_none'], model: MODEL })).toEqual([
      { knowledgeBaseId: kb.id, passages: 3, embedded: 3 },
      { knowledgeBaseId: 'kb_none', passages: 0, embedded: 0 },
    ]);
  });

  it('reads a knowledge base’s vectors of one model exactly, in pages by (document, position)', async () => {
    await setUp();
    await saveAll(await claim());
    await saveAll(await claim({ model: OTHER_MODEL }), 'wrk_a', OTHER_MODEL);
    const first = await store().listPassageVectors({ knowledgeBaseId: kb.id, model: MODEL, limit: 2 });
    expect(first.map((v) => [v.documentId, v.position])).toEqual([
      ['doc_new', 0],
      ['doc_new', 1],
    ]);
    expect(first[1]?.vector).toEqual(vectorFor(2));
    expect(first[1]?.vector).toBeInstanceOf(Float32Array);
    const last = first.at(-1)!;
    const second = await store().listPassageVectors({ knowledgeBaseId: kb.id, model: MODEL, limit: 2, after: { documentId: last.documentId, position: last.position } });
    expect(second).toEqual([{ knowledgeBaseId: kb.id, documentId: 'doc_old', position: 0, vector: vectorFor(1) }]);
    expect(await store().listPassageVectors({ knowledgeBaseId: 'kb_none', model: MODEL, limit: 2 })).toEqual([]);
  });

  it('deletes vectors with their passage: a replaced document needs new ones, a deleted one has none', async () => {
    await setUp();
    await saveAll(await claim());
    const before = (await store().vectorVersions([kb.id]))[kb.id]!;
    await store().transaction(async (tx) => {
      await tx.deleteDocument(kb.id, 'doc_new');
      await tx.insertDocument(makeDocument({ id: 'doc_new', knowledgeBaseId: kb.id, title: 'Policies', content: 'Returns only.', createdAt: at(2) }));
    });
    expect((await store().vectorVersions([kb.id]))[kb.id]).not.toBe(before);
    expect(await store().embeddingProgress({ knowledgeBaseIds: [kb.id], model: MODEL })).toEqual([{ knowledgeBaseId: kb.id, passages: 2, embedded: 1 }]);
    expect((await claim({ now: at(1000) })).map((p) => [p.documentId, p.position, p.content])).toEqual([['doc_new', 0, 'Returns only.']]);
    await store().deleteDocument(kb.id, 'doc_old');
    expect(await store().listPassageVectors({ knowledgeBaseId: kb.id, model: MODEL, limit: 10 })).toEqual([]);
  });

  it('drops a vector computed for a passage replaced while it was being embedded', async () => {
    await setUp();
    const claimed = await claim();
    await store().deleteDocument(kb.id, 'doc_new');
    await store().insertDocument(makeDocument({ id: 'doc_new', knowledgeBaseId: kb.id, title: 'Policies', content: TWO_SECTIONS, createdAt: at(2) }));
    const saved = await saveAll(claimed);
    expect(saved.map((p) => p.documentId)).toEqual(['doc_old']);
    expect((await claim({ owner: 'wrk_b' })).map((p) => [p.documentId, p.position])).toEqual([
      ['doc_new', 0],
      ['doc_new', 1],
    ]);
  });

  it('removes the vectors of other models, moving the version of the knowledge bases that had them', async () => {
    await setUp();
    await saveAll(await claim());
    await saveAll(await claim({ model: OTHER_MODEL }), 'wrk_a', OTHER_MODEL);
    const before = await store().vectorVersions([kb.id, 'kb_none']);
    expect(before['kb_none']).toBe(0);
    expect(await store().removeOtherModelVectors(MODEL)).toBe(3);
    expect(await store().removeOtherModelVectors(MODEL)).toBe(0);
    const after = await store().vectorVersions([kb.id, 'kb_none']);
    expect(after[kb.id]).not.toBe(before[kb.id]);
    expect(after['kb_none']).toBe(0);
    expect(await store().embeddingProgress({ knowledgeBaseIds: [kb.id], model: OTHER_MODEL })).toEqual([{ knowledgeBaseId: kb.id, passages: 3, embedded: 0 }]);
    expect(await store().embeddingProgress({ knowledgeBaseIds: [kb.id], model: MODEL })).toEqual([{ knowledgeBaseId: kb.id, passages: 3, embedded: 3 }]);
  });

  it('moves the vector version when vectors are saved', async () => {
    await setUp();
    const before = (await store().vectorVersions([kb.id]))[kb.id];
    await saveAll(await claim({ limit: 1 }));
    expect((await store().vectorVersions([kb.id]))[kb.id]).not.toBe(before);
  });

  it('reads passages by key, in the order asked, skipping those that do not exist', async () => {
    await setUp();
    const passages = await store().getPassages([
      { knowledgeBaseId: kb.id, documentId: 'doc_new', position: 1 },
      { knowledgeBaseId: kb.id, documentId: 'doc_new', position: 7 },
      { knowledgeBaseId: kb.id, documentId: 'doc_old', position: 0 },
    ]);
    expect(passages).toEqual([
      { knowledgeBaseId: kb.id, documentId: 'doc_new', position: 1, title: 'Policies', url: 'https://example.com/help/hours', content: 'Returns\n\nReturns are free within 30 days.' },
      { knowledgeBaseId: kb.id, documentId: 'doc_old', position: 0, title: 'Hours', url: 'https://example.com/help/hours', content: 'Open 9 to 6.' },
    ]);
    expect(await store().getPassages([])).toEqual([]);
  });

  it('gives full-text hits their position, the key vectors are stored under', async () => {
    await setUp();
    const hits = await store().searchKnowledge({ knowledgeBaseIds: [kb.id], text: 'returns', limit: 5 });
    expect(hits.passages.map((p) => [p.documentId, p.position])).toEqual([['doc_new', 1]]);
  });
}
