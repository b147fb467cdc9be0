import type { Agent } from '../agent.js';
import { systemClock, type Clock } from '../clock.js';
import { DEFAULT_PRICING, type Pricing } from '../credits.js';
import { createCursorCodec } from '../cursor.js';
import type { Principal } from '../domain.js';
import { defaultIds, type Ids } from '../ids.js';
import type { Store } from '../store/store.js';
import type { EngineContext, EngineLogger, EngineResult, PageResult, ReplyFormatter } from './context.js';
import { listMessages, listProducts, type ListQueryInput } from './lists.js';
import { sendMessage, submitForm } from './messages.js';
import { createSession, endSession, getSession, rateSession } from './sessions.js';
import type { TurnResult } from './turn.js';
import type { TurnObserver } from './observer.js';
import { processTurnJob } from './callback-turns.js';
import type { TurnJob } from '../store/callback-store.js';
import type { CreatedSession, EndedSession, RatedSession, SessionView } from '../schemas/session.js';
import type { HistoryItem } from '../schemas/message.js';
import type { ProductInput } from '../schemas/product.js';
import type { Deleted, DocumentView, KnowledgeBaseDetail, KnowledgeBaseView, KnowledgeSearchResult, UpsertedProducts } from '../schemas/knowledge.js';
import * as knowledge from './knowledge.js';

export interface EngineOptions {
  store: Store;
  agent: Agent;
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
  /** Told when callback work is queued, to wake this process's workers. */
  onWork?: (kind: 'turn' | 'delivery') => void;
}

/** The conversations service: one method per endpoint of spec section 4, no HTTP in sight. */
export interface Engine {
  createSession(principal: Principal, widgetId: string, body: unknown): Promise<EngineResult<CreatedSession>>;
  /**
   * POST …/messages. With `response_type: "stream"` pass an observer: checks that fail before the turn is
   * accepted reject without calling it; after `onAccepted` the deltas follow and the promise settles with the
   * reply (exactly as sync) or a SvcError (DESIGN.md section 4).
   */
  sendMessage(principal: Principal, widgetId: string, sessionId: string, body: unknown, observer?: TurnObserver): Promise<TurnResult>;
  /** POST …/form-submissions; the observer works as for {@link Engine.sendMessage}. */
  submitForm(principal: Principal, widgetId: string, sessionId: string, body: unknown, observer?: TurnObserver): Promise<TurnResult>;
  listMessages(principal: Principal, widgetId: string, sessionId: string, query: ListQueryInput): Promise<PageResult<HistoryItem>>;
  endSession(principal: Principal, widgetId: string, sessionId: string): Promise<EngineResult<EndedSession>>;
  rateSession(principal: Principal, widgetId: string, sessionId: string, body: unknown): Promise<EngineResult<RatedSession>>;
  getSession(principal: Principal, widgetId: string, sessionId: string): Promise<EngineResult<SessionView>>;
  listProducts(principal: Principal, knowledgeBaseId: string, query: ListQueryInput): Promise<PageResult<ProductInput>>;
  /** Marks sessions idle past their TTL as expired; returns how many. Run periodically. */
  expireIdleSessions(): Promise<number>;
  /** Runs a claimed callback turn job to its end (reply, debit, delivery). */
  processTurnJob(job: TurnJob): Promise<void>;
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
  };
}

/**
 * @example
 * const engine = createEngine({ store: createMemoryStore(), agent, cursorSecret: 'a-long-random-secret' });
 * const { status, data } = await engine.createSession(principal, 'wgt_…', { visitorId: 'v1' });
 */
export function createEngine(options: EngineOptions): Engine {
  const ctx: EngineContext = {
    store: options.store,
    agent: options.agent,
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
  return {
    createSession: (p, w, body) => createSession(ctx, p, w, body),
    sendMessage: (p, w, s, body, observer) => sendMessage(ctx, p, w, s, body, observer),
    submitForm: (p, w, s, body, observer) => submitForm(ctx, p, w, s, body, observer),
    listMessages: (p, w, s, query) => listMessages(ctx, p, w, s, query),
    endSession: (p, w, s) => endSession(ctx, p, w, s),
    rateSession: (p, w, s, body) => rateSession(ctx, p, w, s, body),
    getSession: (p, w, s) => getSession(ctx, p, w, s),
    listProducts: (p, kb, query) => listProducts(ctx, p, kb, query),
    expireIdleSessions: () => ctx.store.expireSessions(ctx.clock.now()),
    processTurnJob: (job) => processTurnJob(ctx, job),
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
    },
  };
}
