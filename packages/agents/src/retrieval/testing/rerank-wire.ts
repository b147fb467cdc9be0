/**
 * The `/rerank` wire formats: Cohere v2 (https://docs.cohere.com/reference/rerank) and Jina
 * (https://jina.ai/reranker), which servers such as vLLM and llama.cpp also speak. Both answer results best first.
 */

export interface RerankRequest {
  model: string;
  query: string;
  documents: string[];
  top_n?: number;
  return_documents?: boolean;
}

/** `[index, relevance_score]` pairs, in the order the provider lists them. */
export type Scores = ReadonlyArray<readonly [number, number]>;

/** Cohere v2: `id`, `results`, and `meta` with the API version and the billed search units. */
export function cohereRerank(scores: Scores, options: { searchUnits: number } = { searchUnits: 1 }) {
  return {
    id: '07734bd2-2473-4f07-94e1-0d9f0e6843cf',
    results: scores.map(([index, score]) => ({ index, relevance_score: score })),
    meta: { api_version: { version: '2', is_experimental: false }, billed_units: { search_units: options.searchUnits } },
  };
}

/** Jina: `model`, `usage.total_tokens`, and each result's `document` unless `return_documents: false`. */
export function jinaRerank(request: RerankRequest, scores: Scores, options: { tokens: number } = { tokens: 120 }) {
  return {
    model: request.model,
    usage: { total_tokens: options.tokens },
    results: scores.map(([index, score]) => ({
      index,
      ...(request.return_documents === false ? {} : { document: { text: request.documents[index] } }),
      relevance_score: score,
    })),
  };
}

/** vLLM's `/v1/rerank` (Jina-compatible): an `id`, the model, token usage, documents echoed back. */
export function vllmRerank(request: RerankRequest, scores: Scores) {
  return {
    id: 'rerank-5b4a8c1f0e2d4c6a',
    model: request.model,
    usage: { total_tokens: 310 },
    results: scores.map(([index, score]) => ({ index, document: { text: request.documents[index] }, relevance_score: score })),
  };
}

/** Cohere's error body: one `message` (v2 adds an `id`). */
export function cohereError(message: string) {
  return { id: 'b5b3f2a4-1c2d-4e5f-8a9b-0c1d2e3f4a5b', message };
}

/** Jina's error body: FastAPI's `detail`. */
export function jinaError(detail: string) {
  return { detail };
}
