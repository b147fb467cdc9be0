import type { Agent } from '../agent.js';
import { systemClock, type Clock } from '../clock.js';
import { DEFAULT_PRICING, type Pricing } from '../credits.js';
import { createCursorCodec } from '../cursor.js';
import type { Principal } from '../domain.js';
import { defaultIds, type Ids } from '../ids.js';
import { createRetriever, type KnowledgeRetriever } from '../retrieval/retrieve.js';
import type { Store } from '../store/store.js';
import type { EmbeddingProvider } from '../retrieval/providers.js';
import type { EngineLogger, EngineResult, PageResult, ReplyFormatter } from './context.js';
import type { EngineContext } from '../context.js';
import { listMessages, listProducts, type ListQueryInput } from './lists.js';
import { sendMessage, submitForm, type TurnCallOptions, type TurnResult } from './messages.js';
import { createSession, endSession, getSession, openChat, rateSession, type ChatRef } from './sessions.js';
import { messageFeedback, type MessageTarget } from './feedback.js';
import type { TurnObserver } from './observer.js';
import { createTurnRunner, type TurnRunner } from './turns/runner.js';
import { expireDueSessions } from './lifecycle.js';
import type { CreatedSession, EndedSession, RatedSession, SessionView } from '../schemas/session.js';
import type { HistoryItem, MessageFeedbackReply } from '../schemas/message.js';
import type { ProductInput } from '../schemas/product.js';
import type { Deleted, DocumentView, KnowledgeBaseDetail, KnowledgeBaseView, KnowledgeSearchResult, UpsertedProducts } from '../schemas/knowledge.js';
import * as knowledge from './knowledge.js';
import * as sources from './sources.js';
import type { SourceDetail, SourceView } from '../schemas/sources.js';
import type { SiteReader, UploadedFile } from '../sources/site-reader.js';
import { openSessionEvents, type SessionEventFeed } from './session-events.js';
import { getWidgetConfig } from './widget-config.js';
import type { WidgetConfig } from '../schemas/widget.js';

export interface EngineOptions {
  store: Store;
  agent: Agent;
  /** Default: full-text retrieval over `store`. Give the agent the same one, so both read knowledge alike. */
  retriever?: KnowledgeRetriever;
  /**
   * The embedding provider (DESIGN.md section 11): `work.embedPassages` computes passage vectors with it and
   * knowledge bases show their progress. Give the retriever the same one, so the vectors it reads are its model's.
   */
  embeddings?: EmbeddingProvider;
  /**
   * How website sources are read (DESIGN.md section 11 "Sources"): core knows no network. Without one, website
   * sources are refused (400) and the sync job does nothing.
   */
  reader?: SiteReader;
  /** Key for pagination cursors; at least 16 characters, the same on every instance sharing the store. */
  cursorSecret: string;
  clock?: Clock;
  ids?: Ids;
  pricing?: Partial<Pricing>;
  /** Default 25,000 ms (spec 8). */
  syncTimeoutMs?: number;
  /** Default 120,000 ms. */
  agentTimeoutMs?: number;
  /** Default 20 messages. */
  historyWindow?: number;
  logger?: EngineLogger;
  /** Markdown → reply format conversion; without one every caller gets Markdown. */
  formatReply?: ReplyFormatter;
  /** Told when a delivery is queued or passages need vectors, to wake this process's worker. */
  onWork?: (kind: 'delivery' | 'embedding' | 'source') => void;
  /** This process's id as the holder of turn job leases; default a random `wrk_…`. */
  owner?: string;
  /** A running turn's lease, renewed while it runs; a crashed process's turns are retaken after it. Default 15,000 ms. */
  turnLeaseMs?: number;
  /** Fallback poll for turns queued here and for waiters, should a notification be lost. Default 1,000 ms. */
  turnPollMs?: number;
}

/** The conversations service: one method per endpoint of spec section 4, no HTTP in sight. */
export interface Engine {
  createSession(principal: Principal, widgetId: string, body: unknown): Promise<EngineResult<CreatedSession>>;
  /** The session an AI SDK chat id names for this key (POST /widgets/{widgetId}/chat), created on first use. */
  openChat(principal: Principal, chat: ChatRef): Promise<{ sessionId: string; created: boolean }>;
  /**
   * POST …/messages. With `response_type: "stream"` pass an observer: checks that fail before the turn is
   * accepted reject without calling it; after `onAccepted` the deltas follow and the promise settles with the
   * reply (exactly as sync) or a SvcError (DESIGN.md section 4).
   */
  sendMessage(
    principal: Principal,
    widgetId: string,
    sessionId: string,
    body: unknown,
    observer?: TurnObserver,
    options?: TurnCallOptions,
  ): Promise<TurnResult>;
  /** POST …/form-submissions; the observer works as for {@link Engine.sendMessage}. */
  submitForm(
    principal: Principal,
    widgetId: string,
    sessionId: string,
    body: unknown,
    observer?: TurnObserver,
    options?: TurnCallOptions,
  ): Promise<TurnResult>;
  listMessages(principal: Principal, widgetId: string, sessionId: string, query: ListQueryInput): Promise<PageResult<HistoryItem>>;
  endSession(principal: Principal, widgetId: string, sessionId: string): Promise<EngineResult<EndedSession>>;
  rateSession(principal: Principal, widgetId: string, sessionId: string, body: unknown): Promise<EngineResult<RatedSession>>;
  /** POST …/messages/{messageId}/feedback (DESIGN.md section 12): thumbs on an AI reply; again replaces it. Free. */
  messageFeedback(principal: Principal, target: MessageTarget, body: unknown): Promise<EngineResult<MessageFeedbackReply>>;
  getSession(principal: Principal, widgetId: string, sessionId: string): Promise<EngineResult<SessionView>>;
  /**
   * GET …/events (DESIGN.md section 6): checks access as get-session does and opens the session's event feed after
   * `lastEventId` (the `Last-Event-ID` header), or after the newest event when absent. The adapter streams it.
   */
  openSessionEvents(principal: Principal, widgetId: string, sessionId: string, lastEventId: string | undefined): Promise<SessionEventFeed>;
  listProducts(principal: Principal, knowledgeBaseId: string, query: ListQueryInput): Promise<PageResult<ProductInput>>;
  /** GET /widget/config: the public key's widget as the embedded widget needs it; other keys are refused. */
  getWidgetConfig(principal: Principal): Promise<EngineResult<WidgetConfig>>;
  /**
   * Marks sessions idle past their TTL as expired, `batchSize` per transaction with their `session.expired` webhook
   * rows; returns how many. The workers run it periodically.
   */
  expireIdleSessions(batchSize?: number): Promise<number>;
  /**
   * The worker's part of the turn pipeline: claims up to `limit` turn jobs that are queued or whose lease ran out (a
   * crashed process's) and runs them to their end. Resolves how many it ran.
   */
  runQueuedTurns(limit: number): Promise<number>;
  /** Stops this engine's background turn work (listening, polling) and waits for the turns running here. */
  close(): Promise<void>;
  /**
   * Graceful shutdown: accepts and claims no more turns, waits up to `deadlineMs` for those running here, then hands
   * the rest back to other processes (their leases end now). Resolves how many it handed back.
   */
  drainTurns(deadlineMs: number): Promise<{ released: number }>;
  knowledge: {
    create(principal: Principal, body: unknown): Promise<EngineResult<KnowledgeBaseView>>;
    list(principal: Principal, query: ListQueryInput): Promise<PageResult<KnowledgeBaseView>>;
    get(principal: Principal, kbId: string): Promise<EngineResult<KnowledgeBaseDetail>>;
    putProduct(principal: Principal, kbId: string, productId: string, body: unknown): Promise<EngineResult<ProductInput>>;
    upsertProducts(principal: Principal, kbId: string, body: unknown): Promise<EngineResult<UpsertedProducts>>;
    deleteProduct(principal: Principal, kbId: string, productId: string): Promise<EngineResult<Deleted>>;
    addDocument(principal: Principal, kbId: string, body: unknown): Promise<EngineResult<DocumentView>>;
    replaceDocument(principal: Principal, kbId: string, documentId: string, body: unknown): Promise<EngineResult<DocumentView>>;
    deleteDocument(principal: Principal, kbId: string, documentId: string): Promise<EngineResult<Deleted>>;
    listDocuments(principal: Principal, kbId: string, query: ListQueryInput): Promise<PageResult<DocumentView>>;
    search(principal: Principal, kbId: string, body: unknown): Promise<EngineResult<KnowledgeSearchResult>>;
    /** POST …/sources: a website source, queued for its first sync (201). */
    addSource(principal: Principal, kbId: string, body: unknown): Promise<EngineResult<SourceView>>;
    /** GET …/sources, oldest first. */
    listSources(principal: Principal, kbId: string, query: ListQueryInput): Promise<PageResult<SourceView>>;
    /** GET …/sources/{sourceId}: with the pages the last sync could not read. */
    getSource(principal: Principal, kbId: string, sourceId: string): Promise<EngineResult<SourceDetail>>;
    /** POST …/sources/{sourceId}/sync: queues a sync (202); one already queued or running is returned as it is. */
    syncSource(principal: Principal, kbId: string, sourceId: string): Promise<EngineResult<SourceView>>;
    /** DELETE …/sources/{sourceId}: the source, its pages, documents and products. */
    deleteSource(principal: Principal, kbId: string, sourceId: string): Promise<EngineResult<Deleted>>;
    /** POST …/files: what the adapter extracted from an upload, stored as a `file` source (201, `ready` or `failed`). */
    addFile(principal: Principal, kbId: string, file: UploadedFile): Promise<EngineResult<SourceView>>;
  };
}

/**
 * @example
 * const engine = createEngine({ store: createMemoryStore(), agent, cursorSecret: 'a-long-random-secret' });
 * const { status, data } = await engine.createSession(principal, 'wgt_…', { visitorId: 'v1' });
 */
export function createEngine(options: EngineOptions, ctx: EngineContext = engineContext(options)): Engine {
  // Made on first use: the runner listens to the store and polls, which a core used only for operator work (the
  // command line, seeding) must not start.
  let started: TurnRunner | undefined;
  const runner = (): TurnRunner =>
    (started ??= createTurnRunner(ctx, {
      owner: options.owner ?? ctx.ids.random('wrk'),
      leaseMs: options.turnLeaseMs ?? 15_000,
      pollMs: options.turnPollMs ?? 1_000,
    }));
  return {
    createSession: (p, w, body) => createSession(ctx, p, w, body),
    openChat: (p, chat) => openChat(ctx, p, chat),
    sendMessage: (principal, widgetId, sessionId, body, observer, call) =>
      sendMessage(ctx, runner(), { principal, widgetId, sessionId, body }, observer, call),
    submitForm: (principal, widgetId, sessionId, body, observer, call) =>
      submitForm(ctx, runner(), { principal, widgetId, sessionId, body }, observer, call),
    listMessages: (p, w, s, query) => listMessages(ctx, p, w, s, query),
    endSession: (p, w, s) => endSession(ctx, p, w, s),
    rateSession: (p, w, s, body) => rateSession(ctx, p, w, s, body),
    messageFeedback: (p, target, body) => messageFeedback(ctx, p, { target, body }),
    getSession: (p, w, s) => getSession(ctx, p, w, s),
    openSessionEvents: (p, w, s, last) => openSessionEvents(ctx, p, w, s, last),
    listProducts: (p, kb, query) => listProducts(ctx, p, kb, query),
    getWidgetConfig: (p) => getWidgetConfig(ctx, p),
    expireIdleSessions: (batchSize?: number) => expireDueSessions(ctx, batchSize),
    runQueuedTurns: (limit) => runner().runQueued(limit),
    // Closing makes the runner if need be, so that a closed engine accepts no turn afterwards either.
    close: () => runner().close(),
    drainTurns: (deadlineMs) => runner().drain(deadlineMs),
    knowledge: {
      create: (p, body) => knowledge.createKnowledgeBase(ctx, p, body),
      list: (p, query) => knowledge.listKnowledgeBases(ctx, p, query),
      get: (p, kb) => knowledge.getKnowledgeBase(ctx, p, kb),
      putProduct: (p, kb, id, body) => knowledge.putProduct(ctx, p, kb, id, body),
      upsertProducts: (p, kb, body) => knowledge.upsertProducts(ctx, p, kb, body),
      deleteProduct: (p, kb, id) => knowledge.deleteProduct(ctx, p, kb, id),
      addDocument: (p, kb, body) => knowledge.addDocument(ctx, p, kb, body),
      replaceDocument: (p, kb, id, body) => knowledge.replaceDocument(ctx, p, kb, id, body),
      deleteDocument: (p, kb, id) => knowledge.deleteDocument(ctx, p, kb, id),
      listDocuments: (p, kb, query) => knowledge.listDocuments(ctx, p, kb, query),
      search: (p, kb, body) => knowledge.searchKnowledge(ctx, p, kb, body),
      addSource: (p, kbId, body) => sources.addSource(ctx, p, { kbId, body }),
      listSources: (p, kbId, query) => sources.listSources(ctx, p, { kbId, query }),
      getSource: (p, kbId, sourceId) => sources.getSource(ctx, p, { kbId, sourceId }),
      syncSource: (p, kbId, sourceId) => sources.syncSource(ctx, p, { kbId, sourceId }),
      deleteSource: (p, kbId, sourceId) => sources.deleteSource(ctx, p, { kbId, sourceId }),
      addFile: (p, kbId, file) => sources.addFile(ctx, p, { kbId, file }),
    },
  };
}

/** The settings of `options` resolved, defaults applied: the engine's part of the core's one context. */
export function engineContext(options: EngineOptions): EngineContext {
  return {
    store: options.store,
    agent: options.agent,
    retriever: options.retriever ?? createRetriever({ store: options.store }),
    ...(options.embeddings ? { embeddings: options.embeddings } : {}),
    ...(options.reader ? { reader: options.reader } : {}),
    clock: options.clock ?? systemClock,
    ids: options.ids ?? defaultIds,
    pricing: { ...DEFAULT_PRICING, ...options.pricing },
    cursors: createCursorCodec(options.cursorSecret),
    syncTimeoutMs: options.syncTimeoutMs ?? 25_000,
    agentTimeoutMs: options.agentTimeoutMs ?? 120_000,
    historyWindow: options.historyWindow ?? 20,
    logger: options.logger ?? { error: (message, details) => console.error(message, details) },
    formatReply: options.formatReply ?? ((markdown) => markdown),
    ...(options.onWork ? { onWork: options.onWork } : {}),
  };
}
