import { expect, it } from 'vitest';
import type { Store } from '../../store/store.js';
import { at, makeDocument, makeKnowledgeBase, makeProduct, makeSource, makeSourcePage } from '../fixtures.js';

/** Knowledge sources and the pages of website sources (DESIGN.md section 11 "Sources"). */
export function sourceContract(store: () => Store): void {
  it('round-trips a source with every field, and lists a knowledge base’s sources oldest first', async () => {
    const website = makeSource({ knowledgeBaseId: 'kb_s', createdAt: at(2) });
    const file = makeSource({
      knowledgeBaseId: 'kb_s',
      type: 'file',
      url: null,
      fileName: 'guide.pdf',
      include: [],
      exclude: [],
      maxPages: null,
      schedule: 'off',
      lastSync: { startedAt: at(1), finishedAt: null, error: 'unreadable' },
      nextSyncAt: null,
      lease: { owner: 'wrk_1', expiresAt: at(30) },
      createdAt: at(1),
    });
    for (const source of [website, file, makeSource({ knowledgeBaseId: 'kb_other' })]) await store().insertSource(source);
    expect(await store().getSource('kb_s', website.id)).toEqual(website);
    expect(await store().getSource('kb_other', website.id)).toBeNull();
    expect(await store().listSources('kb_s')).toEqual([file, website]);
    await expect(store().insertSource(website)).rejects.toThrow();
  });

  it('keeps one manual source per knowledge base', async () => {
    const first = makeSource({ knowledgeBaseId: 'kb_m', type: 'manual', url: null, status: 'ready', lastSync: null, nextSyncAt: null, generation: 0 });
    expect(await store().ensureManualSource(first)).toEqual(first);
    const second = { ...first, id: 'src_second' };
    expect(await store().ensureManualSource(second)).toEqual(first);
    await expect(store().insertSource(second)).rejects.toThrow();
    expect((await store().listSources('kb_m')).map((source) => source.id)).toEqual([first.id]);
  });

  it('updates a source, only for the lease holder when an owner is named', async () => {
    const source = makeSource({ knowledgeBaseId: 'kb_u', lease: { owner: 'wrk_a', expiresAt: at(60) } });
    await store().insertSource(source);
    const progress = { found: 9, fetched: 8, unchanged: 0, failed: 1, skipped: 0 };
    expect(await store().updateSource({ id: source.id, owner: 'wrk_b', patch: { progress } })).toBeNull();
    const updated = await store().updateSource({ id: source.id, owner: 'wrk_a', patch: { progress, status: 'syncing', lastSync: null } });
    expect(updated).toEqual({ ...source, progress, status: 'syncing', lastSync: null });
    expect(await store().updateSource({ id: source.id, patch: { lease: null, nextSyncAt: null } })).toEqual({ ...updated, lease: null, nextSyncAt: null });
    expect(await store().updateSource({ id: 'src_missing', patch: { status: 'queued' } })).toBeNull();
  });

  it('claims queued, abandoned, own and due website sources, never one another worker holds', async () => {
    const now = at(1000);
    const queued = makeSource({ knowledgeBaseId: 'kb_c', status: 'queued', nextSyncAt: null, createdAt: at(1) });
    const held = makeSource({ knowledgeBaseId: 'kb_c', status: 'syncing', lease: { owner: 'wrk_other', expiresAt: at(2000) } });
    const abandoned = makeSource({ knowledgeBaseId: 'kb_c', status: 'syncing', lease: { owner: 'wrk_dead', expiresAt: at(999) }, createdAt: at(2) });
    const due = makeSource({ knowledgeBaseId: 'kb_c', status: 'ready', nextSyncAt: at(500) });
    const later = makeSource({ knowledgeBaseId: 'kb_c', status: 'ready', nextSyncAt: at(5000) });
    const file = makeSource({ knowledgeBaseId: 'kb_c', type: 'file', status: 'queued' });
    for (const source of [queued, held, abandoned, due, later, file]) await store().insertSource(source);
    const claims = [];
    for (let i = 0; i < 4; i++) claims.push(await store().claimSource({ owner: `wrk_${i}`, now, leaseMs: 60_000 }));
    // A crashed worker's sync is resumed first, then queued ones, then those whose schedule is due.
    expect(claims.map((claim) => claim?.id ?? null)).toEqual([abandoned.id, queued.id, due.id, null]);
    expect(claims[0]).toEqual({ ...abandoned, lease: { owner: 'wrk_0', expiresAt: at(1060) } });
    // The holder claims its own source again (its next round); the status is left to the job.
    expect((await store().claimSource({ owner: 'wrk_1', now: at(1001), leaseMs: 60_000 }))?.id).toBe(queued.id);
    expect((await store().getSource('kb_c', queued.id))?.status).toBe('queued');
    // Once its lease runs out, the held source is free too.
    expect((await store().claimSource({ owner: 'wrk_9', now: at(2000), leaseMs: 60_000 }))?.id).toBe(held.id);
  });

  it('puts URLs on a sync’s frontier once, up to the page limit, keeping what earlier syncs learnt', async () => {
    const sourceId = 'src_frontier';
    const known = makeSourcePage({ sourceId, url: 'https://example.com/help/a', generation: 1, state: 'failed', status: 503, error: 'Service unavailable' });
    await store().putSourcePage(known);
    const added = await store().addSourcePages({
      sourceId,
      urls: ['https://example.com/help/b', 'https://example.com/help/a', 'https://example.com/help/b', 'https://example.com/help/c', 'https://example.com/help/d'],
      generation: 2,
      max: 3,
      now: at(5),
    });
    expect(added).toEqual(['https://example.com/help/b', 'https://example.com/help/a', 'https://example.com/help/c']);
    expect(await store().getSourcePage(sourceId, known.url)).toEqual({ ...known, state: 'pending', generation: 2, status: null, error: null, updatedAt: at(5) });
    expect(await store().getSourcePage(sourceId, 'https://example.com/help/b')).toEqual({
      sourceId,
      url: 'https://example.com/help/b',
      state: 'pending',
      etag: null,
      lastModified: null,
      contentHash: null,
      documentIds: [],
      links: [],
      status: null,
      error: null,
      generation: 2,
      updatedAt: at(5),
    });
    // Full: nothing more this sync; a page it reached already is not added twice.
    expect(await store().addSourcePages({ sourceId, urls: ['https://example.com/help/d'], generation: 2, max: 3, now: at(6) })).toEqual([]);
    expect(await store().addSourcePages({ sourceId, urls: ['https://example.com/help/a', 'https://example.com/help/d'], generation: 2, max: 10, now: at(6) })).toEqual([
      'https://example.com/help/d',
    ]);
    expect(await store().getSourcePage(sourceId, 'https://example.com/help/a')).toMatchObject({ state: 'pending', updatedAt: at(5) });
  });

  it('stores pages by (source, url) and lists them by state, sync, hash, in URL order', async () => {
    const sourceId = 'src_pages';
    const a = makeSourcePage({ sourceId, url: 'https://example.com/help/a', generation: 2, contentHash: 'h1' });
    const b = makeSourcePage({ sourceId, url: 'https://example.com/help/B', generation: 1, state: 'failed', status: null, error: 'timeout', contentHash: null });
    const c = makeSourcePage({ sourceId, url: 'https://example.com/help/c', generation: 2, state: 'pending', contentHash: 'h1', documentIds: [] });
    for (const page of [c, a, b, makeSourcePage({ sourceId: 'src_else' })]) await store().putSourcePage(page);
    expect(await store().listSourcePages({ sourceId, limit: 10 })).toEqual([b, a, c]);
    expect(await store().listSourcePages({ sourceId, state: 'pending', generation: 2, limit: 10 })).toEqual([c]);
    expect(await store().listSourcePages({ sourceId, beforeGeneration: 2, limit: 10 })).toEqual([b]);
    expect(await store().listSourcePages({ sourceId, contentHash: 'h1', limit: 1 })).toEqual([a]);
    const edited = { ...a, state: 'unchanged' as const, etag: null, links: [], documentIds: ['doc_new'], updatedAt: at(9) };
    await store().putSourcePage(edited);
    expect(await store().getSourcePage(sourceId, a.url)).toEqual(edited);
    expect(await store().deleteSourcePage(sourceId, a.url)).toBe(true);
    expect(await store().deleteSourcePage(sourceId, a.url)).toBe(false);
    expect(await store().getSourcePage(sourceId, a.url)).toBeNull();
  });

  it('counts documents per source and deletes a source with its pages, documents and products', async () => {
    const kb = makeKnowledgeBase({ id: 'kb_d' });
    await store().insertKnowledgeBase(kb);
    const site = makeSource({ knowledgeBaseId: kb.id });
    const other = makeSource({ knowledgeBaseId: kb.id, type: 'file', url: null });
    for (const source of [site, other]) await store().insertSource(source);
    const pageDocs = [makeDocument({ knowledgeBaseId: kb.id, sourceId: site.id }), makeDocument({ knowledgeBaseId: kb.id, sourceId: site.id })];
    const kept = makeDocument({ knowledgeBaseId: kb.id, sourceId: other.id });
    const loose = makeDocument({ knowledgeBaseId: kb.id, sourceId: null });
    for (const doc of [...pageDocs, kept, loose]) await store().insertDocument(doc);
    await store().upsertProducts(kb.id, [makeProduct({ id: 'from-file' })], other.id);
    await store().upsertProducts(kb.id, [makeProduct({ id: 'by-hand' })]);
    await store().putSourcePage(makeSourcePage({ sourceId: site.id, documentIds: pageDocs.map((doc) => doc.id) }));
    expect(await store().getDocument(kb.id, pageDocs[0]!.id)).toEqual(pageDocs[0]);
    expect(await store().countSourceDocuments(kb.id)).toEqual({ [site.id]: 2, [other.id]: 1 });

    expect(await store().deleteSource('kb_elsewhere', site.id)).toBe(false);
    expect(await store().deleteSource(kb.id, site.id)).toBe(true);
    expect(await store().deleteSource(kb.id, site.id)).toBe(false);
    expect(await store().getSource(kb.id, site.id)).toBeNull();
    expect(await store().listSourcePages({ sourceId: site.id, limit: 10 })).toEqual([]);
    expect((await store().listDocuments(kb.id)).map((doc) => doc.id).sort()).toEqual([kept.id, loose.id].sort());
    expect(await store().searchKnowledge({ knowledgeBaseIds: [kb.id], text: 'shop open', limit: 10 })).toMatchObject({ passages: [{}, {}] });

    expect(await store().deleteSource(kb.id, other.id)).toBe(true);
    expect((await store().listProducts({ knowledgeBaseId: kb.id, limit: 10 })).map((product) => product.id)).toEqual(['by-hand']);
    expect((await store().listDocuments(kb.id)).map((doc) => doc.id)).toEqual([loose.id]);
  });

  it('deletes several documents of a knowledge base at once', async () => {
    const docs = [makeDocument({ knowledgeBaseId: 'kb_x' }), makeDocument({ knowledgeBaseId: 'kb_x' }), makeDocument({ knowledgeBaseId: 'kb_x' })];
    for (const doc of docs) await store().insertDocument(doc);
    expect(await store().deleteDocuments('kb_x', [docs[0]!.id, docs[2]!.id, 'doc_missing'])).toBe(2);
    expect(await store().deleteDocuments('kb_x', [])).toBe(0);
    expect((await store().listDocuments('kb_x')).map((doc) => doc.id)).toEqual([docs[1]!.id]);
  });
}
