/**
 * `@svc/agents/testing`: what tests of code that calls providers run against: a real HTTP server on loopback and the
 * providers' wire formats, so the providers' own clients run unchanged. Runs inside the caller's vitest.
 */
export { useLoopbackServer } from '../retrieval/testing/loopback.js';
export type { Answer, Handler, LoopbackServer, ReceivedRequest } from '../retrieval/testing/loopback.js';
export { openAIEmbeddings, vectorOf } from '../retrieval/testing/embeddings-wire.js';
export type { EmbeddingsRequest } from '../retrieval/testing/embeddings-wire.js';
export { cohereRerank } from '../retrieval/testing/rerank-wire.js';
export type { RerankRequest } from '../retrieval/testing/rerank-wire.js';
