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
  Handoff,
  IdentitySecret,
  KnowledgeBase,
  KnowledgeDocument,
  LedgerEntry,
  MessageAction,
  MessageAuthor,
  MessageRole,
  OperatorRef,
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
export { LIFECYCLE_EVENTS } from './store/webhook-store.js';
export type { LifecycleEventName, WebhookEndpoint, WebhookOps } from './store/webhook-store.js';
export * from './admin/index.js';
export { expireDueSessions, writeLifecycleEvent } from './engine/lifecycle.js';
export type { HandoffChange, LifecycleContext, ResolvedReason } from './engine/lifecycle.js';
export { compareEventIds, EVENT_ID_PATTERN, SESSION_EVENT_RETENTION_MS } from './store/session-event-store.js';
export type { NewSessionEvent, SessionEvent, SessionEventOps, SessionEventType, SessionListQuery } from './store/session-event-store.js';
export { parseLastEventId } from './engine/session-events.js';
export type { SessionEventFeed, StreamedSessionEvent } from './engine/session-events.js';
// Operators' conversations and handoff (DESIGN.md section 6); the rest of the admin module has its own index.
export {
  acceptHandoff,
  conversationFiltersSchema,
  findConversation,
  getConversation,
  lastAccountEventId,
  listConversations,
  readAccountEvents,
  releaseHandoff,
  replyAsOperator,
  resolveConversation,
} from './admin/conversations.js';
export type {
  Conversation,
  ConversationFilters,
  ConversationMessage,
  ConversationPorts,
  ConversationSummary,
  MessagePreview,
} from './admin/conversations.js';
export type { Agent, AgentInput, AgentReply, AgentRequest, IdentityClaims } from './agent.js';
export { manualClock, systemClock } from './clock.js';
export type { Clock } from './clock.js';
export { defaultIds, randomBase62 } from './ids.js';
export type { Ids } from './ids.js';
export { createEngine } from './engine/engine.js';
export type { Engine, EngineOptions } from './engine/engine.js';
export type { EngineLogger, EngineResult, PageResult, ReplyFormatter } from './engine/context.js';
export type { TurnCallOptions, TurnResult } from './engine/messages.js';
export type { TurnObserver } from './engine/observer.js';
export type { ListQueryInput } from './engine/lists.js';
export { applyExpiry, assertAcceptsMessages, assertResumable, end, rate, resolveByAgent, touch } from './session-machine.js';
export { createCursorCodec, timingSafeEqualBytes } from './cursor.js';
export type { CursorCodec } from './cursor.js';
export { sha256Hex, signCallback, timingSafeEqualStrings } from './signing.js';
export { renderAnswers, validateAnswers, zonedToUtc } from './form-answers.js';
export type { AnswerValue, NormalisedAnswer } from './form-answers.js';
export { findUnstorableText, isStorableText, parseInput } from './schemas/validate.js';
export {
  LABEL_PATTERN,
  identitySchema,
  isIanaTimeZone,
  languageSchema,
  sessionIdSchema,
  timezoneSchema,
  visitorContextSchema,
  visitorIdSchema,
  widgetIdSchema,
  knowledgeBaseIdSchema,
  documentIdSchema,
} from './schemas/common.js';
export { creditsSchema, envelope, errorBodySchema, listEnvelope, metaSchema, paginationSchema, usageSchema } from './schemas/credits.js';
export {
  createSessionRequestSchema,
  createdSessionSchema,
  endedSessionSchema,
  rateSessionRequestSchema,
  ratedSessionSchema,
  handoffSchema,
  operatorRefSchema,
  ratingSchema,
  sessionSchema,
  sessionStatusSchema,
} from './schemas/session.js';
export type { CreateSessionRequest, CreatedSession, EndedSession, HandoffView, RateSessionRequest, RatedSession, SessionView } from './schemas/session.js';
export {
  actionSchema,
  contentSchema,
  historyItemSchema,
  listQuerySchema,
  messageAuthorSchema,
  messageReplySchema,
  processingReplySchema,
  responseTypeSchema,
  sendMessageRequestSchema,
} from './schemas/message.js';
export type { HistoryItem, ListQuery, MessageReply, ProcessingReply, SendMessageRequest } from './schemas/message.js';
export type { ResponseType } from './schemas/response-type.js';
export { formDefinitionSchema, formQuestionSchema, formSubmissionRequestSchema, questionKindSchema, surfacedFormSchema } from './schemas/form.js';
export type { FormSubmissionRequest } from './schemas/form.js';
export { productSchema } from './schemas/product.js';
export type { ProductInput } from './schemas/product.js';
export type {
  CallbackEventName,
  TurnJobOps,
  ClaimQuery,
  Delivery,
  DeliveryAttempt,
  DeliveryEventName,
  DeliveryStatus,
  GuardedTurnAcceptance,
  GuardedTurnAccepted,
  TurnAcceptance,
  TurnClaim,
  TurnCommit,
  StoreSignal,
  TurnJob,
  TurnJobStatus,
  TurnMode,
} from './store/turn-job-store.js';
export { pendingDelivery } from './store/turn-job-store.js';
export type { NewDelivery } from './store/turn-job-store.js';
export type { GuardOps } from './store/guard-store.js';
export { OPERATOR_ROLES } from './store/operator-store.js';
export {
  CONSOLE_SESSION_IDLE_MS,
  CONSOLE_SESSION_MAX_MS,
  LOGIN_THROTTLE,
  changePassword,
  createOperator,
  describeConsoleSession,
  describeOperator,
  listOperators,
  resolveConsoleSession,
  signIn,
  signOut,
} from './admin/operators.js';
export type { OperatorContext, PasswordHasher, SignedIn } from './admin/operators.js';
export {
  MIN_PASSWORD_LENGTH,
  changePasswordRequestSchema,
  consoleSessionSchema,
  createOperatorRequestSchema,
  loginRequestSchema,
  operatorRoleSchema,
  operatorSchema,
} from './schemas/operator.js';
export {
  accountViewSchema,
  adminSearchRequestSchema,
  analyticsQuerySchema,
  analyticsSchema,
  callbackSecretSchema,
  conversationMessageSchema,
  conversationSchema,
  conversationSummarySchema,
  createdKeySchema,
  createdWebhookSchema,
  createKeyRequestSchema,
  createPublicKeyRequestSchema,
  createWebhookRequestSchema,
  createWidgetRequestSchema,
  deliveryFiltersSchema,
  deliveryViewSchema,
  identitySecretSchema,
  importedKnowledgeSchema,
  keyViewSchema,
  messagePreviewSchema,
  operatorReplyRequestSchema,
  productPageQuerySchema,
  rotateSecretRequestSchema,
  webhookSecretSchema,
  webhookViewSchema,
  widgetFormsRequestSchema,
  widgetSettingsSchema,
  widgetViewSchema,
} from './schemas/admin.js';
export { describeWidget } from './admin/widget-view.js';
export { openAccountEvents } from './admin/account-events.js';
export type { AccountEventFeed } from './admin/account-events.js';
export type { ChangePasswordRequest, ConsoleSessionView, CreateOperatorRequest, LoginRequest, OperatorView } from './schemas/operator.js';
export type { ConsoleSession, Operator, OperatorOps, OperatorRole } from './store/operator-store.js';
export type { AnalyticsOps, AnalyticsQuery, LedgerAnalytics, SessionAnalytics } from './store/analytics-store.js';
export { completedPayload, failedPayload } from './engine/turns/payloads.js';
export { MAX_TURN_ATTEMPTS } from './engine/turns/run.js';
export { IDEMPOTENCY_WINDOW_MS } from './engine/turns/accept.js';
export {
  createKnowledgeBaseRequestSchema,
  documentRequestSchema,
  documentSchema,
  deletedSchema,
  knowledgeBaseDetailSchema,
  knowledgeBaseSchema,
  knowledgeSearchRequestSchema,
  knowledgeSearchResultSchema,
  productBodySchema,
  upsertedProductsSchema,
  upsertProductsRequestSchema,
} from './schemas/knowledge.js';
export type {
  Deleted,
  DocumentView,
  KnowledgeBaseDetail,
  KnowledgeBaseView,
  KnowledgeSearchResult,
  UpsertedProducts,
} from './schemas/knowledge.js';
export { widgetConfigSchema, widgetThemeSchema } from './schemas/widget.js';
export type { WidgetConfig } from './schemas/widget.js';
export {
  messageCompletedEventSchema,
  messageFailedEventSchema,
  sessionCreatedEventSchema,
  sessionExpiredEventSchema,
  sessionHandoffEventSchema,
  sessionRatedEventSchema,
  sessionResolvedEventSchema,
} from './schemas/callback.js';
export {
  DEFAULT_CLOCK_TOLERANCE_SECONDS,
  IDENTITY_TOKEN_ALGORITHM,
  IdentityTokenError,
  MAX_IDENTITY_TOKEN_LIFETIME_SECONDS,
  MIN_SECRET_BYTES,
  epochSeconds,
  identitySecretBytes,
  isIdentityTokenError,
  isValidIdentitySub,
  verifyIdentityToken,
} from './identity-token.js';
export type { IdentityTokenClaims, IdentityTokenFailure, VerifyIdentityTokenOptions } from './identity-token.js';
export { ENGLISH_STOPWORDS, STOPWORDS, stemEnglish } from './text-terms.js';
export { readEventStream } from './event-stream.js';
export type { ServerSentEvent } from './event-stream.js';
