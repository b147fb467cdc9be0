import {
  acceptHandoff,
  accountViewSchema,
  conversationFiltersSchema,
  conversationMessageSchema,
  conversationSchema,
  conversationSummarySchema,
  getConversation,
  listConversations,
  metaSchema,
  operatorReplyRequestSchema,
  releaseHandoff,
  replyAsOperator,
  resolveConversation,
  sessionSchema,
  changePassword,
  changePasswordRequestSchema,
  consoleSessionSchema,
  createOperator,
  createOperatorRequestSchema,
  describeConsoleSession,
  describeOperator,
  envelope,
  listOperators,
  loginRequestSchema,
  operatorSchema,
  parseInput,
  signIn,
  signOut,
  SvcError,
  type EngineResult,
  type ErrorCode,
  type OperatorRole,
} from '@svc/core';
import { z } from 'zod';
import { assertSameOrigin, clearConsoleCookie, setConsoleCookie, type AdminCaller } from './admin-auth.js';
import type { Route } from './routes.js';

/**
 * The admin API (`/admin/v1`, DESIGN.md section 10): the console's backend and a scriptable API for admin keys. Part
 * of the one route table (routes.ts spreads these in), so it is mounted, validated and documented like the rest.
 * Handlers only translate to core's operator operations, always on the caller's own account.
 */

const V1 = '/admin/v1';

// Every admin route can refuse the caller (no or bad credentials, a key without `admin`, a cookie write without
// its CSRF token, a role that may not) and is counted by the per-address request limit.
const ADMIN: ErrorCode[] = ['authentication_required', 'invalid_api_key', 'insufficient_scope', 'csrf_failed', 'insufficient_role', 'rate_limited', 'internal_error'];
const BODY: ErrorCode[] = ['invalid_json', 'validation_failed', 'payload_too_large', 'unsupported_media_type'];

export const OWNER: readonly OperatorRole[] = ['owner'];
/** Conversations and handoff: every operator's work. */
export const ANY_OPERATOR: readonly OperatorRole[] = ['owner', 'agent'];

const ok = <T>(data: T, status: 200 | 201 = 200): EngineResult<T> => ({ status, data, creditsConsumed: 0 });

/** The signed-in operator, for the routes that only make sense with a console session. */
function signedIn(admin: AdminCaller): NonNullable<Pick<AdminCaller, 'operator' | 'session'>> & { operator: NonNullable<AdminCaller['operator']>; session: NonNullable<AdminCaller['session']> } {
  if (!admin.operator || !admin.session) {
    throw new SvcError('insufficient_role', 'This is for operators signed in to the console, not for API keys.');
  }
  return { operator: admin.operator, session: admin.session };
}

const noContent: Route['responses'] = { 204: { description: 'Done; no body.' } };

/** Who answers in the operator's place: the operator, or an admin key under its name. */
const operatorRef = (admin: AdminCaller) => ({ id: admin.operator?.id ?? null, name: admin.name });

const conversation = `${V1}/conversations/{widgetId}/{sessionId}`;
const CONVERSATION: ErrorCode[] = ['validation_failed', 'widget_not_found', 'session_not_found'];

/** An operator's action on a conversation, answered with the session after it. */
const sessionAction = (action: Pick<Route, 'operationId' | 'summary' | 'description' | 'handler'> & { suffix: string }): Route => ({
  method: 'post',
  path: `${conversation}/${action.suffix}`,
  operationId: action.operationId,
  tag: 'admin',
  summary: action.summary,
  description: action.description,
  auth: 'admin',
  roles: ANY_OPERATOR,
  responses: { 200: { schema: envelope(sessionSchema), description: 'The session after the change.' } },
  errors: [...ADMIN, ...CONVERSATION, 'invalid_json', 'session_not_active'],
  handler: action.handler,
});

export const ADMIN_ROUTES: readonly Route[] = [
  {
    method: 'post',
    path: `${V1}/sessions`,
    operationId: 'adminSignIn',
    tag: 'admin',
    summary: 'Sign in to the console',
    description:
      "Checks an operator's email and password and sets the session cookie `svc_console` (HttpOnly, SameSite=Strict, Secure unless the server is reached on loopback). Answer: the operator and the CSRF token to send as `X-CSRF-Token` on every write. A wrong password and an unknown email get the same 401 `invalid_credentials`. After 5 failures for an email, or 20 from an address, within a 15-minute window: 429 with `Retry-After`.",
    auth: 'signin',
    body: { schema: loginRequestSchema, required: true },
    responses: { 200: { schema: envelope(consoleSessionSchema), description: 'Signed in; the cookie is set.' } },
    errors: [...BODY, 'invalid_credentials', 'csrf_failed', 'rate_limited', 'internal_error'],
    handler: async ({ c, operators, body, clientAddress }) => {
      // Login CSRF: a page elsewhere must not sign the browser in to an account of the attacker's.
      assertSameOrigin(c);
      const session = await signIn(operators, body, { address: clientAddress() });
      setConsoleCookie(c, session.token);
      return ok(describeConsoleSession(session));
    },
  },
  {
    method: 'delete',
    path: `${V1}/sessions/current`,
    operationId: 'adminSignOut',
    tag: 'admin',
    summary: 'Sign out',
    description: 'Ends the console session and clears its cookie.',
    auth: 'admin',
    roles: ANY_OPERATOR,
    responses: noContent,
    errors: ADMIN,
    handler: async ({ c, admin, operators }) => {
      await signOut(operators, signedIn(admin).session);
      clearConsoleCookie(c);
      return c.body(null, 204);
    },
  },
  {
    method: 'get',
    path: `${V1}/me`,
    operationId: 'adminGetMe',
    tag: 'admin',
    summary: 'Who is signed in',
    description: 'The signed-in operator and the CSRF token of the session (the console reads it again after a reload).',
    auth: 'admin',
    roles: ANY_OPERATOR,
    responses: { 200: { schema: envelope(consoleSessionSchema), description: 'The operator and the CSRF token.' } },
    errors: ADMIN,
    handler: async ({ admin }) => ok(describeConsoleSession(signedIn(admin))),
  },
  {
    method: 'put',
    path: `${V1}/me/password`,
    operationId: 'adminChangePassword',
    tag: 'admin',
    summary: 'Change your password',
    description:
      'Checks the current password (400 naming `currentPassword` when wrong; failures count towards the sign-in limit), sets the new one (12 characters or more) and ends every other session of the operator.',
    auth: 'admin',
    roles: ANY_OPERATOR,
    body: { schema: changePasswordRequestSchema, required: true },
    responses: noContent,
    errors: [...ADMIN, ...BODY],
    handler: async ({ c, admin, operators, body }) => {
      await changePassword(operators, signedIn(admin), body);
      return c.body(null, 204);
    },
  },
  {
    method: 'get',
    path: `${V1}/account`,
    operationId: 'adminGetAccount',
    tag: 'admin',
    summary: 'Your account',
    description: "The caller's account: name, credit balance and status.",
    auth: 'admin',
    responses: { 200: { schema: envelope(accountViewSchema), description: 'The account.' } },
    errors: ADMIN,
    handler: async ({ admin, operators }) => {
      const account = await operators.store.getAccount(admin.accountId);
      if (!account) throw new SvcError('not_found', `Account ${admin.accountId} was not found.`);
      return ok({ id: account.id, name: account.name, balance: account.balance, status: account.status });
    },
  },
  {
    method: 'get',
    path: `${V1}/operators`,
    operationId: 'adminListOperators',
    tag: 'admin',
    summary: "List the account's operators",
    description: 'Every operator of the account, oldest first. Password hashes are never shown.',
    auth: 'admin',
    responses: { 200: { schema: envelope(z.array(operatorSchema)), description: 'The operators.' } },
    errors: ADMIN,
    handler: async ({ admin, operators }) => ok((await listOperators(operators, admin.accountId)).map(describeOperator)),
  },
  {
    method: 'post',
    path: `${V1}/operators`,
    operationId: 'adminCreateOperator',
    tag: 'admin',
    summary: 'Add an operator',
    description:
      'Adds an operator to the account: `owner` (everything) or `agent` (conversations only, the default). The email is unique across the service (409 `email_taken`); the password needs 12 characters or more.',
    auth: 'admin',
    body: { schema: createOperatorRequestSchema, required: true },
    responses: { 201: { schema: envelope(operatorSchema), description: 'The new operator.' } },
    errors: [...ADMIN, ...BODY, 'email_taken'],
    handler: async ({ admin, operators, body }) => ok(describeOperator(await createOperator(operators, admin.accountId, body)), 201),
  },
  {
    method: 'get',
    path: `${V1}/conversations`,
    operationId: 'adminListConversations',
    tag: 'admin',
    summary: 'List conversations',
    description:
      "The account's sessions, newest first, each with the start of its last message: the console's inbox. Filter by widget, status, handoff (`requested`, `active`, `none`), rating and creation time; `meta.nextCursor` pages on (null on the last page).",
    auth: 'admin',
    roles: ANY_OPERATOR,
    query: conversationFiltersSchema,
    responses: {
      200: {
        schema: z.object({ data: z.array(conversationSummarySchema), meta: metaSchema.extend({ nextCursor: z.string().nullable() }) }),
        description: 'A page of conversations.',
      },
    },
    errors: [...ADMIN, 'validation_failed'],
    handler: async ({ c, admin, conversations, query }) => {
      const page = await listConversations(conversations, admin.accountId, query);
      return c.json({ data: page.items, meta: { creditsConsumed: 0, nextCursor: page.nextCursor } });
    },
  },
  {
    method: 'get',
    path: conversation,
    operationId: 'adminGetConversation',
    tag: 'admin',
    summary: 'Read a conversation',
    description: 'The session and its whole history (up to 1,000 messages) with products, forms, credits and, on replies written by a person, their author.',
    auth: 'admin',
    roles: ANY_OPERATOR,
    responses: { 200: { schema: envelope(conversationSchema), description: 'The session and its messages.' } },
    errors: [...ADMIN, ...CONVERSATION],
    handler: async ({ admin, conversations, params }) => ok(await getConversation(conversations, admin.accountId, params.widgetId!, params.sessionId!)),
  },
  sessionAction({
    suffix: 'handoff/accept',
    operationId: 'adminAcceptHandoff',
    summary: 'Take a conversation over',
    description:
      "The caller answers from now on instead of the AI (the handoff becomes `active` under their name; the visitor's widget shows it). Only an active session can be taken over.",
    handler: async ({ admin, conversations, params }) => ok(await acceptHandoff(conversations, admin.accountId, params.widgetId!, params.sessionId!, operatorRef(admin))),
  }),
  {
    method: 'post',
    path: `${conversation}/messages`,
    operationId: 'adminReplyAsOperator',
    tag: 'admin',
    summary: 'Reply as a person',
    description:
      "Adds the caller's reply to the conversation (taking it over first if nobody has): the visitor's widget shows it at once, signed with the operator's name (an admin key's name for a key).",
    auth: 'admin',
    roles: ANY_OPERATOR,
    body: { schema: operatorReplyRequestSchema, required: true },
    responses: { 201: { schema: envelope(conversationMessageSchema), description: 'The reply as the history shows it.' } },
    errors: [...ADMIN, ...BODY, ...CONVERSATION, 'session_not_active'],
    handler: async ({ admin, conversations, params, body }) =>
      ok(await replyAsOperator(conversations, admin.accountId, params.widgetId!, params.sessionId!, operatorRef(admin), parseInput(operatorReplyRequestSchema, body).text), 201),
  },
  sessionAction({
    suffix: 'handoff/release',
    operationId: 'adminReleaseHandoff',
    summary: 'Give a conversation back to the AI',
    description: 'Ends the handoff: the AI answers the next visitor message again. A session without a handoff is answered as it is.',
    handler: async ({ admin, conversations, params }) => ok(await releaseHandoff(conversations, admin.accountId, params.widgetId!, params.sessionId!)),
  }),
  sessionAction({
    suffix: 'resolve',
    operationId: 'adminResolveConversation',
    summary: 'Resolve a conversation',
    description: 'Resolves the session (reason `operator`), ending any handoff. A resolved session is answered as it is; an expired one cannot be resolved (409).',
    handler: async ({ admin, conversations, params }) => ok(await resolveConversation(conversations, admin.accountId, params.widgetId!, params.sessionId!)),
  }),
];
