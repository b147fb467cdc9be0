/**
 * Request and response types, inferred from @svc/core's zod schemas (the single source of truth). Only types
 * are imported: neither zod nor @svc/core reaches a bundle that uses this client.
 */
import type { z } from 'zod';
import type { createSourceRequestSchema, sourceDetailSchema, sourceSchema, createdSessionSchema, createKnowledgeBaseRequestSchema, createSessionRequestSchema, documentRequestSchema, documentSchema, endedSessionSchema, deletedSchema, knowledgeBaseDetailSchema, upsertedProductsSchema, errorBodySchema, formSubmissionRequestSchema, historyItemSchema, knowledgeBaseSchema, knowledgeSearchRequestSchema, knowledgeSearchResultSchema, messageReplySchema, metaSchema, paginationSchema, processingReplySchema, productBodySchema, productSchema, ratedSessionSchema, rateSessionRequestSchema, sendMessageRequestSchema, sessionSchema, upsertProductsRequestSchema, messageFeedbackReplySchema, messageFeedbackRequestSchema } from '@svc/core/schemas';

// Bodies are what the caller sends, so they are the schemas' inputs; responses are what the server produced.
export type CreateSessionBody = z.input<typeof createSessionRequestSchema>;
export type SendMessageBody = z.input<typeof sendMessageRequestSchema>;
export type FormSubmissionBody = z.input<typeof formSubmissionRequestSchema>;
export type RateSessionBody = z.input<typeof rateSessionRequestSchema>;
export type Rating = RateSessionBody['rating'];
/** Thumbs on one AI reply (DESIGN.md section 12): `rating`, and optionally `reason` and `comment`. */
export type MessageFeedbackBody = z.input<typeof messageFeedbackRequestSchema>;
export type VisitorContext = NonNullable<CreateSessionBody['visitorContext']>;
export type Identity = NonNullable<SendMessageBody['identity']>;

export type CreatedSession = z.output<typeof createdSessionSchema>;
export type Session = z.output<typeof sessionSchema>;
export type EndedSession = z.output<typeof endedSessionSchema>;
export type RatedSession = z.output<typeof ratedSessionSchema>;
export type MessageReply = z.output<typeof messageReplySchema>;
export type ProcessingReply = z.output<typeof processingReplySchema>;
export type HistoryItem = z.output<typeof historyItemSchema>;
/** The answer to `messages.feedback`: the message and the feedback now on it. */
export type MessageFeedbackReply = z.output<typeof messageFeedbackReplySchema>;
export type Product = z.output<typeof productSchema>;
export type Meta = z.output<typeof metaSchema>;
export type Pagination = z.output<typeof paginationSchema>;
export type ErrorBody = z.output<typeof errorBodySchema>;

// Knowledge bases (issue #3).
export type CreateKnowledgeBaseBody = z.input<typeof createKnowledgeBaseRequestSchema>;
/** A product as `products.upsert` sends it, `id` included. */
export type ProductInput = z.input<typeof productSchema>;
/** A product as `products.put` sends it: the path names its id. */
export type ProductBody = z.input<typeof productBodySchema>;
export type UpsertProductsBody = z.input<typeof upsertProductsRequestSchema>;
export type DocumentBody = z.input<typeof documentRequestSchema>;
export type KnowledgeSearchBody = z.input<typeof knowledgeSearchRequestSchema>;

export type KnowledgeBase = z.output<typeof knowledgeBaseSchema>;
/** A document of a knowledge base, as listed and returned: its content is not sent back. */
export type KnowledgeDocument = z.output<typeof documentSchema>;
export type KnowledgeSearchResult = z.output<typeof knowledgeSearchResultSchema>;
/** A knowledge base with how many products and documents it holds. */
export type KnowledgeBaseDetail = z.output<typeof knowledgeBaseDetailSchema>;
export type UpsertedProducts = z.output<typeof upsertedProductsSchema>;
// Knowledge sources (issue #22).
export type CreateSourceBody = z.input<typeof createSourceRequestSchema>;
/** A source of a knowledge base: a website, an uploaded file or the manual documents, with its sync status. */
export type Source = z.output<typeof sourceSchema>;
/** A source with the pages its last sync could not read. */
export type SourceDetail = z.output<typeof sourceDetailSchema>;
/** What a delete answers: `{ id, deleted: true }`. */
export type Deleted = z.output<typeof deletedSchema>;

/**
 * A list query. The server's schema reads `limit` from a query string; callers pass a number (1-100, default
 * 50) and the `pagination.cursor` of the previous page.
 */
export interface ListQuery {
  limit?: number;
  cursor?: string;
}

/** A successful response: the envelope of spec 2.7 plus the HTTP status and the request id. */
export interface ApiResponse<T, S extends number = 200> {
  status: S;
  data: T;
  /** `meta.creditsConsumed`: what this request cost. */
  meta: Meta;
  /** The `X-Request-Id` response header. */
  requestId: string | undefined;
}

/** A page of a list: `pagination.cursor` leads to the next page while `pagination.hasMore`. */
export interface PageResponse<T> extends ApiResponse<T[]> {
  pagination: Pagination;
}

/**
 * A send-message or form-submission result: 200 with the reply, or 202 when the reply is still being produced
 * (callback mode, or a turn slower than the server's sync wait; it lands in the history under `messageId`).
 */
export type TurnResponse = ApiResponse<MessageReply, 200> | ApiResponse<ProcessingReply, 202>;

/** Per-call options of every method. */
export interface CallOptions {
  /** Aborts the call (and its retries); the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Overrides the client's `timeoutMs` for this call. */
  timeoutMs?: number;
  /** Extra headers for this call. */
  headers?: Record<string, string>;
}

/** Per-call options of the POST methods. */
export interface PostOptions extends CallOptions {
  /**
   * Sent as `Idempotency-Key`: a repeat within 24 h replays the first success and runs nothing twice, which is
   * also what makes a POST safe to retry automatically. Use one fresh key per logical operation.
   */
  idempotencyKey?: string;
}
