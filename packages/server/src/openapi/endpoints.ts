import type { ErrorCode } from '@svc/core';
import type { ComponentName } from './components.js';

export type Method = 'get' | 'post';
export type PathParameter = 'widgetId' | 'sessionId' | 'kbId';

/** One endpoint of the HTTP app, as the document describes it. */
export interface Endpoint {
  method: Method;
  /** OpenAPI path template; the route coverage test matches it against the Hono app's routes. */
  path: string;
  operationId: string;
  tag: 'Sessions' | 'Messages' | 'Forms' | 'Knowledge bases' | 'Operations';
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
  /** `GET /healthz` needs no key. */
  public?: boolean;
}

// Failures shared by groups of endpoints (DESIGN.md section 4).
const KEYED: ErrorCode[] = ['missing_api_key', 'invalid_api_key', 'insufficient_scope', 'rate_limited', 'internal_error'];
const JSON_POST: ErrorCode[] = ['invalid_json', 'validation_failed', 'payload_too_large', 'unsupported_media_type', 'idempotency_key_reused'];
// A public (widget) key is also refused from an origin it does not allow, and on a session bound to another identity.
const SESSION: ErrorCode[] = ['widget_not_found', 'origin_not_allowed', 'session_not_found', 'identity_mismatch', 'insufficient_credits'];
const TURN: ErrorCode[] = ['identity_scope_required', 'invalid_identity', 'callback_not_configured', 'session_not_active', 'agent_unavailable'];
const PAGE: ErrorCode[] = ['validation_failed', 'invalid_cursor', 'insufficient_credits'];

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
    body: { schema: 'CreateSessionRequest', required: true },
    responses: {
      201: { schema: 'CreatedSessionResponse', description: 'A new session.' },
      200: { schema: 'CreatedSessionResponse', description: 'The active session with this `sessionId`, resumed.' },
    },
    errors: [...KEYED, ...JSON_POST, 'widget_not_found', 'origin_not_allowed', 'insufficient_credits', 'session_id_taken'],
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
    responses: { 200: { schema: 'SessionResponse', description: 'The session.' } },
    errors: [...KEYED, ...SESSION],
  },
  {
    method: 'get',
    path: '/knowledge-bases/{kbId}/products',
    operationId: 'listProducts',
    tag: 'Knowledge bases',
    summary: "List a knowledge base's products",
    description: 'One page of products, ordered by id, with `pagination.total`. Needs `knowledge:read` or `knowledge:write`.',
    pathParameters: ['kbId'],
    paginated: true,
    responses: { 200: { schema: 'ProductPage', description: 'A page of products.' } },
    errors: [...KEYED, 'knowledge_base_not_found', ...PAGE],
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
