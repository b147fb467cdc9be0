import type { SourcePage } from '../domain.js';
import type { MemoryState } from './memory-state.js';
import { bumpVectorVersion } from './memory-vector-ops.js';
import { byCreation, compareIds, copy, copyOrNull, duplicate, key } from './memory-tables.js';
import type { SourceOps } from './source-store.js';

/** Knowledge sources and their pages in memory (source-store.ts). */
export function createMemorySourceOps(state: MemoryState): SourceOps {
  const manualOf = (knowledgeBaseId: string) =>
    [...state.sources.values()].find((source) => source.knowledgeBaseId === knowledgeBaseId && source.type === 'manual');
  const pagesOf = (sourceId: string): SourcePage[] => [...state.sourcePages.values()].filter((page) => page.sourceId === sourceId);
  const leaseFree = (lease: { owner: string; expiresAt: Date } | null, owner: string, now: Date): boolean =>
    lease === null || lease.owner === owner || lease.expiresAt.getTime() <= now.getTime();

  return {
    async insertSource(source) {
      if (state.sources.has(source.id)) throw duplicate('source', source.id);
      if (source.type === 'manual' && manualOf(source.knowledgeBaseId)) throw new Error(`Knowledge base ${source.knowledgeBaseId} already has a manual source`);
      state.sources.set(source.id, copy(source));
    },
    async ensureManualSource(candidate) {
      const existing = manualOf(candidate.knowledgeBaseId);
      if (existing) return copy(existing);
      if (state.sources.has(candidate.id)) throw duplicate('source', candidate.id);
      state.sources.set(candidate.id, copy(candidate));
      return copy(candidate);
    },
    async getSource(knowledgeBaseId, sourceId) {
      const source = state.sources.get(sourceId);
      return copyOrNull(source?.knowledgeBaseId === knowledgeBaseId ? source : undefined);
    },
    async listSources(knowledgeBaseId) {
      return [...state.sources.values()].filter((source) => source.knowledgeBaseId === knowledgeBaseId).sort(byCreation).map(copy);
    },
    async updateSource({ id, owner, patch }) {
      const source = state.sources.get(id);
      if (!source) return null;
      if (owner !== undefined && source.lease?.owner !== owner) return null;
      const updated = { ...source, ...copy(patch) };
      state.sources.set(id, updated);
      return copy(updated);
    },
    async deleteSource(knowledgeBaseId, sourceId) {
      const source = state.sources.get(sourceId);
      if (!source || source.knowledgeBaseId !== knowledgeBaseId) return false;
      state.sources.delete(sourceId);
      for (const page of pagesOf(sourceId)) state.sourcePages.delete(key(sourceId, page.url));
      let documents = 0;
      for (const [documentKey, row] of [...state.documents.entries()]) {
        if (row.document.knowledgeBaseId === knowledgeBaseId && row.document.sourceId === sourceId) {
          state.documents.delete(documentKey);
          documents++;
        }
      }
      if (documents > 0) bumpVectorVersion(state, knowledgeBaseId);
      for (const [productKey, row] of [...state.products.entries()]) {
        if (row.knowledgeBaseId === knowledgeBaseId && row.sourceId === sourceId) state.products.delete(productKey);
      }
      return true;
    },
    async claimSource({ owner, now, leaseMs }) {
      const candidates = [...state.sources.values()].filter(
        (source) =>
          source.type === 'website' &&
          leaseFree(source.lease, owner, now) &&
          (source.status === 'queued' ||
            source.status === 'syncing' ||
            (source.nextSyncAt !== null && source.nextSyncAt.getTime() <= now.getTime())),
      );
      const rank = (status: string) => (status === 'syncing' ? 0 : status === 'queued' ? 1 : 2);
      candidates.sort(
        (a, b) =>
          rank(a.status) - rank(b.status) ||
          (a.nextSyncAt?.getTime() ?? 0) - (b.nextSyncAt?.getTime() ?? 0) ||
          a.createdAt.getTime() - b.createdAt.getTime() ||
          compareIds(a.id, b.id),
      );
      const chosen = candidates[0];
      if (!chosen) return null;
      const claimed = { ...chosen, lease: { owner, expiresAt: new Date(now.getTime() + leaseMs) } };
      state.sources.set(chosen.id, claimed);
      return copy(claimed);
    },
    async countSourceDocuments(knowledgeBaseId) {
      const counts: Record<string, number> = {};
      for (const { document } of state.documents.values()) {
        if (document.knowledgeBaseId === knowledgeBaseId && document.sourceId !== null) counts[document.sourceId] = (counts[document.sourceId] ?? 0) + 1;
      }
      return counts;
    },

    async addSourcePages({ sourceId, urls, generation, max, now }) {
      let current = pagesOf(sourceId).filter((page) => page.generation === generation).length;
      const added: string[] = [];
      for (const url of new Set(urls)) {
        if (current >= max) break;
        const pageKey = key(sourceId, url);
        const existing = state.sourcePages.get(pageKey);
        if (existing && existing.generation >= generation) continue;
        state.sourcePages.set(
          pageKey,
          existing
            ? { ...existing, state: 'pending', generation, status: null, error: null, updatedAt: new Date(now) }
            : {
                sourceId,
                url,
                state: 'pending',
                etag: null,
                lastModified: null,
                contentHash: null,
                documentIds: [],
                links: [],
                status: null,
                error: null,
                generation,
                updatedAt: new Date(now),
              },
        );
        added.push(url);
        current++;
      }
      return added;
    },
    async getSourcePage(sourceId, url) {
      return copyOrNull(state.sourcePages.get(key(sourceId, url)));
    },
    async putSourcePage(page) {
      state.sourcePages.set(key(page.sourceId, page.url), copy(page));
    },
    async deleteSourcePage(sourceId, url) {
      return state.sourcePages.delete(key(sourceId, url));
    },
    async listSourcePages({ sourceId, state: pageState, generation, beforeGeneration, contentHash, limit }) {
      return pagesOf(sourceId)
        .filter(
          (page) =>
            (pageState === undefined || page.state === pageState) &&
            (generation === undefined || page.generation === generation) &&
            (beforeGeneration === undefined || page.generation < beforeGeneration) &&
            (contentHash === undefined || page.contentHash === contentHash),
        )
        .sort((a, b) => compareIds(a.url, b.url))
        .slice(0, limit)
        .map(copy);
    },
  };
}
