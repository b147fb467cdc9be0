/**
 * `@svc/core`: the domain engine behind one door (DESIGN.md section 3b). `createCore` builds the public API, the
 * operator operations, the live feeds and the background turn work on the ports given to it; the rest of this file
 * is those ports, the domain's types and its errors. The wire contract (zod schemas, stream events) is
 * `@svc/core/schemas`; building blocks for stores and agents are `@svc/core/store-kit`; the contract suites are
 * `@svc/core/testing`.
 */
export { createCore } from './core.js';
export type { AdminApi, Api, BackgroundWork, ConversationRef, Core, CoreEvents, CoreOptions, FeedOptions, OpenedFeed, TurnWork } from './core.js';
export type { EmbeddingRound, EmbeddingWork } from './retrieval/embedding-job.js';
export type { SourceJobOptions, SourceRound, SourceWork } from './sources/sync-job.js';
export type { StreamedEvent } from './engine/event-log.js';
export { views } from './views.js';
export type { EngineLogger, EngineResult, PageResult, ReplyFormatter } from './engine/context.js';
export type { TurnCallOptions, TurnResult } from './engine/messages.js';
export type { TurnObserver } from './engine/observer.js';

// Ports.
export type { Store } from './store/store.js';
export { createMemoryStore } from './store/memory-store.js';
export type { Agent, AgentReply, AgentRequest, IdentityClaims } from './agent.js';
export { manualClock, systemClock } from './clock.js';
export type { Clock } from './clock.js';
export { defaultIds, randomBase62 } from './ids.js';
export type { Ids } from './ids.js';
export type { PasswordHasher, SignedIn } from './admin/operators.js';

// Errors.
export { ERROR_STATUS, SvcError, isSvcError, toSvcError } from './errors.js';
export type { ErrorCode, SvcErrorOptions } from './errors.js';

// The domain.
export { ANY_ACCOUNT } from './admin/context.js';
export type { AccountScope } from './admin/context.js';
export { DEFAULT_PRICING } from './credits.js';
export { principalOf } from './principal.js';
export { createRetriever, DEFAULT_CONFIDENCE_THRESHOLD } from './retrieval/retrieve.js';
export type { KnowledgeRetriever, RetrieverOptions } from './retrieval/retrieve.js';
export type { EmbeddingProvider, RerankProvider } from './retrieval/providers.js';
export type { ExtractedFile, PageRead, PageValidators, RobotsRules, SiteReader, UploadedFile } from './sources/site-reader.js';
export type { Credits, Pricing } from './credits.js';
export type {
  Account,
  ApiKey,
  FormDefinition,
  KnowledgeBase,
  KnowledgeSource,
  OperatorRef,
  Principal,
  Product,
  ReplyFormat,
  Scope,
  Session,
  StoredMessage,
  Widget,
  WidgetTheme,
} from './domain.js';
export type { ConsoleSession, Operator, OperatorRole } from './store/operator-store.js';
export type { Delivery, DeliveryStatus, TurnJob } from './store/turn-job-store.js';
export type { WebhookEndpoint } from './store/webhook-store.js';

// Values an adapter must agree with core on: the console cookie's lifetime, the replay window of `Idempotency-Key`.
export { CONSOLE_SESSION_MAX_MS, LOGIN_THROTTLE } from './admin/operators.js';
export { IDEMPOTENCY_WINDOW_MS } from './engine/turns/accept.js';

// Signing and comparing secrets, shared with the server's delivery worker and key checks.
export { sha256Hex, signCallback, signStandardWebhook, timingSafeEqualStrings } from './signing.js';
/** The secrets a webhook's deliveries are signed with now: the new one, and the old one during its grace period. */
export { signingSecrets } from './admin/webhooks.js';
