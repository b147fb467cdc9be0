import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { EmbeddingProvider, EmbeddingRequestOptions, Embeddings } from '@svc/core/store-kit';
import { embedMany } from 'ai';
import type { EmbeddingModel } from 'ai';
import { checkTimeout, fromSdkError, RetrievalProviderError, withDeadline } from './provider-error.js';
import type { CallLabel } from './provider-error.js';

export const EMBEDDING_PROVIDERS = ['openai', 'openai-compatible'] as const;
export type EmbeddingProviderName = (typeof EMBEDDING_PROVIDERS)[number];

/** An embedding provider's settings, as `readEmbeddingConfig` reads them from `SVC_EMBEDDING_*`. */
export interface EmbeddingConfig {
  provider: EmbeddingProviderName;
  /** The provider's model id: `text-embedding-3-small`, `nomic-embed-text`, `BAAI/bge-m3`… */
  model: string;
  /** The length of every vector; a response with another length is an error, never truncated or padded. */
  dimensions: number;
  /** The API root, up to and including `/v1`: requests go to `{baseURL}/embeddings`. */
  baseURL: string;
  /** Sent as `Authorization: Bearer`; required for `openai`, optional for `openai-compatible`. */
  apiKey: string | undefined;
}

export interface EmbeddingProviderOptions {
  /** Deadline of one `embed` call, retries and batches included. Default 30,000 ms. */
  timeoutMs?: number;
  /** Retries of a request that failed with 408, 409, 429 or 5xx, honouring `Retry-After`. Default 2. */
  maxRetries?: number;
  /**
   * Texts per request, the provider's `maxBatch`. Default 256 for OpenAI (256 passages of 512 tokens stay under its
   * 300,000 input tokens per request) and 32 for OpenAI-compatible servers (TEI's default `--max-client-batch-size`).
   */
  maxBatch?: number;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_BATCH: Readonly<Record<EmbeddingProviderName, number>> = { openai: 256, 'openai-compatible': 32 };

/**
 * An {@link EmbeddingProvider} on the AI SDK: OpenAI's `/embeddings` or any OpenAI-compatible one (Ollama, vLLM,
 * TEI, LiteLLM…). Its `model` is `provider:model:dimensions`, e.g. `openai:text-embedding-3-small:1536`.
 *
 * `dimensions` is sent to models that accept it (OpenAI's text-embedding-3 family, also behind a compatible
 * gateway); other models must produce vectors of that length by themselves. `purpose` is not sent: these APIs
 * embed a question and a passage alike.
 *
 * @example
 * const embeddings = createEmbeddingProvider({
 *   provider: 'openai-compatible', model: 'nomic-embed-text', dimensions: 768, baseURL: 'http://localhost:11434/v1', apiKey: undefined,
 * });
 * const { vectors } = await embeddings.embed(['How long does shipping take?'], { purpose: 'query' });
 */
export function createEmbeddingProvider(config: EmbeddingConfig, options: EmbeddingProviderOptions = {}): EmbeddingProvider {
  if (!Number.isInteger(config.dimensions) || config.dimensions <= 0) {
    throw new RangeError(`dimensions must be a positive integer; got ${config.dimensions}`);
  }
  if (config.provider === 'openai' && config.apiKey === undefined) {
    throw new Error('OpenAI embeddings need an API key (SVC_EMBEDDING_API_KEY or OPENAI_API_KEY).');
  }
  const settings = {
    timeoutMs: checkTimeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    maxRetries: options.maxRetries ?? 2,
    maxBatch: options.maxBatch ?? DEFAULT_MAX_BATCH[config.provider],
  };
  if (!Number.isInteger(settings.maxRetries) || settings.maxRetries < 0) throw new RangeError('maxRetries must be an integer ≥ 0');
  if (!Number.isInteger(settings.maxBatch) || settings.maxBatch <= 0) throw new RangeError('maxBatch must be a positive integer');
  const who: CallLabel = { provider: config.provider, label: `${config.provider} embeddings (${config.model})` };

  return {
    model: `${config.provider}:${config.model}:${config.dimensions}`,
    dimensions: config.dimensions,
    maxBatch: settings.maxBatch,
    async embed(texts: readonly string[], request: EmbeddingRequestOptions): Promise<Embeddings> {
      if (texts.length === 0) {
        request.signal?.throwIfAborted();
        return { vectors: [], tokens: 0 };
      }
      const trace: AttemptTrace = { last: undefined };
      return withDeadline((signal) => embedInBatches({ config, settings, who, texts, model: sdkModel(config, trace), signal }), {
        who,
        timeoutMs: settings.timeoutMs,
        signal: request.signal,
        progress: () => trace.last,
      });
    },
  };
}

interface EmbedCall {
  config: EmbeddingConfig;
  settings: { maxRetries: number; maxBatch: number };
  who: CallLabel;
  texts: readonly string[];
  model: EmbeddingModel;
  signal: AbortSignal;
}

/** One request per `maxBatch` texts, one after the other: a batch is what a rate limit is counted against. */
async function embedInBatches(call: EmbedCall): Promise<Embeddings> {
  const { config, settings, texts } = call;
  const vectors: Float32Array[] = [];
  let tokens = 0;
  for (let start = 0; start < texts.length; start += settings.maxBatch) {
    const batch = texts.slice(start, start + settings.maxBatch);
    const result = await embedMany({
      model: call.model,
      values: batch,
      maxRetries: settings.maxRetries,
      abortSignal: call.signal,
      providerOptions: dimensionsOption(config),
    }).catch((error: unknown) => {
      throw fromSdkError(error, call.who);
    });
    vectors.push(...checkVectors(result.embeddings, { config, who: call.who, start, count: batch.length }));
    // The SDK counts NaN for a response without `usage` (some compatible servers): the port's 0 means "not reported".
    if (Number.isFinite(result.usage.tokens)) tokens += result.usage.tokens;
  }
  return { vectors, tokens };
}

/** Every vector must be `dimensions` long: vectors of two lengths in one store cannot be compared. */
function checkVectors(
  embeddings: readonly (readonly number[])[],
  batch: { config: EmbeddingConfig; who: CallLabel; start: number; count: number },
): Float32Array[] {
  const { config, who } = batch;
  if (embeddings.length !== batch.count) {
    throw new RetrievalProviderError('malformed_response', `${who.label}: ${embeddings.length} vectors for ${batch.count} texts`, {
      provider: who.provider,
    });
  }
  return embeddings.map((embedding, offset) => {
    if (embedding.length !== config.dimensions) {
      throw new RetrievalProviderError(
        'wrong_dimensions',
        `${who.label}: the vector of text ${batch.start + offset} has ${embedding.length} dimensions, not the ${config.dimensions} configured ` +
          `(SVC_EMBEDDING_DIMENSIONS must be the length the model returns)`,
        { provider: who.provider },
      );
    }
    return Float32Array.from(embedding);
  });
}

/**
 * `dimensions` for the models that take it. OpenAI: every model but `text-embedding-ada-002`, which rejects it.
 * Elsewhere only OpenAI's own text-embedding-3 models behind a gateway: vLLM refuses it for a model without
 * Matryoshka training, and a server that ignores it is caught by the length check anyway.
 */
function dimensionsOption(config: EmbeddingConfig): Record<string, { dimensions: number }> | undefined {
  if (config.provider === 'openai') return config.model === 'text-embedding-ada-002' ? undefined : { openai: { dimensions: config.dimensions } };
  return /(^|\/)text-embedding-3-/.test(config.model) ? { openaiCompatible: { dimensions: config.dimensions } } : undefined;
}

/** The last HTTP answer or network failure of a call, so a deadline's message says what the retries were up against. */
interface AttemptTrace {
  last: string | undefined;
}

function tracingFetch(trace: AttemptTrace): typeof fetch {
  return async (input, init) => {
    try {
      const response = await fetch(input, init);
      trace.last = `last answer: HTTP ${response.status}`;
      return response;
    } catch (error) {
      if (!init?.signal?.aborted) trace.last = `last attempt: ${error instanceof Error ? error.message : String(error)}`;
      throw error;
    }
  };
}

/**
 * The AI SDK model, made per call so its fetch can trace that call's attempts. The base URL and key are always
 * passed: left unset, `@ai-sdk/openai` would read `OPENAI_BASE_URL` and `OPENAI_API_KEY` behind the configuration's
 * back.
 */
function sdkModel(config: EmbeddingConfig, trace: AttemptTrace): EmbeddingModel {
  const fetch = tracingFetch(trace);
  if (config.provider === 'openai') {
    return createOpenAI({ apiKey: config.apiKey, baseURL: config.baseURL, fetch }).embedding(config.model);
  }
  return createOpenAICompatible({
    name: 'openai-compatible',
    baseURL: config.baseURL,
    fetch,
    ...(config.apiKey === undefined ? {} : { apiKey: config.apiKey }),
  }).embeddingModel(config.model);
}
