import type { EmbeddingProvider, RerankProvider } from '@svc/core/store-kit';
import { readHttpUrl, readVariable as read } from '../env.js';
import type { AiEnv } from '../env.js';
import { createEmbeddingProvider, EMBEDDING_PROVIDERS } from './embeddings.js';
import type { EmbeddingConfig, EmbeddingProviderName, EmbeddingProviderOptions } from './embeddings.js';
import { createRerankProvider, RERANK_PROVIDERS } from './rerank.js';
import type { RerankConfig, RerankProviderName, RerankProviderOptions } from './rerank.js';

/** Where OpenAI and the hosted rerankers answer, passed explicitly rather than left to an SDK's own variables. */
const OPENAI_BASE_URL = 'https://api.openai.com/v1';
const RERANK_BASE_URLS: Readonly<Record<Exclude<RerankProviderName, 'compatible'>, string>> = {
  cohere: 'https://api.cohere.com/v2',
  jina: 'https://api.jina.ai/v1',
};

/** Known lengths, so the common OpenAI setups need no `SVC_EMBEDDING_DIMENSIONS`. */
const OPENAI_DIMENSIONS: Readonly<Record<string, number>> = {
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'text-embedding-ada-002': 1536,
};

function oneOf<T extends string>(values: readonly T[], value: string): value is T {
  return (values as readonly string[]).includes(value);
}

/**
 * Reads and checks the `SVC_EMBEDDING_*` variables. Null when `SVC_EMBEDDING_PROVIDER` is unset (search is then
 * full text only); otherwise a complete configuration, or an Error naming the variable to fix.
 *
 * @example
 * readEmbeddingConfig({ SVC_EMBEDDING_PROVIDER: 'openai-compatible', SVC_EMBEDDING_BASE_URL: 'http://localhost:11434/v1',
 *   SVC_EMBEDDING_MODEL: 'nomic-embed-text', SVC_EMBEDDING_DIMENSIONS: '768' })
 */
export function readEmbeddingConfig(env: AiEnv): EmbeddingConfig | null {
  const provider = read(env, 'SVC_EMBEDDING_PROVIDER');
  if (provider === undefined) return null;
  if (!oneOf(EMBEDDING_PROVIDERS, provider)) {
    throw new Error(`SVC_EMBEDDING_PROVIDER must be one of ${EMBEDDING_PROVIDERS.join(', ')}; got ${JSON.stringify(provider)}.`);
  }
  const model = read(env, 'SVC_EMBEDDING_MODEL');
  if (model === undefined) {
    const example = provider === 'openai' ? 'text-embedding-3-small' : 'nomic-embed-text';
    throw new Error(`SVC_EMBEDDING_MODEL is required with SVC_EMBEDDING_PROVIDER=${provider} (e.g. ${example}).`);
  }
  const dimensions = readDimensions(env, { provider, model });
  const baseURL = readBaseURL(env, { variable: 'SVC_EMBEDDING_BASE_URL', provider, fallback: provider === 'openai' ? OPENAI_BASE_URL : undefined });
  if (provider === 'openai-compatible') {
    // No fallback to OPENAI_API_KEY here: that key must never be sent to a third-party server.
    return { provider, model, dimensions, baseURL, apiKey: read(env, 'SVC_EMBEDDING_API_KEY') };
  }
  const apiKey = read(env, 'SVC_EMBEDDING_API_KEY') ?? read(env, 'OPENAI_API_KEY');
  if (apiKey === undefined) throw new Error('SVC_EMBEDDING_API_KEY (or OPENAI_API_KEY) is required with SVC_EMBEDDING_PROVIDER=openai.');
  return { provider, model, dimensions, baseURL, apiKey };
}

function readDimensions(env: AiEnv, config: { provider: EmbeddingProviderName; model: string }): number {
  const value = read(env, 'SVC_EMBEDDING_DIMENSIONS');
  if (value === undefined) {
    const known = config.provider === 'openai' ? OPENAI_DIMENSIONS[config.model] : undefined;
    if (known !== undefined) return known;
    throw new Error(
      `SVC_EMBEDDING_DIMENSIONS is required with SVC_EMBEDDING_MODEL=${config.model}: the length of its vectors (e.g. 768 for nomic-embed-text).`,
    );
  }
  const dimensions = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(dimensions) || dimensions <= 0) {
    throw new Error(`SVC_EMBEDDING_DIMENSIONS must be a positive integer; got ${JSON.stringify(value)}.`);
  }
  // OpenAI shortens text-embedding-3 vectors on request, never lengthens them; ada-002 has one length.
  const native = config.provider === 'openai' ? OPENAI_DIMENSIONS[config.model] : undefined;
  if (native !== undefined && (dimensions > native || (config.model === 'text-embedding-ada-002' && dimensions !== native))) {
    const allowed = config.model === 'text-embedding-ada-002' ? `${native}` : `at most ${native}`;
    throw new Error(`SVC_EMBEDDING_DIMENSIONS must be ${allowed} for ${config.model}; got ${dimensions}.`);
  }
  return dimensions;
}

function readBaseURL(env: AiEnv, setting: { variable: string; provider: string; fallback: string | undefined }): string {
  const { variable, provider, fallback } = setting;
  const example = variable === 'SVC_EMBEDDING_BASE_URL' ? 'http://localhost:11434/v1' : 'http://localhost:8000/v1';
  const value = read(env, variable);
  if (value !== undefined) return readHttpUrl({ name: variable, value, example });
  if (fallback !== undefined) return fallback;
  const providerVariable = variable.replace(/_BASE_URL$/, '_PROVIDER');
  throw new Error(`${variable} is required with ${providerVariable}=${provider} (e.g. ${example}).`);
}

/**
 * The embedding provider the environment asks for, or null when `SVC_EMBEDDING_PROVIDER` is unset. Throws an
 * Error naming the variable when the configuration is incomplete or invalid: a server should refuse to start
 * rather than silently search without vectors.
 *
 * @example
 * const embeddings = embeddingProviderFromEnv(process.env); // null: full-text search only
 */
export function embeddingProviderFromEnv(env: AiEnv, options?: EmbeddingProviderOptions): EmbeddingProvider | null {
  const config = readEmbeddingConfig(env);
  return config === null ? null : createEmbeddingProvider(config, options);
}

/**
 * Reads and checks the `SVC_RERANK_*` variables. Null when `SVC_RERANK_PROVIDER` is unset (no reranking);
 * otherwise a complete configuration, or an Error naming the variable to fix.
 *
 * @example
 * readRerankConfig({ SVC_RERANK_PROVIDER: 'cohere', SVC_RERANK_MODEL: 'rerank-v3.5', SVC_RERANK_API_KEY: '…' })
 */
export function readRerankConfig(env: AiEnv): RerankConfig | null {
  const provider = read(env, 'SVC_RERANK_PROVIDER');
  if (provider === undefined) return null;
  if (!oneOf(RERANK_PROVIDERS, provider)) {
    throw new Error(`SVC_RERANK_PROVIDER must be one of ${RERANK_PROVIDERS.join(', ')}; got ${JSON.stringify(provider)}.`);
  }
  const model = read(env, 'SVC_RERANK_MODEL');
  if (model === undefined) {
    const example = provider === 'cohere' ? 'rerank-v3.5' : provider === 'jina' ? 'jina-reranker-v2-base-multilingual' : 'BAAI/bge-reranker-v2-m3';
    throw new Error(`SVC_RERANK_MODEL is required with SVC_RERANK_PROVIDER=${provider} (e.g. ${example}).`);
  }
  const baseURL = readBaseURL(env, {
    variable: 'SVC_RERANK_BASE_URL',
    provider,
    fallback: provider === 'compatible' ? undefined : RERANK_BASE_URLS[provider],
  });
  const apiKey = read(env, 'SVC_RERANK_API_KEY');
  if (apiKey === undefined && provider !== 'compatible') {
    throw new Error(`SVC_RERANK_API_KEY is required with SVC_RERANK_PROVIDER=${provider}.`);
  }
  return { provider, model, baseURL, apiKey };
}

/**
 * The rerank provider the environment asks for, or null when `SVC_RERANK_PROVIDER` is unset. Throws an Error
 * naming the variable when the configuration is incomplete or invalid.
 *
 * @example
 * const rerank = rerankProviderFromEnv(process.env, { onUsage: (usage) => logger.debug({ usage }, 'rerank') });
 */
export function rerankProviderFromEnv(env: AiEnv, options?: RerankProviderOptions): RerankProvider | null {
  const config = readRerankConfig(env);
  return config === null ? null : createRerankProvider(config, options);
}
