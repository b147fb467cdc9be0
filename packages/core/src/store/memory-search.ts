import type { MemoryState } from './memory-state.js';
import type { KnowledgeHits, KnowledgePassage, KnowledgeQuery, ProductHit } from './store.js';
import { rankBm25, tokenize } from './text-ranking.js';

/**
 * BM25 over the passages and products of the requested knowledge bases only: a knowledge base not listed is never
 * read, which is what keeps one account's content out of another's answers. Titles and product names count twice,
 * as the SQL stores weight them above bodies.
 */
export function searchMemoryKnowledge(state: MemoryState, query: KnowledgeQuery): KnowledgeHits {
  const allowed = new Set(query.knowledgeBaseIds);
  const terms = tokenize(query.text, query.language);
  if (allowed.size === 0 || terms.length === 0 || query.limit <= 0) return { passages: [], products: [] };
  const words = (text: string): string[] => tokenize(text, query.language);

  const passages: Array<{ item: Omit<KnowledgePassage, 'rank'>; terms: string[] }> = [];
  for (const { document, chunks } of state.documents.values()) {
    if (!allowed.has(document.knowledgeBaseId)) continue;
    const titleTerms = words(document.title);
    for (const chunk of chunks) {
      passages.push({
        item: {
          documentId: document.id,
          knowledgeBaseId: document.knowledgeBaseId,
          title: document.title,
          url: document.url,
          content: chunk.content,
        },
        terms: [...titleTerms, ...titleTerms, ...words(chunk.content)],
      });
    }
  }

  const products: Array<{ item: Omit<ProductHit, 'rank'>; terms: string[] }> = [];
  for (const { knowledgeBaseId, product } of state.products.values()) {
    if (!allowed.has(knowledgeBaseId)) continue;
    const nameTerms = words(product.name);
    products.push({ item: { knowledgeBaseId, product }, terms: [...nameTerms, ...nameTerms, ...words(product.description ?? '')] });
  }

  return {
    passages: rankBm25(terms, passages)
      .slice(0, query.limit)
      .map(({ item, score }) => ({ ...item, rank: score })),
    products: rankBm25(terms, products)
      .slice(0, query.limit)
      .map(({ item, score }) => ({ ...item, rank: score })),
  };
}
