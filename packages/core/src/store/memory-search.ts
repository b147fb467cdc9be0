import type { MemoryState } from './memory-state.js';
import type { KnowledgeHits, KnowledgePassage, KnowledgeQuery, TermMatch, ProductHit } from './store.js';
import { rankBm25, tokenize } from './text-ranking.js';

/**
 * BM25 over the passages and products of the requested knowledge bases only: a knowledge base not listed is never
 * read, which is what keeps one account's content out of another's answers. Titles and product names count twice,
 * as the SQL stores weight them above bodies.
 */
export function searchMemoryKnowledge(state: MemoryState, query: KnowledgeQuery): KnowledgeHits {
  const allowed = new Set(query.knowledgeBaseIds);
  const terms = [...new Set(tokenize(query.text, query.language))];
  const none: KnowledgeHits = { passages: [], products: [], terms: { passages: 0, frequencies: {} } };
  if (allowed.size === 0 || terms.length === 0 || query.limit <= 0) return none;
  const words = (text: string): string[] => tokenize(text, query.language);
  const matched = (title: readonly string[], body: readonly string[]): TermMatch => {
    const inTitle = new Set(title);
    const anywhere = new Set([...title, ...body]);
    const all = terms.filter((term) => anywhere.has(term));
    const count = (words: readonly string[], term: string): number => words.filter((word) => word === term).length;
    const counts = Object.fromEntries(all.map((term) => [term, { title: count(title, term), body: count(body, term) }]));
    return { title: terms.filter((term) => inTitle.has(term)), all, counts, length: { title: title.length, body: body.length } };
  };

  const passages: Array<{ item: Omit<KnowledgePassage, 'rank'>; terms: string[] }> = [];
  for (const { document, chunks } of state.documents.values()) {
    if (!allowed.has(document.knowledgeBaseId)) continue;
    const titleTerms = words(document.title);
    for (const chunk of chunks) {
      const bodyTerms = words(chunk.content);
      passages.push({
        item: {
          documentId: document.id,
          knowledgeBaseId: document.knowledgeBaseId,
          position: chunk.position,
          title: document.title,
          url: document.url,
          content: chunk.content,
          matched: matched(titleTerms, bodyTerms),
        },
        terms: [...titleTerms, ...titleTerms, ...bodyTerms],
      });
    }
  }

  const products: Array<{ item: Omit<ProductHit, 'rank'>; terms: string[] }> = [];
  for (const { knowledgeBaseId, product } of state.products.values()) {
    if (!allowed.has(knowledgeBaseId)) continue;
    const nameTerms = words(product.name);
    const bodyTerms = words(product.description ?? '');
    products.push({ item: { knowledgeBaseId, product, matched: matched(nameTerms, bodyTerms) }, terms: [...nameTerms, ...nameTerms, ...bodyTerms] });
  }

  const frequencies: Record<string, number> = {};
  for (const term of terms) frequencies[term] = passages.filter((passage) => passage.item.matched.all.includes(term)).length;
  return {
    passages: rankBm25(terms, passages)
      .slice(0, query.limit)
      .map(({ item, score }) => ({ ...item, rank: score })),
    products: rankBm25(terms, products)
      .slice(0, query.limit)
      .map(({ item, score }) => ({ ...item, rank: score })),
    terms: { passages: passages.length, frequencies },
  };
}
