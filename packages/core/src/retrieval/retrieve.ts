import type { KnowledgeHits, KnowledgePassage, TermMatch, ProductHit, StoreOps, TermStatistics } from '../store/store.js';
import { tokenize } from '../store/text-ranking.js';
import { STOPWORDS } from '../text-terms.js';
import type { EmbeddingProvider, RerankProvider } from './providers.js';
import { createVectorIndex, type NearestPassage, type VectorIndex } from './vector-index.js';

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

export type RetrieverStore = Pick<StoreOps, 'searchKnowledge' | 'vectorVersions' | 'listPassageVectors' | 'getPassages'>;

export interface RetrieverOptions {
  /** Full text only needs `searchKnowledge`; with `embeddings` the vector operations are read too. */
  store: Pick<StoreOps, 'searchKnowledge'> & Partial<RetrieverStore>;
  /**
   * Optional: the question is embedded and the passages nearest to it (their vectors computed by the embedding job)
   * are fused with the full-text candidates by reciprocal rank.
   */
  embeddings?: EmbeddingProvider | undefined;
  /** How long the question's embedding may take before the search goes on with full text alone. Default 3,000 ms. */
  embeddingTimeoutMs?: number;
  /** Optional: reorders the best candidates (the Cohere/Jina-style `/rerank` API). */
  rerank?: RerankProvider | undefined;
  /** Told when an optional provider fails; retrieval then goes on without it (full text alone, or unreranked). */
  onProviderError?: ((provider: 'embedding' | 'rerank', error: unknown) => void) | undefined;
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
/** Nearest passages read from the vector index: as many as text candidates, so either retriever can fill the list. */
export const VECTOR_CANDIDATES = 30;
/** Reciprocal rank fusion's constant (Cormack, Clarke and Büttcher 2009): a passage at rank r adds 1 / (k + r). */
export const RRF_K = 60;
/** Each pair of the question's words found next to each other in a passage adds this share to its text rank. */
const ADJACENT_PAIR_BONUS = 0.1;
/** Weight of the title in the confidence; the rest is the whole passage. DESIGN.md section 11 says why the title leads. */
const TITLE_WEIGHT = 0.75;

const zeroMeters = (): RetrievalMeters => ({ retrievals: 0, embeddings: 0, reranks: 0 });

/**
 * The one retrieval. Full text always; with `embeddings`, vector similarity too, the two lists fused by reciprocal
 * rank; with `rerank`, the best fused candidates reordered. An optional provider's failure is reported to
 * `onProviderError` and costs only its part: a search or a turn never fails because of one.
 *
 * @example
 * const retriever = createRetriever({ store, embeddings, onProviderError: (provider, error) => log.warn({ provider, error }) });
 * const { passages, confidence } = await retriever.retrieve({ knowledgeBaseIds: ['kb_…'], text: 'Can I send it back?', limit: 5 });
 */
export function createRetriever(options: RetrieverOptions): KnowledgeRetriever {
  const vectors = options.embeddings === undefined ? null : vectorSearch(options, options.embeddings);
  return {
    async retrieve(query) {
      if (query.knowledgeBaseIds.length === 0 || query.limit <= 0) return { passages: [], products: [], confidence: 0, meters: zeroMeters() };
      const [hits, nearest] = await Promise.all([
        options.store.searchKnowledge({
          knowledgeBaseIds: query.knowledgeBaseIds,
          text: query.text,
          ...(query.language === undefined ? {} : { language: query.language }),
          limit: Math.max(query.limit, TEXT_CANDIDATES),
        }),
        vectors === null ? null : vectors.nearest(query),
      ]);
      query.signal?.throwIfAborted();
      const meters = { ...zeroMeters(), retrievals: 1, embeddings: nearest === null ? 0 : 1 };
      let passages = textOrder(query, hits);
      if (nearest !== null && vectors !== null) passages = await fuse(passages, { nearest, read: vectors.read });
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

interface VectorSearch {
  /** The passages nearest to the question, or null when it could not be embedded (reported; full text goes on). */
  nearest(query: RetrievalQuery): Promise<NearestPassage[] | null>;
  read: RetrieverStore['getPassages'];
}

function vectorSearch(options: RetrieverOptions, embeddings: EmbeddingProvider): VectorSearch {
  const { store } = options;
  if (store.vectorVersions === undefined || store.listPassageVectors === undefined || store.getPassages === undefined) {
    throw new TypeError('createRetriever: vector retrieval (the `embeddings` option) needs a store with the vector operations');
  }
  const index: VectorIndex = createVectorIndex({ store: store as RetrieverStore, model: embeddings.model, dimensions: embeddings.dimensions });
  const timeoutMs = options.embeddingTimeoutMs ?? 3_000;
  return {
    read: (keys) => store.getPassages!(keys),
    async nearest(query) {
      let vector: Float32Array | undefined;
      try {
        const deadline = AbortSignal.timeout(timeoutMs);
        const signal = query.signal === undefined ? deadline : AbortSignal.any([query.signal, deadline]);
        vector = (await embeddings.embed([query.text], { purpose: 'query', signal })).vectors[0];
        if (vector === undefined) throw new Error(`${embeddings.model}: no vector for the question`);
      } catch (error) {
        query.signal?.throwIfAborted();
        options.onProviderError?.('embedding', error);
        return null;
      }
      return index.nearest({ knowledgeBaseIds: query.knowledgeBaseIds, vector, limit: VECTOR_CANDIDATES });
    },
  };
}

const passageKey = (passage: { knowledgeBaseId: string; documentId: string; position: number }): string =>
  `${passage.knowledgeBaseId}\u0000${passage.documentId}\u0000${passage.position}`;

/**
 * Reciprocal rank fusion of the text order and the vector order: each list a passage is in adds 1 / (RRF_K + rank),
 * ties in text order first. A passage both found keeps its text fields and lexical confidence; one only vector search
 * found is read from the store and has confidence 0 (DESIGN.md section 11, "As built": cosine similarity is not a
 * calibrated probability of answering, so it alone never lets the agent answer; it shows as a suggestion, and a
 * rerank provider's relevance may still raise it). A vector-only passage scores at most 1 / (RRF_K + 1), which the
 * first text passage always reaches, so whenever full text found anything the first passage is one it found.
 */
async function fuse(textPassages: RetrievedPassage[], vectors: { nearest: NearestPassage[]; read: VectorSearch['read'] }): Promise<RetrievedPassage[]> {
  const fused = new Map<string, { passage: RetrievedPassage; score: number; textRank: number; vectorRank: number }>();
  textPassages.forEach((passage, index) => {
    fused.set(passageKey(passage), { passage, score: 1 / (RRF_K + index + 1), textRank: index, vectorRank: Number.POSITIVE_INFINITY });
  });
  const missing: NearestPassage[] = [];
  vectors.nearest.forEach((near, index) => {
    const entry = fused.get(passageKey(near));
    if (entry === undefined) {
      missing.push(near);
      return;
    }
    entry.score += 1 / (RRF_K + index + 1);
    entry.vectorRank = index;
    entry.passage = { ...entry.passage, retrievers: [...entry.passage.retrievers, 'vector'] };
  });
  const read = await vectors.read(missing);
  const rankOf = new Map(vectors.nearest.map((near, index) => [passageKey(near), index]));
  for (const stored of read) {
    const index = rankOf.get(passageKey(stored))!;
    const passage: RetrievedPassage = {
      ...stored,
      rank: 0,
      matched: { title: [], all: [], counts: {}, length: { title: 0, body: 0 } },
      score: 0,
      confidence: 0,
      retrievers: ['vector'],
    };
    fused.set(passageKey(stored), { passage, score: 1 / (RRF_K + index + 1), textRank: Number.POSITIVE_INFINITY, vectorRank: index });
  }
  return [...fused.values()]
    .sort((a, b) => b.score - a.score || a.textRank - b.textRank || a.vectorRank - b.vectorRank)
    .map(({ passage, score }) => ({ ...passage, score: Math.round(score * 1e6) / 1e6 }));
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
