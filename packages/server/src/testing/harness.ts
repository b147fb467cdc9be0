import { DEMO_KNOWLEDGE, createLocalAgent } from '@svc/agents';
import { createMemoryStore, createRetriever, type Agent, type Clock, type EmbeddingProvider, type RerankProvider, type Scope, type Store } from '@svc/core';
import { createLogger } from '../logger.js';
import { createRuntime, type Runtime } from '../runtime.js';
import { operatorAdmin } from '../cli/operator-admin.js';

export interface HarnessOptions {
  store?: Store;
  agent?: Agent;
  clock?: Clock;
  syncTimeoutMs?: number;
  agentTimeoutMs?: number;
  credits?: number;
  sessionTtlSeconds?: number;
  config?: { allowPrivateCallbacks?: boolean };
  /** An embedding provider for the retrieval and the workers; its failures go to `onProviderError`. */
  embeddings?: EmbeddingProvider;
  /** A rerank provider for the retrieval; its failures go to `onProviderError` too. */
  rerank?: RerankProvider;
  onProviderError?: (provider: 'embedding' | 'rerank', error: unknown) => void;
}

export interface JsonResponse {
  status: number;
  headers: Headers;
  // Tests read arbitrary response fields; the schemas pin their types elsewhere.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export interface RequestOptions {
  key?: string | null;
  headers?: Record<string, string>;
  /** Sent as is, without JSON encoding or a content type. */
  raw?: string;
}

/**
 * An in-process service on a real store: an account with credits, a widget on the demo knowledge base, and a
 * server key with `conversations:chat`. Requests go through the real HTTP app as web-standard Requests.
 */
export async function createHarness(options: HarnessOptions = {}) {
  const store = options.store ?? createMemoryStore();
  const retriever =
    options.embeddings || options.rerank
      ? createRetriever({ store, embeddings: options.embeddings, rerank: options.rerank, onProviderError: options.onProviderError })
      : undefined;
  const runtime: Runtime = await createRuntime({
    config: {
      cursorSecret: 'test-cursor-secret-0123456789abcdef',
      syncTimeoutMs: options.syncTimeoutMs ?? 25_000,
      agentTimeoutMs: options.agentTimeoutMs ?? 120_000,
      allowPrivateCallbacks: options.config?.allowPrivateCallbacks ?? false,
    },
    store,
    logger: createLogger('silent'),
    agent: options.agent ?? createLocalAgent({ knowledge: retriever ?? store }),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(retriever ? { retriever } : {}),
    ...(options.embeddings ? { embeddings: options.embeddings } : {}),
  });
  // The account, widget and keys exist before the test's clock starts: they are made at the system's time.
  const admin = operatorAdmin(store, { allowPrivateCallbacks: options.config?.allowPrivateCallbacks ?? false });
  const account = await admin.createAccount({ name: 'Acme', credits: options.credits ?? 1000 });
  const { knowledgeBase } = await admin.importKnowledgeBase({ accountId: account.id, content: DEMO_KNOWLEDGE });
  const widget = await admin.createWidget({
    accountId: account.id,
    name: 'Acme Assistant',
    knowledgeBaseIds: [knowledgeBase.id],
    ...(options.sessionTtlSeconds ? { sessionTtlSeconds: options.sessionTtlSeconds } : {}),
  });

  const newKey = async (scopes: Scope[], accountId = account.id): Promise<string> =>
    (await admin.createApiKey({ accountId, scopes })).key;
  const key = await newKey(['conversations:chat']);

  async function request(method: string, path: string, body?: unknown, opts: RequestOptions = {}): Promise<JsonResponse> {
    const headers: Record<string, string> = { ...opts.headers };
    const useKey = opts.key === undefined ? key : opts.key;
    if (useKey !== null) headers['X-API-Key'] = useKey;
    let payload: string | undefined = opts.raw;
    if (body !== undefined) {
      payload = JSON.stringify(body);
      headers['Content-Type'] ??= 'application/json';
    }
    const res = await runtime.app.request(path, { method, headers, ...(payload === undefined ? {} : { body: payload }) });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Non-JSON bodies stay text; tests assert on them as such.
    }
    return { status: res.status, headers: res.headers, body: parsed };
  }

  const base = `/widgets/${widget.id}/conversations`;
  return {
    store,
    runtime,
    /** The operator operations on this store, with this harness's callback policy. */
    admin,
    account,
    widget,
    knowledgeBase,
    key,
    newKey,
    request,
    base,
    post: (path: string, body?: unknown, opts?: RequestOptions) => request('POST', path, body, opts),
    get: (path: string, opts?: RequestOptions) => request('GET', path, undefined, opts),
    /** Creates a session and returns its id. */
    async session(body: Record<string, unknown> = { visitorId: 'visitor-1' }): Promise<string> {
      const res = await request('POST', base, body);
      if (res.status !== 201) throw new Error(`session create failed: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.data.sessionId as string;
    },
  };
}

export type Harness = Awaited<ReturnType<typeof createHarness>>;
