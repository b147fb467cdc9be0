export { ERROR_STATUS, SvcError, isSvcError, toSvcError } from './errors.js';
export type { ErrorCode, SvcErrorOptions } from './errors.js';
export {
  CREDIT_BUCKETS,
  DEFAULT_PRICING,
  flatCredits,
  priceTurn,
  totalCredits,
  zeroCredits,
  zeroMeters,
} from './credits.js';
export type { AgentMeters, CreditBucket, Credits, Pricing, TokenUsage } from './credits.js';
export { REPLY_FORMATS, SCOPES } from './domain.js';
export type {
  Account,
  AccountStatus,
  ApiKey,
  ApiKeyKind,
  FormDefinition,
  FormQuestion,
  KnowledgeBase,
  KnowledgeDocument,
  LedgerEntry,
  MessageAction,
  MessageRole,
  Principal,
  Product,
  QuestionKind,
  Rating,
  ReplyFormat,
  Scope,
  Session,
  SessionStatus,
  StoredMessage,
  SurfacedForm,
  Visitor,
  VisitorContext,
  Widget,
  WidgetTheme,
} from './domain.js';
export type {
  IdempotencyRecord,
  KnowledgeHits,
  KnowledgePassage,
  KnowledgeQuery,
  ProductHit,
  SessionPatch,
  Store,
  StoreOps,
} from './store/store.js';
export { createMemoryStore } from './store/memory-store.js';
export type { Agent, AgentReply, AgentRequest, IdentityClaims } from './agent.js';
export { manualClock, systemClock } from './clock.js';
export type { Clock } from './clock.js';
export { defaultIds, randomBase62 } from './ids.js';
export type { Ids } from './ids.js';
