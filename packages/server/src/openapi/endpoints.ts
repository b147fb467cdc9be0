import type { ErrorCode, Scope } from '@svc/core';
import type { ComponentName } from './components.js';

export type Method = 'get' | 'post' | 'put' | 'delete';
export type PathParameter = 'widgetId' | 'sessionId' | 'kbId' | 'productId' | 'documentId';

/** One endpoint of the HTTP app, as the document describes it. */
export interface Endpoint {
  method: Method;
  /** OpenAPI path template; the route coverage test matches it against the Hono app's routes. */
  path: string;
  operationId: string;
  tag: 'Sessions' | 'Messages' | 'Forms' | 'Knowledge bases' | 'Widget' | 'Operations';
  summary: string;
  description: string;
  pathParameters: PathParameter[];
  /** `limit` and `cursor` (spec 4.7). */
  paginated?: boolean;
  body?: { schema: ComponentName; required: boolean };
  /** Success statuses and their envelope. */
  responses: Partial<Record<200 | 201 | 202, { schema: ComponentName; description: string }>>;
  /** Every failure the endpoint can answer; statuses come from core's ERROR_STATUS. */
  errors: ErrorCode[];
  /** The key needs one of these scopes; documented as the security requirement's roles (OpenAPI 3.1). */
  scopes?: readonly Scope[];
  /** Callable with a widget public key, which may carry the visitor's identity token (`X-Identity-Token`). */
  identityToken?: boolean;
  /** `GET /healthz` needs no key. */
  public?: boolean;
}

// Failures shared by groups of endpoints (DESIGN.md section 4). Every key goes through the same check, so a
// public (widget) key is refused from an origin it does not allow on any endpoint.
const KEYED: ErrorCode[] = ['missing_api_key', 'invalid_api_key', 'insufficient_scope', 'origin_not_allowed', 'rate_limited', 'internal_error'];
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

const SESSION_PARAMS: PathParameter[] = ['widgetId', 'sessionId'];
const TURN_RESPONSES: Endpoint['responses'] = {
  200: { schema: 'MessageReplyResponse', description: 'The assistant reply; `meta.creditsConsumed` is the turn total.' },
  202: {
    schema: 'ProcessingReplyResponse',
    description:
      'The reply is being produced: callback mode (`messageId` null, delivered to the callback URL), or a turn slower than the sync wait (it lands in the history under `messageId`).',
  },
};

const conversation = '/widgets/{widgetId}/conversations/{sessionId}';

/** Every endpoint the HTTP app mounts (spec section 4), in the order a client meets them. */
export const ENDPOINTS: readonly Endpoint[] = [
  {
    method: 'post',
    path: '/widgets/{widgetId}/conversations',
    operationId: 'createSession',
    tag: 'Sessions',
    summary: 'Create or resume a session',
    description:
      'Creates a session for a visitor (201). Sending the `sessionId` of a session that is still active resumes it (200, `resumed: true`); the id of a resolved or expired session is refused (409).',
    pathParameters: ['widgetId'],
    scopes: CHAT,
    identityToken: true,
    body: { schema: 'CreateSessionRequest', required: true },
    responses: {
      201: { schema: 'CreatedSessionResponse', description: 'A new session.' },
      200: { schema: 'CreatedSessionResponse', description: 'The active session with this `sessionId`, resumed.' },
    },
    errors: [...KEYED, ...JSON_POST, ...IDENTITY_TOKEN, 'widget_not_found', 'insufficient_credits', 'session_id_taken'],
  },
  {
    method: 'post',
    path: `${conversation}/messages`,
    operationId: 'sendMessage',
    tag: 'Messages',
    summary: 'Send a visitor message',
    description:
      'Runs a turn: stores the message, asks the AI and answers with its reply (`sync`, the default), or answers 202 at once and delivers the reply to the callback URL (`callback`). `identity` needs the `identity:assert` scope and applies to this call only.',
    pathParameters: SESSION_PARAMS,
    scopes: CHAT,
    identityToken: true,
    body: { schema: 'SendMessageRequest', required: true },
    responses: TURN_RESPONSES,
    errors: [...KEYED, ...JSON_POST, ...SESSION, ...TURN],
  },
  {
    method: 'get',
    path: `${conversation}/messages`,
    operationId: 'listMessages',
    tag: 'Messages',
    summary: 'Read the message history',
    description: 'One page of the history, oldest first. Repeat with `pagination.cursor` while `pagination.hasMore` is true.',
    pathParameters: SESSION_PARAMS,
    scopes: CHAT,
    identityToken: true,
    paginated: true,
    responses: { 200: { schema: 'HistoryPage', description: 'A page of history items.' } },
    errors: [...KEYED, ...SESSION, ...PAGE],
  },
  {
    method: 'post',
    path: `${conversation}/form-submissions`,
    operationId: 'submitForm',
    tag: 'Forms',
    summary: 'Submit answers to a surfaced form',
    description:
      'Answers the form a reply surfaced. The submission is checked against the pending form before any billing or AI run (400 `form_rejected` naming the question); an accepted one runs a turn like a message.',
    pathParameters: SESSION_PARAMS,
    scopes: CHAT,
    identityToken: true,
    body: { schema: 'FormSubmissionRequest', required: true },
    responses: TURN_RESPONSES,
    errors: [...KEYED, ...JSON_POST, ...SESSION, ...TURN, 'form_rejected'],
  },
  {
    method: 'post',
    path: `${conversation}/end`,
    operationId: 'endSession',
    tag: 'Sessions',
    summary: 'End a session',
    description: 'Resolves the session; no messages can be sent afterwards. Ending a resolved session again answers its original `resolvedAt` at no cost.',
    pathParameters: SESSION_PARAMS,
    scopes: CHAT,
    identityToken: true,
    responses: { 200: { schema: 'EndedSessionResponse', description: 'The resolved session.' } },
    errors: [...KEYED, ...JSON_POST, ...SESSION, 'session_not_active'],
  },
  {
    method: 'post',
    path: `${conversation}/rate`,
    operationId: 'rateSession',
    tag: 'Sessions',
    summary: 'Rate a session',
    description: 'Rates a resolved or expired session; rating again replaces the rating. An active session answers 409 `session_active`.',
    pathParameters: SESSION_PARAMS,
    scopes: CHAT,
    identityToken: true,
    body: { schema: 'RateSessionRequest', required: true },
    responses: { 200: { schema: 'RatedSessionResponse', description: 'The rating now on the session.' } },
    errors: [...KEYED, ...JSON_POST, ...SESSION, 'session_active'],
  },
  {
    method: 'get',
    path: conversation,
    operationId: 'getSession',
    tag: 'Sessions',
    summary: 'Read a session',
    description: 'The session state: status, message count, rating, timestamps.',
    pathParameters: SESSION_PARAMS,
    scopes: CHAT,
    identityToken: true,
    responses: { 200: { schema: 'SessionResponse', description: 'The session.' } },
    errors: [...KEYED, ...SESSION],
  },
  {
    method: 'get',
    path: '/widget/config',
    operationId: 'getWidgetConfig',
    tag: 'Widget',
    summary: "Read the widget's configuration",
    description:
      'What the embedded widget learns from its key: the widget id, name, greeting, language and theme defaults. Only for a widget public key (`pk_live_…`) sent from one of its allowed origins (the response then carries `Access-Control-Allow-Origin`); a server key answers 403 `insufficient_scope`. Free.',
    pathParameters: [],
    responses: { 200: { schema: 'WidgetConfigResponse', description: "The key's widget." } },
    errors: [...KEYED, 'widget_not_found'],
  },
  {
    method: 'post',
    path: '/knowledge-bases',
    operationId: 'createKnowledgeBase',
    tag: 'Knowledge bases',
    summary: 'Create a knowledge base',
    description: "Creates an empty knowledge base in the key's account. Needs `knowledge:write`; free.",
    pathParameters: [],
    scopes: KNOWLEDGE_WRITE,
    body: { schema: 'CreateKnowledgeBaseRequest', required: true },
    responses: { 201: { schema: 'KnowledgeBaseResponse', description: 'The new knowledge base.' } },
    errors: [...KEYED, ...JSON_POST],
  },
  {
    method: 'get',
    path: '/knowledge-bases',
    operationId: 'listKnowledgeBases',
    tag: 'Knowledge bases',
    summary: 'List knowledge bases',
    description: "One page of the account's knowledge bases, oldest first, with `pagination.total`. Needs `knowledge:read` or `knowledge:write`; free.",
    pathParameters: [],
    scopes: KNOWLEDGE_READ,
    paginated: true,
    responses: { 200: { schema: 'KnowledgeBasePage', description: 'A page of knowledge bases.' } },
    errors: [...KEYED, 'validation_failed', 'invalid_cursor'],
  },
  {
    method: 'get',
    path: '/knowledge-bases/{kbId}',
    operationId: 'getKnowledgeBase',
    tag: 'Knowledge bases',
    summary: 'Read a knowledge base',
    description: 'The knowledge base with how many products and documents it holds. Needs `knowledge:read` or `knowledge:write`; free.',
    pathParameters: ['kbId'],
    scopes: KNOWLEDGE_READ,
    responses: { 200: { schema: 'KnowledgeBaseDetailResponse', description: 'The knowledge base and its counts.' } },
    errors: [...KEYED, 'knowledge_base_not_found'],
  },
  {
    method: 'get',
    path: '/knowledge-bases/{kbId}/products',
    operationId: 'listProducts',
    tag: 'Knowledge bases',
    summary: "List a knowledge base's products",
    description: 'One page of products, ordered by id, with `pagination.total`. Needs `knowledge:read` or `knowledge:write`.',
    pathParameters: ['kbId'],
    scopes: KNOWLEDGE_READ,
    paginated: true,
    responses: { 200: { schema: 'ProductPage', description: 'A page of products.' } },
    errors: [...KEYED, 'knowledge_base_not_found', ...PAGE],
  },
  {
    method: 'post',
    path: '/knowledge-bases/{kbId}/products',
    operationId: 'upsertProducts',
    tag: 'Knowledge bases',
    summary: 'Add or replace products in bulk',
    description:
      'Upserts 1-1000 products by `id`: a new id adds a product, a known one replaces it whole. An id may appear once per request (400 naming `products.<index>.id`). Needs `knowledge:write`; free.',
    pathParameters: ['kbId'],
    scopes: KNOWLEDGE_WRITE,
    body: { schema: 'UpsertProductsRequest', required: true },
    responses: { 200: { schema: 'UpsertedProductsResponse', description: 'How many products were written.' } },
    errors: [...KEYED, ...JSON_POST, 'knowledge_base_not_found'],
  },
  {
    method: 'put',
    path: '/knowledge-bases/{kbId}/products/{productId}',
    operationId: 'putProduct',
    tag: 'Knowledge bases',
    summary: 'Add or replace one product',
    description: 'Writes the product named by the path, replacing it whole if it exists. Needs `knowledge:write`; free.',
    pathParameters: ['kbId', 'productId'],
    scopes: KNOWLEDGE_WRITE,
    body: { schema: 'ProductBody', required: true },
    responses: { 200: { schema: 'ProductResponse', description: 'The product as stored, with its id.' } },
    errors: [...KEYED, ...JSON_BODY, 'knowledge_base_not_found'],
  },
  {
    method: 'delete',
    path: '/knowledge-bases/{kbId}/products/{productId}',
    operationId: 'deleteProduct',
    tag: 'Knowledge bases',
    summary: 'Delete a product',
    description: 'Removes the product; the AI no longer finds it. Deleting it again answers 404 `product_not_found`. Needs `knowledge:write`; free.',
    pathParameters: ['kbId', 'productId'],
    scopes: KNOWLEDGE_WRITE,
    responses: { 200: { schema: 'DeletedResponse', description: 'The product was deleted.' } },
    errors: [...KEYED, 'knowledge_base_not_found', 'product_not_found'],
  },
  {
    method: 'get',
    path: '/knowledge-bases/{kbId}/documents',
    operationId: 'listDocuments',
    tag: 'Knowledge bases',
    summary: "List a knowledge base's documents",
    description:
      'One page of documents, oldest first, with `pagination.total`; items carry no content. Needs `knowledge:read` or `knowledge:write`; billed like a products page.',
    pathParameters: ['kbId'],
    scopes: KNOWLEDGE_READ,
    paginated: true,
    responses: { 200: { schema: 'DocumentPage', description: 'A page of documents.' } },
    errors: [...KEYED, 'knowledge_base_not_found', ...PAGE],
  },
  {
    method: 'post',
    path: '/knowledge-bases/{kbId}/documents',
    operationId: 'addDocument',
    tag: 'Knowledge bases',
    summary: 'Add a document',
    description: 'Adds a text document; it is split into passages the AI answers from at once. Needs `knowledge:write`; free.',
    pathParameters: ['kbId'],
    scopes: KNOWLEDGE_WRITE,
    body: { schema: 'DocumentRequest', required: true },
    responses: { 201: { schema: 'DocumentResponse', description: 'The new document (without its content).' } },
    errors: [...KEYED, ...JSON_POST, 'knowledge_base_not_found'],
  },
  {
    method: 'put',
    path: '/knowledge-bases/{kbId}/documents/{documentId}',
    operationId: 'replaceDocument',
    tag: 'Knowledge bases',
    summary: 'Replace a document',
    description:
      "Replaces the document's title, content and url under the same id: its old passages are gone and the new ones are searched at once. Needs `knowledge:write`; free.",
    pathParameters: ['kbId', 'documentId'],
    scopes: KNOWLEDGE_WRITE,
    body: { schema: 'DocumentRequest', required: true },
    responses: { 200: { schema: 'DocumentResponse', description: 'The document as replaced.' } },
    errors: [...KEYED, ...JSON_BODY, 'knowledge_base_not_found', 'document_not_found'],
  },
  {
    method: 'delete',
    path: '/knowledge-bases/{kbId}/documents/{documentId}',
    operationId: 'deleteDocument',
    tag: 'Knowledge bases',
    summary: 'Delete a document',
    description: 'Removes the document and its passages. Deleting it again answers 404 `document_not_found`. Needs `knowledge:write`; free.',
    pathParameters: ['kbId', 'documentId'],
    scopes: KNOWLEDGE_WRITE,
    responses: { 200: { schema: 'DeletedResponse', description: 'The document was deleted.' } },
    errors: [...KEYED, 'knowledge_base_not_found', 'document_not_found'],
  },
  {
    method: 'post',
    path: '/knowledge-bases/{kbId}/search',
    operationId: 'searchKnowledge',
    tag: 'Knowledge bases',
    summary: 'Search a knowledge base',
    description:
      "The ranked passages and products the AI's retrieval finds for a query: what it would read to answer. Needs `knowledge:read` or `knowledge:write`; billed as a retrieval.",
    pathParameters: ['kbId'],
    scopes: KNOWLEDGE_READ,
    body: { schema: 'KnowledgeSearchRequest', required: true },
    responses: { 200: { schema: 'KnowledgeSearchResponse', description: 'Passages and products, best first.' } },
    errors: [...KEYED, ...JSON_POST, 'knowledge_base_not_found', 'insufficient_credits'],
  },
  {
    method: 'get',
    path: '/healthz',
    operationId: 'getHealth',
    tag: 'Operations',
    summary: 'Health check',
    description: 'Answers 200 once the server can reach its database; for load balancers and orchestrators. Needs no key.',
    pathParameters: [],
    responses: { 200: { schema: 'Health', description: 'The server and its database are up.' } },
    errors: ['internal_error'],
    public: true,
  },
];
