export { createClient, DEFAULT_TIMEOUT_MS } from './client.js';
export type { ClientOptions, SvcClient } from './client.js';
export { isSvcApiError, SvcApiError } from './errors.js';
export type { ClientErrorCode, SvcApiErrorCode, SvcApiErrorInit } from './errors.js';
export { DEFAULT_RETRY } from './retry.js';
export type { RetryOptions } from './retry.js';
export type { FormsResource } from './resources/forms.js';
export type { MessagesResource } from './resources/messages.js';
export type { ProductsResource } from './resources/products.js';
export type { SessionsResource } from './resources/sessions.js';
export type {
  ApiResponse,
  CallOptions,
  CreatedSession,
  CreateSessionBody,
  EndedSession,
  ErrorBody,
  FormSubmissionBody,
  HistoryItem,
  Identity,
  ListQuery,
  MessageReply,
  Meta,
  PageResponse,
  Pagination,
  PostOptions,
  ProcessingReply,
  Product,
  RatedSession,
  RateSessionBody,
  Rating,
  SendMessageBody,
  Session,
  TurnResponse,
  VisitorContext,
} from './types.js';
