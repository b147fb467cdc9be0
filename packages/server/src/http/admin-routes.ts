import { accountViewSchema, changePasswordRequestSchema, consoleSessionSchema, createOperatorRequestSchema, envelope, loginRequestSchema, operatorSchema } from '@svc/core/schemas';
import { SvcError, views } from '@svc/core';
import { z } from 'zod';
import { assertSameOrigin, clearConsoleCookie, setConsoleCookie, type AdminCaller } from './admin-auth.js';
import { CONFIGURATION_ROUTES } from './admin-configuration-routes.js';
import { CONVERSATION_ROUTES } from './admin-conversation-routes.js';
import { SOURCES_ADMIN_ROUTES } from './admin-sources-routes.js';
import { QUESTION_ROUTES } from './admin-question-routes.js';
import { EVAL_ROUTES } from './admin-eval-routes.js';
import { ADMIN, ANY_OPERATOR, BODY, noContent, ok, V1 } from './admin-route-kit.js';
import type { Route } from './routes.js';

/**
 * The admin API (`/admin/v1`, DESIGN.md section 10): the console's backend and a scriptable API for admin keys. Part
 * of the one route table (routes.ts spreads these in), so it is mounted, validated and documented like the rest.
 * Handlers only translate to core's operator operations, always on the caller's own account.
 */

/** The signed-in operator, for the routes that only make sense with a console session. */
function signedIn(admin: AdminCaller): { operator: NonNullable<AdminCaller['operator']>; session: NonNullable<AdminCaller['session']> } {
  if (!admin.operator || !admin.session) {
    throw new SvcError('insufficient_role', 'This is for operators signed in to the console, not for API keys.');
  }
  return { operator: admin.operator, session: admin.session };
}


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
    handler: async ({ c, core, body }) => {
      // Login CSRF: a page elsewhere must not sign the browser in to an account of the attacker's.
      assertSameOrigin(c);
      const session = await core.admin.signIn(body, { address: c.var.server.clientAddress() });
      setConsoleCookie(c, session.token);
      return ok(views.consoleSession(session));
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
    handler: async ({ c, core, caller }) => {
      await core.admin.signOut(signedIn(caller).session);
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
    handler: async ({ caller }) => ok(views.consoleSession(signedIn(caller))),
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
    handler: async ({ c, core, caller, body }) => {
      await core.admin.changePassword(signedIn(caller), body);
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
    handler: async ({ caller, core }) => ok(await core.admin.getAccount(caller.accountId)),
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
    handler: async ({ core, caller }) => ok((await core.admin.listOperators(caller.accountId)).map(views.operator)),
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
    handler: async ({ core, caller, body }) => ok(views.operator(await core.admin.createOperator(caller.accountId, body)), 201),
  },
  ...CONFIGURATION_ROUTES,
  ...CONVERSATION_ROUTES,
  ...SOURCES_ADMIN_ROUTES,
  ...QUESTION_ROUTES,
  ...EVAL_ROUTES,
];
