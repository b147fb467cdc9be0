import type { RerankProvider, RerankResult } from '@svc/core/store-kit';
import { z } from 'zod';
import { checkTimeout, reasonOfStatus, RetrievalProviderError, withDeadline } from './provider-error.js';
import type { CallLabel } from './provider-error.js';

export const RERANK_PROVIDERS = ['cohere', 'jina', 'compatible'] as const;
export type RerankProviderName = (typeof RERANK_PROVIDERS)[number];

/** A rerank provider's settings, as `readRerankConfig` reads them from `SVC_RERANK_*`. */
export interface RerankConfig {
  /** `cohere` (v2), `jina`, or `compatible`: any server speaking their `/rerank` format (vLLM, Infinity, llama.cpp). */
  provider: RerankProviderName;
  /** The provider's model id: `rerank-v3.5`, `jina-reranker-v2-base-multilingual`, `BAAI/bge-reranker-v2-m3`… */
  model: string;
  /** The API root: requests go to `{baseURL}/rerank`, e.g. `https://api.cohere.com/v2`, `https://api.jina.ai/v1`. */
  baseURL: string;
  /** Sent as `Authorization: Bearer`; optional for `compatible`. */
  apiKey: string | undefined;
}

/** What the provider says a call cost: Cohere bills search units, Jina and most servers count tokens. */
export interface RerankUsage {
  searchUnits?: number;
  tokens?: number;
}

export interface RerankProviderOptions {
  /**
   * Deadline of one `rerank` call. Default 10,000 ms: a rerank runs inside a turn, whose synchronous answer waits
   * about 25 s in all, and a turn is better served by the unreranked order than by a late one.
   */
  timeoutMs?: number;
  /** Called after each successful call with the usage the provider reported (for logs; credits are per call). */
  onUsage?: (usage: RerankUsage) => void;
}

const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * The Cohere/Jina `/rerank` answer. Extra fields (`id`, Jina's `document`, vLLM's `model`) are ignored; what is
 * read is checked, so a server speaking another format fails with its first mismatch named.
 */
const rerankResponseSchema = z.object({
  results: z.array(z.object({ index: z.number().int().nonnegative(), relevance_score: z.number() })),
  meta: z.object({ billed_units: z.object({ search_units: z.number().nullish() }).nullish() }).nullish(),
  usage: z.object({ total_tokens: z.number().nullish() }).nullish(),
});
type RerankResponse = z.infer<typeof rerankResponseSchema>;

/**
 * A {@link RerankProvider} over the `/rerank` API Cohere (v2) and Jina share: `POST {baseURL}/rerank` with
 * `{ model, query, documents, top_n }`, answered `{ results: [{ index, relevance_score }] }`. Every document gets a
 * score (`top_n` is the number of documents); results come back best first. No retries: a turn waits for it.
 *
 * @example
 * const rerank = createRerankProvider({ provider: 'cohere', model: 'rerank-v3.5', baseURL: 'https://api.cohere.com/v2', apiKey: key });
 * const ranked = await rerank.rerank('return policy', passages.map((p) => p.content), { signal });
 */
export function createRerankProvider(config: RerankConfig, options: RerankProviderOptions = {}): RerankProvider {
  if (config.provider !== 'compatible' && config.apiKey === undefined) {
    throw new Error(`${config.provider} rerank needs an API key (SVC_RERANK_API_KEY).`);
  }
  const timeoutMs = checkTimeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const who: CallLabel = { provider: config.provider, label: `${config.provider} rerank (${config.model})` };
  const url = `${config.baseURL.replace(/\/+$/, '')}/rerank`;

  return {
    model: `${config.provider}:${config.model}`,
    async rerank(query: string, documents: readonly string[], request: { signal?: AbortSignal }): Promise<RerankResult[]> {
      if (documents.length === 0) {
        request.signal?.throwIfAborted();
        return [];
      }
      const body = await withDeadline((signal) => post({ config, url, who, signal, body: requestBody(config, query, documents) }), {
        who,
        timeoutMs,
        signal: request.signal,
      });
      const response = parseResponse(body, { who, url, count: documents.length });
      options.onUsage?.(usageOf(response));
      return response.results
        .map((result) => ({ index: result.index, score: result.relevance_score }))
        .sort((a, b) => b.score - a.score);
    },
  };
}

function requestBody(config: RerankConfig, query: string, documents: readonly string[]): Record<string, unknown> {
  const body: Record<string, unknown> = { model: config.model, query, documents, top_n: documents.length };
  // Jina echoes every document back unless told not to; Cohere v2 never does and has no such field.
  if (config.provider === 'jina') body['return_documents'] = false;
  return body;
}

interface Post {
  config: RerankConfig;
  url: string;
  who: CallLabel;
  signal: AbortSignal;
  body: Record<string, unknown>;
}

/** The response body as JSON, or a {@link RetrievalProviderError} naming the status and the provider's message. */
async function post(call: Post): Promise<unknown> {
  const { config, url, who } = call;
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (config.apiKey !== undefined) headers['authorization'] = `Bearer ${config.apiKey}`;
  let response: Response;
  try {
    response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(call.body), signal: call.signal });
  } catch (error) {
    const detail = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
    throw new RetrievalProviderError('provider_error', `${who.label}: no HTTP answer from ${url}: ${detail}`, { provider: who.provider, cause: error });
  }
  const text = await response.text();
  if (!response.ok) {
    throw new RetrievalProviderError(reasonOfStatus(response.status), `${who.label}: HTTP ${response.status} from ${url}: ${errorMessage(text)}`, {
      provider: who.provider,
      statusCode: response.status,
    });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new RetrievalProviderError('malformed_response', `${who.label}: malformed response from ${url}: not JSON: ${excerpt(text)}`, {
      provider: who.provider,
      statusCode: response.status,
      cause: error,
    });
  }
}

/** Checks the body and that it scores each document once; `count` is the number of documents sent. */
function parseResponse(body: unknown, context: { who: CallLabel; url: string; count: number }): RerankResponse {
  const { who, url, count } = context;
  const malformed = (detail: string): RetrievalProviderError =>
    new RetrievalProviderError('malformed_response', `${who.label}: malformed response from ${url}: ${detail}`, { provider: who.provider, statusCode: 200 });
  const parsed = rerankResponseSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw malformed(issue === undefined ? 'unexpected shape' : `${issue.path.join('.') || 'body'}: ${issue.message}`);
  }
  const seen = new Set<number>();
  for (const result of parsed.data.results) {
    if (result.index >= count) throw malformed(`result index ${result.index} for ${count} documents`);
    if (seen.has(result.index)) throw malformed(`document ${result.index} scored twice`);
    seen.add(result.index);
  }
  if (seen.size !== count) throw malformed(`${seen.size} results for ${count} documents (top_n was ${count})`);
  return parsed.data;
}

function usageOf(response: RerankResponse): RerankUsage {
  const searchUnits = response.meta?.billed_units?.search_units ?? undefined;
  const tokens = response.usage?.total_tokens ?? undefined;
  return { ...(searchUnits === undefined ? {} : { searchUnits }), ...(tokens === undefined ? {} : { tokens }) };
}

/** The provider's own words: Cohere `{ message }`, Jina `{ detail }`, OpenAI-style `{ error: { message } }`. */
function errorMessage(text: string): string {
  try {
    const body = JSON.parse(text) as Record<string, unknown> | null;
    const error = body?.['error'];
    const candidates = [body?.['message'], body?.['detail'], typeof error === 'object' && error !== null ? (error as Record<string, unknown>)['message'] : error];
    const found = candidates.find((value): value is string => typeof value === 'string' && value !== '');
    if (found !== undefined) return found;
  } catch {
    // Not JSON: a proxy's HTML page or plain text, shown as it is.
  }
  return excerpt(text);
}

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat === '') return '(empty body)';
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
}
