/**
 * `@svc/core/store-kit`: building blocks for implementations of the Store port, shared so that every store chunks
 * documents and orders lock waiters the same way. Engine users do not need it.
 */
export { chunkDocument, DEFAULT_CHUNK_CHARS } from './chunking.js';
export type { ChunkOptions, DocumentChunk } from './chunking.js';
export { createKeyedMutex } from './keyed-mutex.js';
export type { KeyedMutex } from './keyed-mutex.js';
export { createSignalBus } from './store-signals.js';
export type { SignalBus } from './store-signals.js';

// The ports a store or an agent implements, the domain rows they hold, and the helpers that keep every
// implementation alike (credit buckets, the stemmer the memory store ranks with).
export type {
  IdempotencyRecord,
  KnowledgeHits,
  KnowledgePassage,
  KnowledgeQuery,
  TermMatch,
  TermStatistics,
  ProductHit,
  SessionPatch,
  Store,
  StoreOps,
} from './store.js';
export type { StoreSignal, TurnCommit, TurnJob, TurnJobOps, Delivery } from './turn-job-store.js';
export type { GuardOps } from './guard-store.js';
export type { SourceClaim, SourceOps, SourcePageQuery, SourcePatch } from './source-store.js';
export type { EmbeddingClaim, EmbeddingProgress, PassageKey, PassageToEmbed, PassageVector, StoredPassage, VectorOps } from './vector-store.js';
export type { EmbeddingProvider, EmbeddingRequestOptions, Embeddings, RerankProvider, RerankResult } from '../retrieval/providers.js';
export type { ConsoleSession, Operator, OperatorOps } from './operator-store.js';
export type { AnalyticsOps, AnalyticsQuery } from './analytics-store.js';
export type { EvalOps, EvalRun, EvalRunQuery, StoredEvalSuite } from './eval-store.js';
export type { SessionEvent, SessionEventOps } from './session-event-store.js';
export type { WebhookEndpoint, WebhookOps } from './webhook-store.js';
export type { QuestionOps } from './question-store.js';
export type {
  Account,
  ApiKey,
  FormDefinition,
  Handoff,
  IdentitySecret,
  KnowledgeBase,
  KnowledgeDocument,
  KnowledgeSource,
  SourcePage,
  SourcePageState,
  LedgerEntry,
  MessageAction,
  MessageAuthor,
  MessageSource,
  Product,
  Scope,
  Session,
  StoredMessage,
  SurfacedForm,
  MessageOutcome,
  MessageFeedback,
  QuestionGroup,
  Visitor,
  VisitorContext,
  Widget,
  WidgetTheme,
} from '../domain.js';
export type { Agent, AgentReply, AgentRequest, IdentityClaims } from '../agent.js';
export { CREDIT_BUCKETS, flatCredits, zeroCredits, zeroMeters } from '../credits.js';
export { pendingDelivery } from './turn-job-store.js';
export type { Credits, TokenUsage } from '../credits.js';
export { STOPWORDS, stemEnglish } from '../text-terms.js';
export { createRetriever, DEFAULT_CONFIDENCE_THRESHOLD } from '../retrieval/retrieve.js';
export type { KnowledgeRetriever, Retrieval, RetrievalMeters, RetrievalQuery, RetrievedPassage, RetrievedProduct, RetrieverName } from '../retrieval/retrieve.js';
