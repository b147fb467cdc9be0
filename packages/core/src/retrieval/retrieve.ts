import type { KnowledgeHits, KnowledgePassage, TermMatch, ProductHit, StoreOps, TermStatistics } from '../store/store.js';
import { tokenize } from '../store/text-ranking.js';
import { STOPWORDS } from '../text-terms.js';
import type { RerankProvider } from './providers.js';

/**
 * The one retrieval of the service (DESIGN.md section 11): the local agent, the LLM agent's `search_knowledge` tool
 * and `POST /knowledge-bases/{kbId}/search` all read knowledge through it, so all three see the same passages in
 * the same order with the same confidence.
 */

export interface RetrievalQuery {
  knowledgeBaseIds: string[];
  text: string;
  /** BCP 47 language of the text (stemming). */
  language?: string;
  /** Passages (and products) returned at most. */
  limit: number;
  signal?: AbortSignal;
}

/** Which retriever found a passage: full text, vector similarity, or the rerank provider's ordering. */
export type RetrieverName = 'text' | 'vector' | 'rerank';

export interface RetrievedPassage extends KnowledgePassage {
  /** Higher is better; comparable within one retrieval. */
  score: number;
  /** 0-1: how much of the question this passage covers (see {@link coverageConfidence}). */
  confidence: number;
  retrievers: RetrieverName[];
}

export interface RetrievedProduct extends ProductHit {
  score: number;
  confidence: number;
}

export interface RetrievalMeters {
  /** 1 when the knowledge was searched. */
  retrievals: number;
  /** Texts embedded for this retrieval (the question). */
  embeddings: number;
  /** Rerank calls. */
  reranks: number;
}

export interface Retrieval {
  passages: RetrievedPassage[];
  products: RetrievedProduct[];
  /** The best passage's confidence, 0 when nothing matched. */
  confidence: number;
  meters: RetrievalMeters;
}

export interface KnowledgeRetriever {
  retrieve(query: RetrievalQuery): Promise<Retrieval>;
}

export interface RetrieverOptions {
  store: Pick<StoreOps, 'searchKnowledge'>;
  /** Optional: reorders the best text candidates (the Cohere/Jina-style `/rerank` API). */
  rerank?: RerankProvider | undefined;
  /** Told when an optional provider fails; retrieval then goes on with full text alone. */
  onProviderError?: ((provider: 'rerank', error: unknown) => void) | undefined;
}

/**
 * The abstention threshold of a new widget, chosen from the wrong-versus-unanswered curve of `pnpm eval:retrieval` on
 * two public FAQ datasets (eval/datasets): the lowest threshold at which both keep replies citing a wrong entry under
 * a fifth while more than two in five cite the right one.
 */
export const DEFAULT_CONFIDENCE_THRESHOLD = 0.43;

/** Full-text candidates read before reordering: enough that proximity and rerank can lift a passage from below the top. */
export const TEXT_CANDIDATES = 30;
/** Candidates sent to a rerank provider: each costs provider time, and the right one is nearly always among these. */
export const RERANK_CANDIDATES = 20;
/** Each pair of the question's words found next to each other in a passage adds this share to its text rank. */
const ADJACENT_PAIR_BONUS = 0.1;
/** Weight of the title in the confidence; the rest is the whole passage. DESIGN.md section 11 says why the title leads. */
const TITLE_WEIGHT = 0.75;

const zeroMeters = (): RetrievalMeters => ({ retrievals: 0, embeddings: 0, reranks: 0 });

export function createRetriever(options: RetrieverOptions): KnowledgeRetriever {
  return {
    async retrieve(query) {
      if (query.knowledgeBaseIds.length === 0 || query.limit <= 0) return { passages: [], products: [], confidence: 0, meters: zeroMeters() };
      const hits = await options.store.searchKnowledge({
        knowledgeBaseIds: query.knowledgeBaseIds,
        text: query.text,
        ...(query.language === undefined ? {} : { language: query.language }),
        limit: Math.max(query.limit, TEXT_CANDIDATES),
      });
      query.signal?.throwIfAborted();
      const meters = { ...zeroMeters(), retrievals: 1 };
      let passages = textOrder(query, hits);
      if (options.rerank !== undefined && passages.length > 1) {
        const reranked = await rerankPassages(options, query, passages);
        if (reranked !== null) {
          passages = reranked;
          meters.reranks = 1;
        }
      }
      const productTerms = knownTerms(hits);
      const products = hits.products
        .map((hit) => ({ ...hit, score: hit.rank, confidence: coverageConfidence(hit.matched, productTerms) }))
        .slice(0, query.limit);
      passages = passages.slice(0, query.limit);
      return { passages, products, confidence: passages[0]?.confidence ?? 0, meters };
    },
  };
}

/**
 * Full-text order: BM25F over the candidates, computed here from what the store counted (each query term's
 * occurrences in the title and the body, each part's length, how many passages hold the term), so that every store
 * ranks alike; the title counts {@link TITLE_FIELD_WEIGHT} times the body. Each pair of the question's words that also
 * stand side by side in the title or passage ("hand sanitizer" in a passage about hand sanitizer, not one mentioning
 * hands and sanitizer apart) raises the score by {@link ADJACENT_PAIR_BONUS}. Best first; ties keep the store's order.
 */
function textOrder(query: RetrievalQuery, hits: KnowledgeHits): RetrievedPassage[] {
  const questionTerms = tokenize(query.text, query.language);
  const average = averageLengths(hits.passages.map((passage) => passage.matched));
  return hits.passages
    .map((passage, index) => {
      const pairs = adjacentPairs(questionTerms, tokenize(passage.title, query.language)) + adjacentPairs(questionTerms, tokenize(passage.content, query.language));
      return {
        index,
        passage: {
          ...passage,
          score: round4(bm25f(passage.matched, hits.terms, average) * (1 + ADJACENT_PAIR_BONUS * pairs)),
          confidence: coverageConfidence(passage.matched, hits.terms),
          retrievers: ['text'] as RetrieverName[],
        },
      };
    })
    .sort((a, b) => b.passage.score - a.passage.score || a.index - b.index)
    .map(({ passage }) => passage);
}

const K1 = 1.2;
const B = 0.75;
/** The title's weight in the full-text score: a passage whose title holds the question's words is the likelier answer. */
const TITLE_FIELD_WEIGHT = 2;

/** Mean title and body lengths of the candidates (the knowledge base's own would need a scan of every passage). */
function averageLengths(matches: ReadonlyArray<TermMatch>): { title: number; body: number } {
  const sum = matches.reduce((total, match) => ({ title: total.title + match.length.title, body: total.body + match.length.body }), { title: 0, body: 0 });
  const n = Math.max(1, matches.length);
  return { title: Math.max(1, sum.title / n), body: Math.max(1, sum.body / n) };
}

/** BM25F (Robertson and Zaragoza's field-weighted BM25) of one passage for the query's terms. */
export function bm25f(match: TermMatch, terms: TermStatistics, average: { title: number; body: number }): number {
  let score = 0;
  for (const [term, count] of Object.entries(match.counts)) {
    const frequency = terms.frequencies[term];
    if (frequency === undefined) continue;
    const weighted =
      (TITLE_FIELD_WEIGHT * count.title) / (1 - B + (B * match.length.title) / average.title) +
      count.body / (1 - B + (B * match.length.body) / average.body);
    score += idf(frequency, terms.passages) * ((weighted * (K1 + 1)) / (weighted + K1));
  }
  return score;
}

/**
 * The statistics a product's confidence is read against: only the query's words some passage or product holds. A
 * shopper's "which tents do you **sell**" is about tents; a word no document or product uses ("sell", "buy") says
 * nothing about which product is meant, whereas for passages such a word is what shows the question is not covered.
 */
function knownTerms(hits: KnowledgeHits): TermStatistics {
  const inProducts = new Set(hits.products.flatMap((hit) => hit.matched.all));
  const frequencies = Object.fromEntries(Object.entries(hits.terms.frequencies).filter(([term, frequency]) => frequency > 0 || inProducts.has(term)));
  return { passages: hits.terms.passages, frequencies };
}

/** How many consecutive pairs of the question's terms also follow each other in `text`'s terms. */
export function adjacentPairs(question: readonly string[], text: readonly string[]): number {
  const pairs = new Set<string>();
  for (let i = 0; i + 1 < text.length; i++) pairs.add(`${text[i]} ${text[i + 1]}`);
  let found = 0;
  const seen = new Set<string>();
  for (let i = 0; i + 1 < question.length; i++) {
    const pair = `${question[i]} ${question[i + 1]}`;
    if (pairs.has(pair) && !seen.has(pair)) found += 1;
    seen.add(pair);
  }
  return found;
}

/** Inverse document frequency of a term held by `frequency` of `passages` passages (BM25's, always positive). */
function idf(frequency: number, passages: number): number {
  return Math.log(1 + (passages - frequency + 0.5) / (frequency + 0.5));
}

/**
 * Confidence that a hit answers the question, 0-1: the share of the question's information its title holds,
 * weighted {@link TITLE_WEIGHT}, plus the share the whole passage holds; each question term counts by its rarity
 * (idf), so "my" matters nothing and "quarantine" a lot. Measured on public FAQs (eval/README.md), a passage whose
 * title shares the question's rare words is the right one far more often than one that only mentions them.
 */
export function coverageConfidence(matched: Pick<TermMatch, 'title' | 'all'>, terms: TermStatistics): number {
  const weights = Object.entries(terms.frequencies)
    .filter(([term]) => countsForCoverage(term, terms.frequencies))
    .map(([term, frequency]) => [term, idf(frequency, terms.passages)] as const);
  const total = weights.reduce((sum, [, weight]) => sum + weight, 0);
  if (total <= 0) return 0;
  const share = (held: readonly string[]): number => {
    const set = new Set(held);
    return weights.reduce((sum, [term, weight]) => sum + (set.has(term) ? weight : 0), 0) / total;
  };
  return round4(TITLE_WEIGHT * share(matched.title) + (1 - TITLE_WEIGHT) * share(matched.all));
}

/**
 * Whether a query term weighs in the confidence. Not a word that carries no topic in our languages ("need", "done":
 * PostgreSQL's stopword list keeps them, the memory store's drops them), and not a hyphenated compound whose parts the
 * query also holds: PostgreSQL indexes "COVID-19" as `covid-19`, `covid` and `19`, and a title writing "COVID 19"
 * answers it as well.
 */
function countsForCoverage(term: string, frequencies: Readonly<Record<string, number>>): boolean {
  if (STOPWORDS.has(term)) return false;
  if (!term.includes('-')) return true;
  return !term.split('-').every((part) => part === '' || part in frequencies);
}

const round4 = (value: number): number => Math.round(value * 10_000) / 10_000;

/**
 * The best text candidates in the rerank provider's order, each scored by it; the candidates it was not shown follow
 * in text order. Null when the provider fails: the turn goes on with full text (a provider outage never fails a turn).
 * A passage the provider finds relevant is trusted as much as the provider says (its relevance score, 0-1) even when
 * it shares few words with the question: that is what a reranker is for.
 */
async function rerankPassages(options: RetrieverOptions, query: RetrievalQuery, passages: RetrievedPassage[]): Promise<RetrievedPassage[] | null> {
  const shown = passages.slice(0, RERANK_CANDIDATES);
  try {
    const results = await options.rerank!.rerank(
      query.text,
      shown.map((passage) => `${passage.title}\n\n${passage.content}`),
      query.signal === undefined ? {} : { signal: query.signal },
    );
    const order: RetrievedPassage[] = [];
    const used = new Set<number>();
    for (const { index, score } of [...results].sort((a, b) => b.score - a.score)) {
      const passage = shown[index];
      if (passage === undefined || used.has(index)) continue;
      used.add(index);
      order.push({ ...passage, score, confidence: Math.max(passage.confidence, round4(Math.min(1, Math.max(0, score)))), retrievers: [...passage.retrievers, 'rerank'] });
    }
    shown.forEach((passage, index) => {
      if (!used.has(index)) order.push({ ...passage, score: 0 });
    });
    return [...order, ...passages.slice(RERANK_CANDIDATES).map((passage) => ({ ...passage, score: 0 }))];
  } catch (error) {
    query.signal?.throwIfAborted();
    options.onProviderError?.('rerank', error);
    return null;
  }
}
