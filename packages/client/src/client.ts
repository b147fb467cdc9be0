import { createDocumentsResource, type DocumentsResource } from './resources/documents.js';
import { createFormsResource, type FormsResource } from './resources/forms.js';
import { createKnowledgeResource, type KnowledgeResource } from './resources/knowledge.js';
import { createKnowledgeBasesResource, type KnowledgeBasesResource } from './resources/knowledge-bases.js';
import { createMessagesResource, type MessagesResource } from './resources/messages.js';
import { createProductsResource, type ProductsResource } from './resources/products.js';
import { createSessionsResource, type SessionsResource } from './resources/sessions.js';
import { createSourcesResource, type SourcesResource } from './resources/sources.js';
import { resolveRetry, type RetryOptions } from './retry.js';
import { createFormStreams, createMessageStreams, createStreamStarter, type FormStreams, type MessageStreams } from './stream.js';
import { createTransport } from './transport.js';

/** Longer than the server's 25 s sync wait, so a slow turn comes back as a 202 rather than a timeout. */
export const DEFAULT_TIMEOUT_MS = 30_000;

export interface ClientOptions {
  /** Where the API is served, e.g. `https://chat.example.com` or `http://127.0.0.1:3000/chat-api`. */
  baseUrl: string;
  /** A server key (`sk_live_…`), sent as `X-API-Key`. Keep it on servers: never ship it to a browser. */
  apiKey: string;
  /** A fetch implementation; default `globalThis.fetch`. */
  fetch?: typeof globalThis.fetch;
  /** Per-attempt time limit in milliseconds. Default 30,000. */
  timeoutMs?: number;
  /** Retry policy, or `false` for none. Default: 2 retries of safe requests, see {@link RetryOptions}. */
  retry?: RetryOptions | false;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
}

/** One method per endpoint of spec section 4 and of the knowledge-base API, grouped by resource. */
export interface SvcClient {
  sessions: SessionsResource;
  messages: MessagesResource & MessageStreams;
  forms: FormsResource & FormStreams;
  knowledgeBases: KnowledgeBasesResource;
  products: ProductsResource;
  documents: DocumentsResource;
  knowledge: KnowledgeResource;
  sources: SourcesResource;
}

/**
 * Creates a typed client for the Svc Conversations API. Methods resolve to `{ status, data, meta, requestId }`
 * (plus `pagination` for lists) and reject with a {@link SvcApiError}.
 *
 * @example
 * const client = createClient({ baseUrl: 'http://127.0.0.1:3000', apiKey: process.env.SVC_API_KEY! });
 * const { data: session } = await client.sessions.create('wgt_123', { visitorId: 'visitor-42' });
 * const reply = await client.messages.send('wgt_123', session.sessionId, { content: 'Hello!' });
 * if (reply.status === 200) console.log(reply.data.content);
 */
export function createClient(options: ClientOptions): SvcClient {
  if (!options.baseUrl || !options.apiKey) throw new TypeError('createClient needs a baseUrl and an apiKey');
  const transport = createTransport({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    fetch: options.fetch,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    retry: resolveRetry(options.retry),
    headers: options.headers ?? {},
  });
  const startStream = createStreamStarter({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    fetch: options.fetch,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    headers: options.headers ?? {},
  });
  return {
    sessions: createSessionsResource(transport, { baseUrl: options.baseUrl, apiKey: options.apiKey, fetch: options.fetch, headers: options.headers ?? {} }),
    messages: { ...createMessagesResource(transport), ...createMessageStreams(startStream) },
    forms: { ...createFormsResource(transport), ...createFormStreams(startStream) },
    knowledgeBases: createKnowledgeBasesResource(transport),
    products: createProductsResource(transport),
    documents: createDocumentsResource(transport),
    knowledge: createKnowledgeResource(transport),
    sources: createSourcesResource(transport),
  };
}
