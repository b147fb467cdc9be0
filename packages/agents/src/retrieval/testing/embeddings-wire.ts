/**
 * The `/embeddings` wire format (https://platform.openai.com/docs/api-reference/embeddings/create) as api.openai.com
 * answers it, and the variants OpenAI-compatible servers answer (Ollama, vLLM, TEI): the same `data` and `usage`
 * with fewer or extra fields.
 */

export interface EmbeddingsRequest {
  model: string;
  input: string[];
  encoding_format?: 'float' | 'base64';
  dimensions?: number;
  user?: string;
}

/** A deterministic vector per text, so a test can tell which vector belongs to which text. */
export function vectorOf(text: string, dimensions: number): number[] {
  let seed = 0;
  for (const char of text) seed = (seed * 31 + char.codePointAt(0)!) % 1_000_003;
  return Array.from({ length: dimensions }, (_, i) => Math.round(Math.sin(seed + i * 7.3) * 1e6) / 1e6);
}

/** api.openai.com: `object`, `index` on each item, `model` with its real name, `usage` with both counts. */
export function openAIEmbeddings(request: EmbeddingsRequest, options: { dimensions: number; promptTokens: number }) {
  return {
    object: 'list',
    data: request.input.map((text, index) => ({ object: 'embedding', index, embedding: vectorOf(text, options.dimensions) })),
    model: request.model,
    usage: { prompt_tokens: options.promptTokens, total_tokens: options.promptTokens },
  };
}

/** Ollama's `/v1/embeddings`. */
export function ollamaEmbeddings(request: EmbeddingsRequest, options: { dimensions: number; promptTokens: number }) {
  return {
    object: 'list',
    data: request.input.map((text, index) => ({ object: 'embedding', embedding: vectorOf(text, options.dimensions), index })),
    model: request.model,
    usage: { prompt_tokens: options.promptTokens, total_tokens: options.promptTokens },
  };
}

/** vLLM's `/v1/embeddings`: an `id`, `created`, and usage details it leaves null. */
export function vllmEmbeddings(request: EmbeddingsRequest, options: { dimensions: number; promptTokens: number }) {
  return {
    id: 'embd-9b1d0a4c2e8f4f7e9c3a5b6d7e8f9a0b',
    object: 'list',
    created: 1_767_225_600,
    model: request.model,
    data: request.input.map((text, index) => ({ index, object: 'embedding', embedding: vectorOf(text, options.dimensions) })),
    usage: { prompt_tokens: options.promptTokens, total_tokens: options.promptTokens, completion_tokens: 0, prompt_tokens_details: null },
  };
}

/** A server that reports no usage at all (older TEI and llama.cpp builds). */
export function embeddingsWithoutUsage(request: EmbeddingsRequest, options: { dimensions: number }) {
  return {
    object: 'list',
    data: request.input.map((text, index) => ({ object: 'embedding', index, embedding: vectorOf(text, options.dimensions) })),
    model: request.model,
  };
}
