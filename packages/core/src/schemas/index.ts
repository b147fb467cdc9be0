/**
 * `@svc/core/schemas`: the wire contract (README Architecture). One zod schema per request and response resource,
 * one per stream event, and the types inferred from them: the server validates with them, the OpenAPI document is
 * written from them, and `@svc/client`, the widget and the console read the same shapes (types only where a bundle
 * must stay small).
 */
export { LABEL_PATTERN, visitorIdSchema, sessionIdSchema, languageSchema, isIanaTimeZone, timezoneSchema, visitorContextSchema, identitySchema, isoDateTime, widgetIdSchema, knowledgeBaseIdSchema, documentIdSchema } from './common.js';
export { creditsSchema, usageSchema, metaSchema, paginationSchema, errorBodySchema, envelope, listEnvelope } from './credits.js';
export { sessionStatusSchema, ratingSchema, createSessionRequestSchema, createdSessionSchema, operatorRefSchema, handoffSchema, sessionSchema, endedSessionSchema, rateSessionRequestSchema, ratedSessionSchema } from './session.js';
export type { CreateSessionRequest, CreatedSession, SessionView, HandoffView, EndedSession, RateSessionRequest, RatedSession } from './session.js';
export { contentSchema, sendMessageRequestSchema, actionSchema, messageSourceSchema, messageReplySchema, processingReplySchema, messageAuthorSchema, historyItemSchema, listQuerySchema, messageFeedbackRequestSchema, messageFeedbackSchema, messageFeedbackReplySchema } from './message.js';
export type { SendMessageRequest, MessageReply, ProcessingReply, HistoryItem, ListQuery, MessageFeedbackRequest, MessageFeedbackView, MessageFeedbackReply } from './message.js';
export { responseTypeSchema } from './response-type.js';
export type { ResponseType } from './response-type.js';
export { questionKindSchema, formQuestionSchema, surfacedFormSchema, formDefinitionSchema, formSubmissionRequestSchema } from './form.js';
export type { FormSubmissionRequest } from './form.js';
export { productSchema } from './product.js';
export type { ProductInput } from './product.js';
export { createKnowledgeBaseRequestSchema, knowledgeBaseSchema, productBodySchema, upsertProductsRequestSchema, documentRequestSchema, documentSchema, knowledgeSearchRequestSchema, knowledgeSearchResultSchema, knowledgeBaseDetailSchema, upsertedProductsSchema, deletedSchema } from './knowledge.js';
export type { KnowledgeBaseView, KnowledgeBaseDetail, UpsertedProducts, Deleted, DocumentView, KnowledgeSearchRequest, KnowledgeSearchResult } from './knowledge.js';
export { sourceTypeSchema, sourceStatusSchema, sourceScheduleSchema, sourceProgressSchema, sourceLastSyncSchema, createSourceRequestSchema, sourceSchema, sourceDetailSchema, DEFAULT_MAX_PAGES, MAX_PAGES_LIMIT } from './sources.js';
export type { CreateSourceRequest, SourceView, SourceDetail, SourceProgress } from './sources.js';
export { widgetThemeSchema, widgetConfigSchema } from './widget.js';
export type { WidgetConfig } from './widget.js';
export { MIN_PASSWORD_LENGTH, operatorRoleSchema, loginRequestSchema, createOperatorRequestSchema, changePasswordRequestSchema, operatorSchema, consoleSessionSchema } from './operator.js';
export type { LoginRequest, CreateOperatorRequest, ChangePasswordRequest, OperatorView, ConsoleSessionView } from './operator.js';
export { accountViewSchema, messagePreviewSchema, conversationSummarySchema, conversationMessageSchema, conversationSchema, operatorReplyRequestSchema, widgetSettingsSchema, createWidgetRequestSchema, widgetViewSchema, widgetFormsRequestSchema, rotateSecretRequestSchema, identitySecretSchema, keyViewSchema, createKeyRequestSchema, createPublicKeyRequestSchema, createdKeySchema, callbackSecretSchema, webhookViewSchema, createWebhookRequestSchema, createdWebhookSchema, webhookSecretSchema, deliveryViewSchema, deliveryFiltersSchema, importedKnowledgeSchema, productPageQuerySchema, adminSearchRequestSchema, analyticsQuerySchema, analyticsSchema } from './admin.js';
export type { AccountViewBody } from './admin.js';
export { questionFiltersSchema, questionGroupSchema, answerQuestionRequestSchema } from './questions.js';
export type { QuestionFilters, QuestionGroupView, AnswerQuestionRequest } from './questions.js';
export { messageCompletedEventSchema, messageFailedEventSchema, sessionCreatedEventSchema, sessionResolvedEventSchema, sessionExpiredEventSchema, sessionRatedEventSchema, sessionHandoffEventSchema, messageFeedbackEventSchema } from './callback.js';
// The names live in the dependency-free @svc/core/event-stream, which small bundles import instead.
export { SESSION_EVENT, TURN_EVENT } from '../event-stream.js';
export type { SessionEventName, TurnEventName } from '../event-stream.js';
export { turnEventDataSchemas, sessionEventDataSchemas, turnStreamEventSchema, sessionStreamEventSchema, uiMessageChunkSchema, uiMessageSchema, UI_MESSAGE_STREAM_DONE } from './stream-events.js';
export type { TurnStreamEvent, TurnEventData, SessionStreamEvent, UiMessageChunk, UiMessage } from './stream-events.js';
export { evalExpectSchema, evalCaseSchema, evalSuiteSchema, evalSuiteBodySchema, evalSuiteNameSchema, evalSuiteViewSchema, addEvalCaseRequestSchema, evalCaseResultSchema, evalRunStatusSchema, evalRunSchema, evalRunListQuerySchema } from './evals.js';
export type { EvalExpect, EvalCase, EvalSuite, EvalSuiteView, EvalCaseResult, EvalRunStatus, EvalRunView } from './evals.js';
export { isStorableText, findUnstorableText, parseInput } from './validate.js';
// The wire's vocabulary beyond the zod schemas: error codes, scopes, webhook event names, the shapes of stored
// resources as the API shows them, the SSE reader and the identity token format a client signs.
export { ERROR_STATUS } from '../errors.js';
export type { ErrorCode } from '../errors.js';
export { REPLY_FORMATS, SCOPES } from '../domain.js';
export type { FormQuestion, Product, QuestionKind, Rating, ReplyFormat, Scope, SessionStatus, SurfacedForm, WidgetTheme } from '../domain.js';
export { LIFECYCLE_EVENTS } from '../store/webhook-store.js';
export type { LifecycleEventName } from '../store/webhook-store.js';
export type { Conversation, ConversationMessage, ConversationSummary, MessagePreview } from '../admin/conversations.js';
export { readEventStream } from '../event-stream.js';
export type { ServerSentEvent } from '../event-stream.js';
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
} from '../identity-token.js';
export type { IdentityTokenClaims, IdentityTokenFailure, VerifyIdentityTokenOptions } from '../identity-token.js';
export { conversationFiltersSchema } from '../admin/conversations.js';
export type { ConversationFilters } from '../admin/conversations.js';
export { knowledgeFileSchema } from '../admin/knowledge.js';
