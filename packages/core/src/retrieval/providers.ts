/**
 * The ports of the optional retrieval providers (DESIGN.md section 11): an embedding provider turns texts into
 * vectors, a rerank provider scores passages against a question. Core calls them through these shapes only; the
 * HTTP clients that speak a vendor's wire format live in `@svc/agents`.
 */

export interface EmbeddingRequestOptions {
  /** Aborted when the caller gives up (a turn's deadline, a job's shutdown). */
  signal?: AbortSignal;
  /** What the texts are: some models embed a question differently from a passage. */
  purpose: 'query' | 'passage';
}

export interface Embeddings {
  /** One vector per text, in the order given, each `dimensions` long. */
  vectors: Float32Array[];
  /** Input tokens the provider counted (0 when it reports none). */
  tokens: number;
}

export interface EmbeddingProvider {
  /**
   * Names the vector space, e.g. `openai:text-embedding-3-small:1536`: stored vectors made under another name are
   * stale and are computed again.
   */
  readonly model: string;
  readonly dimensions: number;
  /** At most this many texts per call; callers batch. */
  readonly maxBatch: number;
  embed(texts: readonly string[], options: EmbeddingRequestOptions): Promise<Embeddings>;
}

export interface RerankResult {
  /** Index into the documents given. */
  index: number;
  /** The provider's relevance score, higher is better (Cohere and Jina: 0..1). */
  score: number;
}

export interface RerankProvider {
  readonly model: string;
  /** Scores every document against the query; results best first. */
  rerank(query: string, documents: readonly string[], options: { signal?: AbortSignal }): Promise<RerankResult[]>;
}
