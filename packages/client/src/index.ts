export { createClient, DEFAULT_TIMEOUT_MS } from './client.js';
export type { ClientOptions, SvcClient } from './client.js';
export { isSvcApiError, SvcApiError } from './errors.js';
export type { ClientErrorCode, SvcApiErrorCode, SvcApiErrorInit } from './errors.js';
export { DEFAULT_RETRY } from './retry.js';
export { DEFAULT_IDLE_TIMEOUT_MS } from './stream.js';
export type {
  FormStreams,
  MessageCompletedEvent,
  MessageDeltaEvent,
  MessageFailedEvent,
  MessageHandoffEvent,
  MessageStartEvent,
  MessageStreams,
  StreamFormBody,
  StreamMessageBody,
  StreamOptions,
  TurnStream,
  TurnStreamEvent,
} from './stream.js';
export type { MessageCreatedEvent, SessionEventsOptions, SessionEventStream, SessionStreamEvent, SessionUpdatedEvent } from './session-events.js';
export { readEventStream } from '@svc/core/event-stream';
export type { ServerSentEvent } from '@svc/core/event-stream';
/** `GET /widgets/{widgetId}/chat/{chatId}/messages` items and the `useChat` stream's chunks (DESIGN.md section 4). */
export type { UiMessage, UiMessageChunk } from '@svc/core/schemas';
export type { RetryOptions } from './retry.js';
export type { DocumentsResource } from './resources/documents.js';
export type { FormsResource } from './resources/forms.js';
export type { KnowledgeResource } from './resources/knowledge.js';
export type { KnowledgeBasesResource } from './resources/knowledge-bases.js';
export type { MessagesResource } from './resources/messages.js';
export type { ProductsResource } from './resources/products.js';
export type { SessionsResource } from './resources/sessions.js';
export type { SourcesResource, UploadFile } from './resources/sources.js';
export type {
  ApiResponse,
  CallOptions,
  CreatedSession,
  CreateKnowledgeBaseBody,
  CreateSessionBody,
  CreateSourceBody,
  Deleted,
  DocumentBody,
  EndedSession,
  ErrorBody,
  FormSubmissionBody,
  HistoryItem,
  MessageFeedbackBody,
  MessageFeedbackReply,
  Identity,
  KnowledgeBase,
  KnowledgeBaseDetail,
  KnowledgeDocument,
  KnowledgeSearchBody,
  KnowledgeSearchResult,
  ListQuery,
  MessageReply,
  Meta,
  PageResponse,
  Pagination,
  PostOptions,
  ProcessingReply,
  Product,
  ProductBody,
  ProductInput,
  RatedSession,
  Source,
  SourceDetail,
  RateSessionBody,
  Rating,
  SendMessageBody,
  Session,
  TurnResponse,
  UpsertedProducts,
  UpsertProductsBody,
  VisitorContext,
} from './types.js';
