import type { Context } from 'hono';
import { z } from 'zod';
import { createKnowledgeBaseRequestSchema, createSessionRequestSchema, documentIdSchema, documentRequestSchema, formSubmissionRequestSchema, knowledgeBaseIdSchema, LABEL_PATTERN, knowledgeSearchRequestSchema, productBodySchema, productSchema, rateSessionRequestSchema, sendMessageRequestSchema, sessionIdSchema, upsertProductsRequestSchema, widgetIdSchema } from '@svc/core/schemas';
import type { Core, EngineResult, ErrorCode, OperatorRole, PageResult, Principal, Scope, TurnObserver } from '@svc/core';
import { healthSchema, RESPONSE_SCHEMAS as R } from '../openapi/components.js';
import { docsPageHtml } from '../openapi/docs-page.js';
import type { AdminCaller } from './admin-auth.js';
import { ADMIN_ROUTES } from './admin-routes.js';
import type { AppEnv } from './auth.js';
import { turnIdempotency } from './idempotency.js';
import { chatTurn, streamTurn } from './stream-routes.js';
import { sessionEventStream } from './session-event-stream.js';
import { metricsText, readiness } from '../operations/operations.js';

/**
 * THE ROUTE TABLE: every endpoint of the HTTP app, once. `createApp` mounts each entry on Hono (with its
 * middleware, path-id checks, 405/`Allow`, `Cache-Control`, `Location`), and `buildOpenApiDocument` writes the
 * OpenAPI document from the same entries, so the two cannot drift.
 *
 * Adding an endpoint is one entry here:
 *   1. `method` and `path` in OpenAPI form (`/widgets/{widgetId}/…`). Each `{param}` must be a key of
 *      PATH_PARAMETERS (add a zod schema there for a new one: it is checked before any query, and documented).
 *   2. `auth`: 'key' (X-API-Key, CORS, body limit, rate limit, idempotency on POST), 'none' (operations
 *      endpoints such as /healthz, /readyz, /metrics), 'admin' (the admin API: a console session with CSRF on
 *      writes, or a server key with the `admin` scope; `roles` say which operators may call it, default owner)
 *      or 'signin' (signing in to the console: body limit and rate limit, no credentials yet). `scopes` and
 *      `identityToken` document what a key needs.
 *   3. `body` (a zod schema from @svc/core; `required: false` for an optional body), `paginated` for `limit`/`cursor`.
 *   4. `responses`: status → zod schema (registered in openapi/components.ts to get a component name, inlined
 *      otherwise) and description; `contentType` for anything but JSON (e.g. 'text/event-stream').
 *   5. `errors`: every ErrorCode it can answer (statuses come from core's ERROR_STATUS); spread the groups below.
 *   6. `handler`: translate to a call of the core (`core.api`, `core.admin`, `core.events`) and return its
 *      EngineResult/PageResult, or a Response of its own
 *      (a stream). `location` names the id of a 201's new resource for the `Location` header.
 *   `document: false` keeps an entry (e.g. /docs) out of the OpenAPI document but still in 405 handling.
 */

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** The tags of the document, in order, with their descriptions. */
export const TAGS = {
  Sessions: 'Create, read, end and rate chat sessions.',
  Messages: 'Send visitor messages and read the history.',
  Forms: 'Answer the dynamic forms a reply surfaces.',
  'Knowledge bases': 'The products and documents the AI answers from: manage them and search them as the AI does.',
  Widget: 'What the embeddable widget reads with its public key.',
  Operations: 'Running the service.',
  admin:
    'The admin API behind the console (`/admin/v1`): sign in as an operator (session cookie `svc_console`; writes send `X-CSRF-Token`), or call it with a server key that has the `admin` scope. Every call works on the caller\'s own account.',
} as const;
export type Tag = keyof typeof TAGS;

/** A generated id in an admin path: the label rules every id follows, checked before any query. */
function adminIdSchema(name: string) {
  return z
    .string()
    .min(1, { error: `${name} must not be empty` })
    .max(128, { error: `${name} must be at most 128 characters` })
    .regex(LABEL_PATTERN, { error: `${name} is not a valid id: letters, digits and _ - . : @ only` });
}

/** Every path parameter: validated (pattern, length) before any query, 400 `validation_failed` naming it. */
export const PATH_PARAMETERS = {
  widgetId: { description: 'The widget (chatbot), e.g. `wgt_…`.', schema: widgetIdSchema },
  sessionId: { description: 'The session: a generated `sess_…` id or one the client chose.', schema: sessionIdSchema },
  kbId: { description: 'The knowledge base, e.g. `kb_…`.', schema: knowledgeBaseIdSchema },
  productId: { description: 'The product: the `id` it was given in the catalogue.', schema: productSchema.shape.id },
  documentId: { description: 'The document, e.g. `doc_…`.', schema: documentIdSchema },
  keyId: { description: 'An API key, e.g. `key_…` (not the key itself).', schema: adminIdSchema('keyId') },
  webhookId: { description: 'A webhook endpoint, e.g. `whk_…`.', schema: adminIdSchema('webhookId') },
  deliveryId: { description: 'A callback or webhook delivery, e.g. `dlv_…`.', schema: adminIdSchema('deliveryId') },
} satisfies Record<string, { description: string; schema: z.ZodType<string> }>;
export type PathParameter = keyof typeof PATH_PARAMETERS;

/** Who calls, by the route's `auth`: the key's principal, the operator or admin key, or nobody yet. */
export interface Callers {
  key: Principal;
  admin: AdminCaller;
  none: undefined;
  signin: undefined;
}
export type Auth = keyof Callers;

/**
 * What a handler is given: the request, the core, the caller, and the already-checked inputs; nothing else, so every
 * operation goes through the core (DESIGN.md section 3b). What only the HTTP adapter has (stream settings, metrics,
 * the client's address) is on the request's context as `c.var.server`.
 */
export interface RouteCall<A extends Auth = Auth> {
  c: Context<AppEnv>;
  core: Core;
  caller: Callers[A];
  /** Path parameters, validated against PATH_PARAMETERS. */
  params: Record<string, string>;
  /** The JSON body: `{}` when a required body is absent, so validation names its first field. */
  body: Record<string, unknown> | undefined;
  query: Record<string, string>;
}

export type RouteResult = EngineResult<unknown> | PageResult<unknown> | Response;

export interface ResponseSpec {
  /** Absent for a response without a body (204). */
  schema?: z.ZodType;
  description: string;
  /** Default `application/json`. */
  contentType?: string;
}

export interface RouteSpec<A extends Auth> {
  method: Method;
  path: string;
  operationId: string;
  tag: Tag;
  summary: string;
  description: string;
  auth: A;
  scopes?: readonly Scope[];
  /** Admin routes: the operator roles allowed (an admin key acts as `owner`). Default owner only. */
  roles?: readonly OperatorRole[];
  /** Callable with a widget public key, which may carry the visitor's identity token (`X-Identity-Token`). */
  identityToken?: boolean;
  paginated?: boolean;
  /** Query parameters beyond `limit`/`cursor`, for the document (the operation validates them). */
  query?: z.ZodObject;
  body?: { schema: z.ZodType; required: boolean };
  responses: Partial<Record<200 | 201 | 202 | 204, ResponseSpec>>;
  errors: readonly ErrorCode[];
  /** The id of the resource a 201 created, appended to the request path for `Location`. */
  location?: (data: never) => string;
  /** Free operational GETs may answer HEAD (run as GET, body dropped); everything else answers HEAD with 405. */
  head?: boolean;
  /** Default true. */
  document?: boolean;
  handler: (call: RouteCall<A>) => Promise<RouteResult>;
}

/** One entry of the table; `auth` decides what `caller` its handler gets. */
export type Route = { [A in Auth]: RouteSpec<A> }[Auth];

// Failures shared by groups of endpoints (DESIGN.md section 4). Every key goes through the same checks, so a
// public (widget) key is refused from an origin it does not allow on any endpoint.
const KEYED: ErrorCode[] = ['missing_api_key', 'invalid_api_key', 'insufficient_scope', 'origin_not_allowed', 'rate_limited', 'internal_error'];
/** Path ids are checked before anything else. */
const PATH_IDS: ErrorCode[] = ['validation_failed'];
// A JSON body (PUT, POST); POSTs also take `Idempotency-Key`.
const JSON_BODY: ErrorCode[] = ['invalid_json', 'validation_failed', 'payload_too_large', 'unsupported_media_type'];
const JSON_POST: ErrorCode[] = [...JSON_BODY, 'idempotency_key_reused'];
// A public key's identity token that does not verify; a server key sending one is a 400 naming the header.
const IDENTITY_TOKEN: ErrorCode[] = ['invalid_identity_token', 'validation_failed'];
// A public key is also refused on a session bound to another identity.
const SESSION: ErrorCode[] = [...IDENTITY_TOKEN, 'widget_not_found', 'session_not_found', 'identity_mismatch', 'insufficient_credits'];
const TURN: ErrorCode[] = ['identity_scope_required', 'invalid_identity', 'callback_not_configured', 'session_not_active', 'agent_unavailable'];
const PAGE: ErrorCode[] = ['validation_failed', 'invalid_cursor', 'insufficient_credits'];

const CHAT: readonly Scope[] = ['conversations:chat'];
const KNOWLEDGE_READ: readonly Scope[] = ['knowledge:read', 'knowledge:write'];
const KNOWLEDGE_WRITE: readonly Scope[] = ['knowledge:write'];

const TURN_RESPONSES: Route['responses'] = {
  200: { schema: R.MessageReplyResponse, description: 'The assistant reply; `meta.creditsConsumed` is the turn total.' },
  202: {
    schema: R.ProcessingReplyResponse,
    description:
      'The reply is being produced: callback mode (`messageId` null, delivered to the callback URL), a turn slower than the sync wait (it lands in the history under `messageId`), or a session handed off to a person (`messageId` null, the session\'s `handoff` set): the AI stays silent, the message is stored and nothing is billed; the person\'s reply comes as `message.created` on the session event stream, to the callback URL of the server key that created the session, and in the history.',
  },
};

const conversation = '/widgets/{widgetId}/conversations/{sessionId}';

/** Every endpoint the HTTP app mounts (spec section 4), in the order a client meets them; the admin API last. */
export const ROUTES: readonly Route[] = [
  {
    method: 'post',
    path: '/widgets/{widgetId}/conversations',
    operationId: 'createSession',
    tag: 'Sessions',
    summary: 'Create or resume a session',
    description:
      'Creates a session for a visitor (201, with `Location`). Sending the `sessionId` of a session that is still active resumes it (200, `resumed: true`); the id of a resolved or expired session is refused (409). A session created with a verified identity is bound to it: another caller gets 403 `identity_mismatch`.',
    auth: 'key',
    scopes: CHAT,
    identityToken: true,
    body: { schema: createSessionRequestSchema, required: true },
    responses: {
      201: { schema: R.CreatedSessionResponse, description: 'A new session.' },
      200: { schema: R.CreatedSessionResponse, description: 'The active session with this `sessionId`, resumed.' },
    },
    errors: [...KEYED, ...JSON_POST, ...IDENTITY_TOKEN, 'widget_not_found', 'insufficient_credits', 'session_id_taken', 'identity_mismatch'],
    location: (data: { sessionId: string }) => data.sessionId,
    handler: ({ core, caller, params, body }) => core.api.createSession(caller, params.widgetId!, body),
  },
  {
    method: 'post',
    path: `${conversation}/messages`,
    operationId: 'sendMessage',
    tag: 'Messages',
    summary: 'Send a visitor message',
    description:
      'Runs a turn: stores the message, asks the AI and answers with its reply (`sync`, the default), or answers 202 at once and delivers the reply to the callback URL (`callback`; see the `message.completed` and `message.failed` webhooks). `identity` needs the `identity:assert` scope and applies to this call only.',
    auth: 'key',
    scopes: CHAT,
    identityToken: true,
    body: { schema: sendMessageRequestSchema, required: true },
    responses: TURN_RESPONSES,
    errors: [...KEYED, ...JSON_POST, ...SESSION, ...TURN],
    handler: async ({ core, caller, params, body, c }) => {
      // The Idempotency-Key is recorded in the transaction that accepts the turn (DESIGN.md section 3a).
      const idempotency = await turnIdempotency(c);
      const run = (observer?: TurnObserver) => core.api.sendMessage(caller, params.widgetId!, params.sessionId!, body, observer, { idempotency });
      return body?.['response_type'] === 'stream' ? streamTurn(c, run, c.var.server.stream) : run();
    },
  },
  {
    method: 'get',
    path: `${conversation}/messages`,
    operationId: 'listMessages',
    tag: 'Messages',
    summary: 'Read the message history',
    description: 'One page of the history, oldest first. Repeat with `pagination.cursor` while `pagination.hasMore` is true.',
    auth: 'key',
    scopes: CHAT,
    identityToken: true,
    paginated: true,
    responses: { 200: { schema: R.HistoryPage, description: 'A page of history items.' } },
    errors: [...KEYED, ...SESSION, ...PAGE],
    handler: ({ core, caller, params, query }) => core.api.listMessages(caller, params.widgetId!, params.sessionId!, query),
  },
  {
    method: 'post',
    path: `${conversation}/form-submissions`,
    operationId: 'submitForm',
    tag: 'Forms',
    summary: 'Submit answers to a surfaced form',
    description:
      'Answers the form a reply surfaced. The submission is checked against the pending form before any billing or AI run (400 `form_rejected` naming the question); an accepted one runs a turn like a message.',
    auth: 'key',
    scopes: CHAT,
    identityToken: true,
    body: { schema: formSubmissionRequestSchema, required: true },
    responses: TURN_RESPONSES,
    errors: [...KEYED, ...JSON_POST, ...SESSION, ...TURN, 'form_rejected'],
    handler: async ({ core, caller, params, body, c }) => {
      // The Idempotency-Key is recorded in the transaction that accepts the turn (DESIGN.md section 3a).
      const idempotency = await turnIdempotency(c);
      const run = (observer?: TurnObserver) => core.api.submitForm(caller, params.widgetId!, params.sessionId!, body, observer, { idempotency });
      return body?.['response_type'] === 'stream' ? streamTurn(c, run, c.var.server.stream) : run();
    },
  },
  {
    method: 'post',
    path: `${conversation}/chat`,
    operationId: 'chat',
    tag: 'Messages',
    summary: 'Send a visitor message from the AI SDK (useChat)',
    description:
      'The Vercel AI SDK UI message stream protocol, so `useChat` with `DefaultChatTransport` talks to the service directly: the text of the last (user) message runs a streamed turn.',
    auth: 'key',
    scopes: CHAT,
    identityToken: true,
    // The AI SDK's own body: read here, validated by parseChatRequest; the document describes it (openapi/stream-docs.ts).
    body: { schema: z.looseObject({}), required: true },
    responses: {},
    errors: [...KEYED, ...JSON_POST, ...SESSION, ...TURN],
    document: false,
    handler: async ({ core, caller, params, body, c }) =>
      chatTurn(c, { core, principal: caller, widgetId: params.widgetId!, sessionId: params.sessionId!, body, idempotency: await turnIdempotency(c) }, c.var.server.stream),
  },
  {
    method: 'post',
    path: `${conversation}/end`,
    operationId: 'endSession',
    tag: 'Sessions',
    summary: 'End a session',
    description: 'Resolves the session; no messages can be sent afterwards. Ending a resolved session again answers its original `resolvedAt` at no cost.',
    auth: 'key',
    scopes: CHAT,
    identityToken: true,
    responses: { 200: { schema: R.EndedSessionResponse, description: 'The resolved session.' } },
    errors: [...KEYED, ...JSON_POST, ...SESSION, 'session_not_active'],
    handler: ({ core, caller, params }) => core.api.endSession(caller, params.widgetId!, params.sessionId!),
  },
  {
    method: 'post',
    path: `${conversation}/rate`,
    operationId: 'rateSession',
    tag: 'Sessions',
    summary: 'Rate a session',
    description: 'Rates a resolved or expired session; rating again replaces the rating. An active session answers 409 `session_active`.',
    auth: 'key',
    scopes: CHAT,
    identityToken: true,
    body: { schema: rateSessionRequestSchema, required: true },
    responses: { 200: { schema: R.RatedSessionResponse, description: 'The rating now on the session.' } },
    errors: [...KEYED, ...JSON_POST, ...SESSION, 'session_active'],
    handler: ({ core, caller, params, body }) => core.api.rateSession(caller, params.widgetId!, params.sessionId!, body),
  },
  {
    method: 'get',
    path: conversation,
    operationId: 'getSession',
    tag: 'Sessions',
    summary: 'Read a session',
    description: 'The session state: status, message count, rating, timestamps, and `handoff` (null while the AI answers; `requested` or `active` while a person has the conversation).',
    auth: 'key',
    scopes: CHAT,
    identityToken: true,
    responses: { 200: { schema: R.SessionResponse, description: 'The session.' } },
    errors: [...KEYED, ...SESSION],
    handler: ({ core, caller, params }) => core.api.getSession(caller, params.widgetId!, params.sessionId!),
  },
  {
    method: 'get',
    path: `${conversation}/events`,
    operationId: 'streamSessionEvents',
    tag: 'Sessions',
    summary: 'Follow a session live',
    description: [
      'Server-sent events (`text/event-stream`) of the session from now on: `message.created` (data: the history item, with `author` `{ type: "operator", name }`) for replies a person writes during a handoff, and `session.updated` (data: the session as get-session shows it) on every change of status, handoff or rating.',
      'Each event has an `id:`; reconnecting with the `Last-Event-ID` header resumes right after it, with no event missed or repeated (browsers\' `EventSource` does this itself). Without the header the stream starts at the newest event, with no backlog. A comment line (`: ping`) every 15 s keeps the connection open.',
      'Free. At most 3 streams of one session and 1,000 per API key may be open at once (per server instance); one more is refused with 429 `rate_limited`.',
    ].join('\n\n'),
    auth: 'key',
    scopes: CHAT,
    identityToken: true,
    responses: {
      200: {
        schema: z.string().describe('`id: <event id>`, `event: message.created | session.updated`, `data: <JSON>` per event.'),
        description: 'The event stream.',
        contentType: 'text/event-stream',
      },
    },
    errors: [...KEYED, ...IDENTITY_TOKEN, 'widget_not_found', 'session_not_found', 'identity_mismatch'],
    handler: ({ core, caller, params, c }) =>
      sessionEventStream(c, { core, principal: caller, widgetId: params.widgetId!, sessionId: params.sessionId! }, c.var.server.eventStreams),
  },
  {
    method: 'get',
    path: '/widget/config',
    operationId: 'getWidgetConfig',
    tag: 'Widget',
    summary: "Read the widget's configuration",
    description:
      'What the embedded widget learns from its key: the widget id, name, greeting, language and theme defaults. Only for a widget public key (`pk_live_…`) sent from one of its allowed origins (the response then carries `Access-Control-Allow-Origin`); a server key answers 403 `insufficient_scope`. Free.',
    auth: 'key',
    responses: { 200: { schema: R.WidgetConfigResponse, description: "The key's widget." } },
    errors: [...KEYED, 'widget_not_found'],
    handler: ({ core, caller }) => core.api.getWidgetConfig(caller),
  },
  {
    method: 'post',
    path: '/knowledge-bases',
    operationId: 'createKnowledgeBase',
    tag: 'Knowledge bases',
    summary: 'Create a knowledge base',
    description: "Creates an empty knowledge base in the key's account (201, with `Location`). Needs `knowledge:write`; free.",
    auth: 'key',
    scopes: KNOWLEDGE_WRITE,
    body: { schema: createKnowledgeBaseRequestSchema, required: true },
    responses: { 201: { schema: R.KnowledgeBaseResponse, description: 'The new knowledge base.' } },
    errors: [...KEYED, ...JSON_POST],
    location: (data: { id: string }) => data.id,
    handler: ({ core, caller, body }) => core.api.knowledge.create(caller, body),
  },
  {
    method: 'get',
    path: '/knowledge-bases',
    operationId: 'listKnowledgeBases',
    tag: 'Knowledge bases',
    summary: 'List knowledge bases',
    description: "One page of the account's knowledge bases, oldest first, with `pagination.total`. Needs `knowledge:read` or `knowledge:write`; free.",
    auth: 'key',
    scopes: KNOWLEDGE_READ,
    paginated: true,
    responses: { 200: { schema: R.KnowledgeBasePage, description: 'A page of knowledge bases.' } },
    errors: [...KEYED, 'validation_failed', 'invalid_cursor'],
    handler: ({ core, caller, query }) => core.api.knowledge.list(caller, query),
  },
  {
    method: 'get',
    path: '/knowledge-bases/{kbId}',
    operationId: 'getKnowledgeBase',
    tag: 'Knowledge bases',
    summary: 'Read a knowledge base',
    description: 'The knowledge base with how many products and documents it holds. Needs `knowledge:read` or `knowledge:write`; free.',
    auth: 'key',
    scopes: KNOWLEDGE_READ,
    responses: { 200: { schema: R.KnowledgeBaseDetailResponse, description: 'The knowledge base and its counts.' } },
    errors: [...KEYED, ...PATH_IDS, 'knowledge_base_not_found'],
    handler: ({ core, caller, params }) => core.api.knowledge.get(caller, params.kbId!),
  },
  {
    method: 'get',
    path: '/knowledge-bases/{kbId}/products',
    operationId: 'listProducts',
    tag: 'Knowledge bases',
    summary: "List a knowledge base's products",
    description: 'One page of products, ordered by id, with `pagination.total`. Needs `knowledge:read` or `knowledge:write`.',
    auth: 'key',
    scopes: KNOWLEDGE_READ,
    paginated: true,
    responses: { 200: { schema: R.ProductPage, description: 'A page of products.' } },
    errors: [...KEYED, 'knowledge_base_not_found', ...PAGE],
    handler: ({ core, caller, params, query }) => core.api.listProducts(caller, params.kbId!, query),
  },
  {
    method: 'post',
    path: '/knowledge-bases/{kbId}/products',
    operationId: 'upsertProducts',
    tag: 'Knowledge bases',
    summary: 'Add or replace products in bulk',
    description:
      'Upserts 1-1000 products by `id`: a new id adds a product, a known one replaces it whole. An id may appear once per request (400 naming `products.<index>.id`). Needs `knowledge:write`; free.',
    auth: 'key',
    scopes: KNOWLEDGE_WRITE,
    body: { schema: upsertProductsRequestSchema, required: true },
    responses: { 200: { schema: R.UpsertedProductsResponse, description: 'How many products were written.' } },
    errors: [...KEYED, ...JSON_POST, 'knowledge_base_not_found'],
    handler: ({ core, caller, params, body }) => core.api.knowledge.upsertProducts(caller, params.kbId!, body),
  },
  {
    method: 'put',
    path: '/knowledge-bases/{kbId}/products/{productId}',
    operationId: 'putProduct',
    tag: 'Knowledge bases',
    summary: 'Add or replace one product',
    description: 'Writes the product named by the path, replacing it whole if it exists. Needs `knowledge:write`; free.',
    auth: 'key',
    scopes: KNOWLEDGE_WRITE,
    body: { schema: productBodySchema, required: true },
    responses: { 200: { schema: R.ProductResponse, description: 'The product as stored, with its id.' } },
    errors: [...KEYED, ...JSON_BODY, 'knowledge_base_not_found'],
    handler: ({ core, caller, params, body }) => core.api.knowledge.putProduct(caller, params.kbId!, params.productId!, body),
  },
  {
    method: 'delete',
    path: '/knowledge-bases/{kbId}/products/{productId}',
    operationId: 'deleteProduct',
    tag: 'Knowledge bases',
    summary: 'Delete a product',
    description: 'Removes the product; the AI no longer finds it. Deleting it again answers 404 `product_not_found`. Needs `knowledge:write`; free.',
    auth: 'key',
    scopes: KNOWLEDGE_WRITE,
    responses: { 200: { schema: R.DeletedResponse, description: 'The product was deleted.' } },
    errors: [...KEYED, ...PATH_IDS, 'knowledge_base_not_found', 'product_not_found'],
    handler: ({ core, caller, params }) => core.api.knowledge.deleteProduct(caller, params.kbId!, params.productId!),
  },
  {
    method: 'get',
    path: '/knowledge-bases/{kbId}/documents',
    operationId: 'listDocuments',
    tag: 'Knowledge bases',
    summary: "List a knowledge base's documents",
    description:
      'One page of documents, oldest first, with `pagination.total`; items carry no content. Needs `knowledge:read` or `knowledge:write`; billed like a products page.',
    auth: 'key',
    scopes: KNOWLEDGE_READ,
    paginated: true,
    responses: { 200: { schema: R.DocumentPage, description: 'A page of documents.' } },
    errors: [...KEYED, 'knowledge_base_not_found', ...PAGE],
    handler: ({ core, caller, params, query }) => core.api.knowledge.listDocuments(caller, params.kbId!, query),
  },
  {
    method: 'post',
    path: '/knowledge-bases/{kbId}/documents',
    operationId: 'addDocument',
    tag: 'Knowledge bases',
    summary: 'Add a document',
    description: 'Adds a text document (201, with `Location`); it is split into passages the AI answers from at once. Needs `knowledge:write`; free.',
    auth: 'key',
    scopes: KNOWLEDGE_WRITE,
    body: { schema: documentRequestSchema, required: true },
    responses: { 201: { schema: R.DocumentResponse, description: 'The new document (without its content).' } },
    errors: [...KEYED, ...JSON_POST, 'knowledge_base_not_found'],
    location: (data: { id: string }) => data.id,
    handler: ({ core, caller, params, body }) => core.api.knowledge.addDocument(caller, params.kbId!, body),
  },
  {
    method: 'put',
    path: '/knowledge-bases/{kbId}/documents/{documentId}',
    operationId: 'replaceDocument',
    tag: 'Knowledge bases',
    summary: 'Replace a document',
    description:
      "Replaces the document's title, content and url under the same id: its old passages are gone and the new ones are searched at once. Needs `knowledge:write`; free.",
    auth: 'key',
    scopes: KNOWLEDGE_WRITE,
    body: { schema: documentRequestSchema, required: true },
    responses: { 200: { schema: R.DocumentResponse, description: 'The document as replaced.' } },
    errors: [...KEYED, ...JSON_BODY, 'knowledge_base_not_found', 'document_not_found'],
    handler: ({ core, caller, params, body }) => core.api.knowledge.replaceDocument(caller, params.kbId!, params.documentId!, body),
  },
  {
    method: 'delete',
    path: '/knowledge-bases/{kbId}/documents/{documentId}',
    operationId: 'deleteDocument',
    tag: 'Knowledge bases',
    summary: 'Delete a document',
    description: 'Removes the document and its passages. Deleting it again answers 404 `document_not_found`. Needs `knowledge:write`; free.',
    auth: 'key',
    scopes: KNOWLEDGE_WRITE,
    responses: { 200: { schema: R.DeletedResponse, description: 'The document was deleted.' } },
    errors: [...KEYED, ...PATH_IDS, 'knowledge_base_not_found', 'document_not_found'],
    handler: ({ core, caller, params }) => core.api.knowledge.deleteDocument(caller, params.kbId!, params.documentId!),
  },
  {
    method: 'post',
    path: '/knowledge-bases/{kbId}/search',
    operationId: 'searchKnowledge',
    tag: 'Knowledge bases',
    summary: 'Search a knowledge base',
    description:
      "The ranked passages and products the AI's retrieval finds for a query: what it would read to answer. Needs `knowledge:read` or `knowledge:write`; billed as a retrieval.",
    auth: 'key',
    scopes: KNOWLEDGE_READ,
    body: { schema: knowledgeSearchRequestSchema, required: true },
    responses: { 200: { schema: R.KnowledgeSearchResponse, description: 'Passages and products, best first.' } },
    errors: [...KEYED, ...JSON_POST, 'knowledge_base_not_found', 'insufficient_credits'],
    handler: ({ core, caller, params, body }) => core.api.knowledge.search(caller, params.kbId!, body),
  },
  {
    method: 'get',
    path: '/healthz',
    operationId: 'getHealth',
    tag: 'Operations',
    summary: 'Health check',
    description: 'Answers 200 once the server can reach its database; for load balancers and orchestrators. Needs no key; answers HEAD too.',
    auth: 'none',
    head: true,
    responses: { 200: { schema: healthSchema, description: 'The server and its database are up.' } },
    errors: ['internal_error'],
    handler: async ({ c }) => {
      // A real round trip to the store, so a lost database shows up here and not on a visitor's message.
      await c.var.server.operations.ping();
      return c.json({ status: 'ok' });
    },
  },
  {
    method: 'get',
    path: '/readyz',
    operationId: 'getReadiness',
    tag: 'Operations',
    summary: 'Readiness probe',
    description: '200 when the database answers and its migrations are current; 503 otherwise, and at once after SIGTERM (draining). For orchestrators and load balancers.',
    auth: 'none',
    head: true,
    // An orchestrator probe (README "Production"), not part of the API a client programs against.
    document: false,
    responses: { 200: { schema: z.object({}).loose(), description: 'Ready.' } },
    errors: [],
    handler: async ({ c }) => readiness(c, c.var.server.operations),
  },
  {
    method: 'get',
    path: '/metrics',
    operationId: 'getMetrics',
    tag: 'Operations',
    summary: 'Prometheus metrics',
    description: 'HTTP requests by route and status with latency histograms, turns, agent latency, queue depth, deliveries by outcome, pool use.',
    auth: 'none',
    document: false,
    responses: { 200: { schema: z.string(), description: 'The Prometheus text format.', contentType: 'text/plain' } },
    errors: [],
    handler: async ({ c }) => metricsText(c, c.var.server.operations),
  },
  {
    method: 'get',
    path: '/openapi.json',
    operationId: 'getOpenApiDocument',
    tag: 'Operations',
    summary: 'This document',
    description: 'The OpenAPI 3.1 document of the API, generated from the route table.',
    auth: 'none',
    head: true,
    document: false,
    responses: { 200: { schema: z.object({}).loose(), description: 'The document.' } },
    errors: [],
    handler: async ({ c }) => c.json(c.var.server.openApiDocument()),
  },
  {
    method: 'get',
    path: '/docs',
    operationId: 'getDocsPage',
    tag: 'Operations',
    summary: 'The API reference page',
    description: 'An HTML page rendering this document.',
    auth: 'none',
    head: true,
    document: false,
    responses: { 200: { schema: z.string(), description: 'The page.', contentType: 'text/html' } },
    errors: [],
    // The relative spec URL keeps working when the app is mounted under a path.
    handler: async ({ c }) => c.html(docsPageHtml('openapi.json')),
  },
  ...ADMIN_ROUTES,
];

/** `/widgets/{widgetId}` → `/widgets/:widgetId` (Hono's form). */
export const honoPath = (path: string): string => path.replace(/\{(\w+)\}/g, ':$1');

/** The path parameters a template names, in order. */
export const pathParameters = (path: string): PathParameter[] =>
  [...path.matchAll(/\{(\w+)\}/g)].map((match) => {
    if (!(match[1]! in PATH_PARAMETERS)) throw new Error(`Route ${path}: add {${match[1]}} to PATH_PARAMETERS.`);
    return match[1] as PathParameter;
  });

/** Each template split once, and filed by its number of segments: every request asks (the 405 check). */
const compiledTables = new WeakMap<readonly Route[], Map<number, Array<{ route: Route; segments: Array<string | null> }>>>();

function compiled(routes: readonly Route[]): Map<number, Array<{ route: Route; segments: Array<string | null> }>> {
  let table = compiledTables.get(routes);
  if (!table) {
    table = new Map();
    for (const route of routes) {
      // null stands for a `{parameter}` segment, which matches any non-empty segment.
      const segments = route.path.split('/').map((segment) => (/^\{\w+\}$/.test(segment) ? null : segment));
      table.set(segments.length, [...(table.get(segments.length) ?? []), { route, segments }]);
    }
    compiledTables.set(routes, table);
  }
  return table;
}

/** The `Allow` value for a request path, from the table (HEAD only where the route answers it). */
export function allowedMethods(routes: readonly Route[], path: string): string[] {
  const methods = new Set<string>();
  const got = path.split('/');
  for (const { route, segments } of compiled(routes).get(got.length) ?? []) {
    if (!segments.every((segment, i) => (segment === null ? got[i] !== '' : segment === got[i]))) continue;
    methods.add(route.method.toUpperCase());
    if (route.head) methods.add('HEAD');
    // Browsers preflight keyed routes (CORS).
    if (route.auth === 'key') methods.add('OPTIONS');
  }
  const order = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
  return order.filter((method) => methods.has(method));
}
