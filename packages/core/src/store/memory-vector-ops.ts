import type { MemoryState, IndexedDocument } from './memory-state.js';
import { compareIds, key } from './memory-tables.js';
import type { PassageKey, PassageToEmbed, VectorOps } from './vector-store.js';

export function bumpVectorVersion(state: MemoryState, knowledgeBaseId: string): void {
  state.vectorVersions.set(knowledgeBaseId, (state.vectorVersions.get(knowledgeBaseId) ?? 0) + 1);
}

/** Documents oldest first, ties by id: the order passages are embedded in. */
function documentsByAge(state: MemoryState): IndexedDocument[] {
  return [...state.documents.values()].sort(
    (a, b) => a.document.createdAt.getTime() - b.document.createdAt.getTime() || compareIds(a.document.id, b.document.id),
  );
}

const copyVector = (vector: Float32Array): Float32Array => Float32Array.from(vector);

/**
 * Vectors and embedding leases in the document rows (see `IndexedDocument`). Every row is replaced, never mutated,
 * so the transaction journal can undo a write.
 */
export function createMemoryVectorOps(state: MemoryState): VectorOps {
  const withLeases = (row: IndexedDocument, model: string, leases: Record<number, { owner: string; expiresAt: number }>): IndexedDocument => ({
    ...row,
    leases: { ...row.leases, [model]: leases },
  });
  return {
    async claimPassagesToEmbed({ model, owner, now, leaseMs, limit }) {
      const claimed: PassageToEmbed[] = [];
      for (const row of documentsByAge(state)) {
        if (claimed.length >= limit) break;
        const { document } = row;
        const kb = state.knowledgeBases.get(document.knowledgeBaseId);
        if (kb === undefined) continue;
        const vectors = row.vectors?.[model] ?? {};
        const leases = { ...row.leases?.[model] };
        let changed = false;
        for (const chunk of row.chunks) {
          if (claimed.length >= limit) break;
          const lease = leases[chunk.position];
          if (vectors[chunk.position] !== undefined || (lease !== undefined && lease.expiresAt > now.getTime())) continue;
          leases[chunk.position] = { owner, expiresAt: now.getTime() + leaseMs };
          changed = true;
          claimed.push({
            knowledgeBaseId: document.knowledgeBaseId,
            documentId: document.id,
            position: chunk.position,
            accountId: kb.accountId,
            title: document.title,
            content: chunk.content,
          });
        }
        if (changed) state.documents.set(key(document.knowledgeBaseId, document.id), withLeases(row, model, leases));
      }
      return claimed;
    },

    async savePassageVectors({ model, owner, vectors }) {
      const saved: PassageKey[] = [];
      const touched = new Set<string>();
      for (const item of vectors) {
        const documentKey = key(item.knowledgeBaseId, item.documentId);
        const row = state.documents.get(documentKey);
        if (row?.leases?.[model]?.[item.position]?.owner !== owner) continue;
        const { [item.position]: _released, ...leases } = row.leases[model]!;
        state.documents.set(documentKey, {
          ...withLeases(row, model, leases),
          vectors: { ...row.vectors, [model]: { ...row.vectors?.[model], [item.position]: copyVector(item.vector) } },
        });
        saved.push({ knowledgeBaseId: item.knowledgeBaseId, documentId: item.documentId, position: item.position });
        touched.add(item.knowledgeBaseId);
      }
      for (const knowledgeBaseId of touched) bumpVectorVersion(state, knowledgeBaseId);
      return saved;
    },

    async releasePassageClaims({ model, owner }) {
      for (const [documentKey, row] of [...state.documents.entries()]) {
        const leases = row.leases?.[model];
        if (leases === undefined) continue;
        const kept = Object.fromEntries(Object.entries(leases).filter(([, lease]) => lease.owner !== owner));
        if (Object.keys(kept).length !== Object.keys(leases).length) state.documents.set(documentKey, withLeases(row, model, kept));
      }
    },

    async removeOtherModelVectors(model) {
      let removed = 0;
      for (const [documentKey, row] of [...state.documents.entries()]) {
        const others = Object.entries(row.vectors ?? {}).filter(([name]) => name !== model);
        if (others.length === 0) continue;
        removed += others.reduce((sum, [, byPosition]) => sum + Object.keys(byPosition).length, 0);
        const kept = row.vectors?.[model];
        state.documents.set(documentKey, { ...row, vectors: kept === undefined ? {} : { [model]: kept } });
        bumpVectorVersion(state, row.document.knowledgeBaseId);
      }
      return removed;
    },

    async embeddingProgress({ knowledgeBaseIds, model }) {
      return knowledgeBaseIds.map((knowledgeBaseId) => {
        let passages = 0;
        let embedded = 0;
        for (const row of state.documents.values()) {
          if (row.document.knowledgeBaseId !== knowledgeBaseId) continue;
          passages += row.chunks.length;
          embedded += Object.keys(row.vectors?.[model] ?? {}).length;
        }
        return { knowledgeBaseId, passages, embedded };
      });
    },

    async vectorVersions(knowledgeBaseIds) {
      return Object.fromEntries(knowledgeBaseIds.map((id) => [id, state.vectorVersions.get(id) ?? 0]));
    },

    async listPassageVectors({ knowledgeBaseId, model, after, limit }) {
      const rows = [...state.documents.values()]
        .filter((row) => row.document.knowledgeBaseId === knowledgeBaseId)
        .sort((a, b) => compareIds(a.document.id, b.document.id));
      const page: Array<PassageKey & { vector: Float32Array }> = [];
      for (const row of rows) {
        if (after !== undefined && compareIds(row.document.id, after.documentId) < 0) continue;
        const byPosition = row.vectors?.[model] ?? {};
        const positions = Object.keys(byPosition).map(Number).sort((a, b) => a - b);
        for (const position of positions) {
          if (after !== undefined && row.document.id === after.documentId && position <= after.position) continue;
          page.push({ knowledgeBaseId, documentId: row.document.id, position, vector: copyVector(byPosition[position]!) });
          if (page.length >= limit) return page;
        }
      }
      return page;
    },

    async getPassages(keys) {
      return keys.flatMap((passage) => {
        const row = state.documents.get(key(passage.knowledgeBaseId, passage.documentId));
        const chunk = row?.chunks.find((candidate) => candidate.position === passage.position);
        if (row === undefined || chunk === undefined) return [];
        const { knowledgeBaseId, documentId, position } = passage;
        return [{ knowledgeBaseId, documentId, position, title: row.document.title, url: row.document.url, content: chunk.content }];
      });
    },
  };
}
