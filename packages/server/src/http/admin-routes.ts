import {
  accountViewSchema,
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
];
