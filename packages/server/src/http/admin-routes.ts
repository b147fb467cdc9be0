import {
  acceptHandoff,
  analyticsQuerySchema,
  analyticsSchema,
  openAccountEvents,
  callbackSecretSchema,
  createdKeySchema,
  createdWebhookSchema,
  createKeyRequestSchema,
  createKnowledgeBaseRequestSchema,
  createPublicKeyRequestSchema,
  createWebhookRequestSchema,
  createWidgetRequestSchema,
  currentIdentitySecret,
  deliveryFiltersSchema,
  deliveryViewSchema,
  describeDelivery,
  describeKey,
  describeWebhook,
  describeWidget,
  documentSchema,
  identitySecretSchema,
  importedKnowledgeSchema,
  keyViewSchema,
  knowledgeBaseDetailSchema,
  knowledgeBaseSchema,
  knowledgeFileSchema,
  adminSearchRequestSchema,
  knowledgeSearchResultSchema,
  productPageQuerySchema,
  productSchema,
  rotateSecretRequestSchema,
  webhookSecretSchema,
  webhookViewSchema,
  widgetFormsRequestSchema,
  widgetSettingsSchema,
  widgetThemeSchema,
  widgetViewSchema,
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
import { streamEventLog } from './session-event-stream.js';
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

/** Optional fields a body or query left out, dropped (core's inputs take absent, not undefined). */
const definedOnly = <T extends object>(input: T): { [K in keyof T]?: Exclude<T[K], undefined> } =>
  Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };

/** The signed-in operator, for the routes that only make sense with a console session. */
function signedIn(admin: AdminCaller): NonNullable<Pick<AdminCaller, 'operator' | 'session'>> & { operator: NonNullable<AdminCaller['operator']>; session: NonNullable<AdminCaller['session']> } {
  if (!admin.operator || !admin.session) {
    throw new SvcError('insufficient_role', 'This is for operators signed in to the console, not for API keys.');
  }
  return { operator: admin.operator, session: admin.session };
}

const noContent: Route['responses'] = { 204: { description: 'Done; no body.' } };

/** Who answers in the operator's place: the operator, or an admin key under its name. */
const operatorRef = (caller: AdminCaller) => ({ id: caller.operator?.id ?? null, name: caller.name });

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

const list = <T>(items: T[]) => ok(items);
const widgetPath = `${V1}/widgets/{widgetId}`;
const kbPath = `${V1}/knowledge-bases/{kbId}`;
const WIDGET: ErrorCode[] = ['validation_failed', 'widget_not_found'];
const KB: ErrorCode[] = ['validation_failed', 'knowledge_base_not_found'];

/** Owner-only routes of the account's configuration, with the common fields filled in. */
const owner = (route: Omit<Route, 'tag' | 'auth' | 'errors'> & { errors?: readonly ErrorCode[] }): Route => ({
  ...route,
  tag: 'admin',
  auth: 'admin',
  errors: [...ADMIN, ...(route.body ? BODY : []), ...(route.errors ?? [])],
});

const CONFIGURATION_ROUTES: Route[] = [
  owner({
    method: 'get',
    path: `${V1}/widgets`,
    operationId: 'adminListWidgets',
    summary: 'List widgets',
    description: "The account's widgets, oldest first; identity secrets are never shown.",
    responses: { 200: { schema: envelope(z.array(widgetViewSchema)), description: 'The widgets.' } },
    handler: async ({ caller, admin }) => list((await admin.listWidgets(caller.accountId)).map(describeWidget)),
  }),
  owner({
    method: 'post',
    path: `${V1}/widgets`,
    operationId: 'adminCreateWidget',
    summary: 'Create a widget',
    description: 'A new widget (chatbot). Its identity-token secret is in the answer, this once (rotate it to get another).',
    body: { schema: createWidgetRequestSchema, required: true },
    responses: { 201: { schema: envelope(widgetViewSchema.extend({ identitySecret: z.string() })), description: 'The widget and its identity secret.' } },
    handler: async ({ caller, admin, body }) => {
      const input = parseInput(createWidgetRequestSchema, body);
      const widget = await admin.createWidget({ ...definedOnly(input), accountId: caller.accountId, name: input.name });
      return ok({ ...describeWidget(widget), identitySecret: currentIdentitySecret(widget) }, 201);
    },
  }),
  owner({
    method: 'get',
    path: widgetPath,
    operationId: 'adminGetWidget',
    summary: 'Read a widget',
    description: 'Its settings, forms and theme.',
    responses: { 200: { schema: envelope(widgetViewSchema), description: 'The widget.' } },
    errors: WIDGET,
    handler: async ({ caller, admin, params }) => ok(describeWidget(await admin.getWidget(caller.accountId, params.widgetId!))),
  }),
  owner({
    method: 'patch',
    path: widgetPath,
    operationId: 'adminUpdateWidget',
    summary: 'Change a widget',
    description: 'Changes the settings named in the body only; knowledge bases must be the account\'s own.',
    body: { schema: widgetSettingsSchema, required: true },
    responses: { 200: { schema: envelope(widgetViewSchema), description: 'The widget as changed.' } },
    errors: WIDGET,
    handler: async ({ caller, admin, params, body }) =>
      ok(describeWidget(await admin.updateWidget(caller.accountId, params.widgetId!, definedOnly(parseInput(widgetSettingsSchema, body))))),
  }),
  owner({
    method: 'put',
    path: `${widgetPath}/theme`,
    operationId: 'adminSetWidgetTheme',
    summary: "Replace a widget's theme",
    description: 'Colours, title, subtitle, avatar, dark mode, position and launcher icon, as `svc widgets set-theme` takes them; the embedded widget reads it from `/widget/config`.',
    body: { schema: widgetThemeSchema, required: true },
    responses: { 200: { schema: envelope(widgetViewSchema), description: 'The widget with its new theme.' } },
    errors: WIDGET,
    handler: async ({ caller, admin, params, body }) => ok(describeWidget(await admin.setWidgetTheme(caller.accountId, params.widgetId!, body))),
  }),
  owner({
    method: 'put',
    path: `${widgetPath}/forms`,
    operationId: 'adminSetWidgetForms',
    summary: "Replace a widget's forms",
    description: 'The dynamic forms replies may surface, as `svc widgets set-forms` takes them (`{ "forms": [...] }`), checked as a whole before anything changes.',
    body: { schema: widgetFormsRequestSchema, required: true },
    responses: { 200: { schema: envelope(widgetViewSchema), description: 'The widget with its new forms.' } },
    errors: WIDGET,
    handler: async ({ caller, admin, params, body }) => ok(describeWidget(await admin.setWidgetForms(caller.accountId, params.widgetId!, body))),
  }),
  owner({
    method: 'post',
    path: `${widgetPath}/identity-secret`,
    operationId: 'adminRotateIdentitySecret',
    summary: "Rotate a widget's identity secret",
    description: 'A new secret for signing visitor identity tokens, shown this once; tokens signed with the previous one are accepted for `graceSeconds` more (default a day).',
    body: { schema: rotateSecretRequestSchema, required: false },
    responses: { 200: { schema: envelope(identitySecretSchema), description: 'The new secret.' } },
    errors: WIDGET,
    handler: async ({ caller, admin, params, body }) => {
      const { graceSeconds } = parseInput(rotateSecretRequestSchema, body ?? {});
      const { identitySecret } = await admin.rotateIdentitySecret(caller.accountId, params.widgetId!, graceSeconds ?? 86_400);
      return ok({ identitySecret });
    },
  }),

  owner({
    method: 'get',
    path: `${V1}/keys`,
    operationId: 'adminListKeys',
    summary: 'List API keys',
    description: "The account's server and public keys, revoked ones included; never a key, its hash or its callback secret.",
    responses: { 200: { schema: envelope(z.array(keyViewSchema)), description: 'The keys.' } },
    handler: async ({ caller, admin }) => list((await admin.listKeys(caller.accountId)).map(describeKey)),
  }),
  owner({
    method: 'post',
    path: `${V1}/keys`,
    operationId: 'adminCreateKey',
    summary: 'Create a server key',
    description:
      'A server key (`sk_live_…`) with the scopes named (`admin` lets it call this API as the owner). With `callbackUrl` it also gets the secret that signs its callbacks. The key and that secret are in the answer, this once.',
    body: { schema: createKeyRequestSchema, required: true },
    responses: { 201: { schema: envelope(createdKeySchema), description: 'The new key.' } },
    handler: async ({ caller, admin, body }) => {
      const input = parseInput(createKeyRequestSchema, body);
      const created = await admin.createApiKey({ ...input, accountId: caller.accountId });
      return ok({ key: created.key, apiKey: describeKey(created.apiKey), ...(created.callbackSecret ? { callbackSecret: created.callbackSecret } : {}) }, 201);
    },
  }),
  owner({
    method: 'post',
    path: `${V1}/public-keys`,
    operationId: 'adminCreatePublicKey',
    summary: 'Create a widget public key',
    description: 'A public key (`pk_live_…`) for embedding one widget, usable only from the origins listed (scheme, host and port, e.g. `https://shop.example`).',
    body: { schema: createPublicKeyRequestSchema, required: true },
    responses: { 201: { schema: envelope(createdKeySchema), description: 'The new public key.' } },
    errors: ['widget_not_found'],
    handler: async ({ caller, admin, body }) => {
      const created = await admin.createPublicKey(caller.accountId, parseInput(createPublicKeyRequestSchema, body));
      return ok({ key: created.key, apiKey: describeKey(created.apiKey) }, 201);
    },
  }),
  owner({
    method: 'delete',
    path: `${V1}/keys/{keyId}`,
    operationId: 'adminRevokeKey',
    summary: 'Revoke a key',
    description: 'The key stops working at once (401 `invalid_api_key`); it stays listed, with `revokedAt`.',
    responses: { 200: { schema: envelope(keyViewSchema), description: 'The revoked key.' } },
    errors: ['validation_failed', 'not_found'],
    handler: async ({ caller, admin, params }) => ok(describeKey(await admin.revokeKey(caller.accountId, params.keyId!))),
  }),
  owner({
    method: 'post',
    path: `${V1}/keys/{keyId}/callback-secret`,
    operationId: 'adminRotateCallbackSecret',
    summary: "Replace a key's callback secret",
    description: 'A new secret signs its callbacks from now on (deliveries still pending included), shown this once.',
    responses: { 200: { schema: envelope(callbackSecretSchema), description: 'The new secret.' } },
    errors: ['validation_failed', 'not_found', 'invalid_json'],
    handler: async ({ caller, admin, params }) => ok({ callbackSecret: (await admin.rotateCallbackSecret(caller.accountId, params.keyId!)).callbackSecret }),
  }),

  owner({
    method: 'get',
    path: `${V1}/webhooks`,
    operationId: 'adminListWebhooks',
    summary: 'List webhook endpoints',
    description: "The account's lifecycle webhook endpoints; never their secrets.",
    responses: { 200: { schema: envelope(z.array(webhookViewSchema)), description: 'The endpoints.' } },
    handler: async ({ caller, admin }) => list((await admin.listWebhooks(caller.accountId)).map(describeWebhook)),
  }),
  owner({
    method: 'post',
    path: `${V1}/webhooks`,
    operationId: 'adminCreateWebhook',
    summary: 'Add a webhook endpoint',
    description: 'An https URL told about session lifecycle events (all of them unless `events` names some), signed with a secret shown this once.',
    body: { schema: createWebhookRequestSchema, required: true },
    responses: { 201: { schema: envelope(createdWebhookSchema), description: 'The endpoint and its signing secret.' } },
    handler: async ({ caller, admin, body }) => {
      const input = parseInput(createWebhookRequestSchema, body);
      const { webhook, secret } = await admin.createWebhook({ accountId: caller.accountId, url: input.url, events: input.events });
      return ok({ ...describeWebhook(webhook), secret }, 201);
    },
  }),
  owner({
    method: 'delete',
    path: `${V1}/webhooks/{webhookId}`,
    operationId: 'adminDeleteWebhook',
    summary: 'Remove a webhook endpoint',
    description: 'It receives nothing more.',
    responses: noContent,
    errors: ['validation_failed', 'not_found'],
    handler: async ({ c, caller, admin, params }) => {
      await admin.deleteWebhook(caller.accountId, params.webhookId!);
      return c.body(null, 204);
    },
  }),
  owner({
    method: 'post',
    path: `${V1}/webhooks/{webhookId}/secret`,
    operationId: 'adminRotateWebhookSecret',
    summary: "Rotate a webhook endpoint's secret",
    description: 'A new signing secret, shown this once; for `graceSeconds` (default a day) deliveries carry signatures with both.',
    body: { schema: rotateSecretRequestSchema, required: false },
    responses: { 200: { schema: envelope(webhookSecretSchema), description: 'The new secret.' } },
    errors: ['not_found'],
    handler: async ({ caller, admin, params, body }) => {
      const { graceSeconds } = parseInput(rotateSecretRequestSchema, body ?? {});
      return ok({ secret: (await admin.rotateWebhookSecret(caller.accountId, params.webhookId!, graceSeconds)).secret });
    },
  }),

  owner({
    method: 'get',
    path: `${V1}/knowledge-bases`,
    operationId: 'adminListKnowledgeBases',
    summary: 'List knowledge bases',
    description: "The account's knowledge bases, oldest first.",
    responses: { 200: { schema: envelope(z.array(knowledgeBaseSchema)), description: 'The knowledge bases.' } },
    handler: async ({ caller, admin }) => list(await admin.listKnowledgeBases(caller.accountId)),
  }),
  owner({
    method: 'post',
    path: `${V1}/knowledge-bases`,
    operationId: 'adminCreateKnowledgeBase',
    summary: 'Create a knowledge base',
    description: 'An empty knowledge base; import products and documents into it next.',
    body: { schema: createKnowledgeBaseRequestSchema, required: true },
    responses: { 201: { schema: envelope(knowledgeBaseSchema), description: 'The new knowledge base.' } },
    handler: async ({ caller, admin, body }) => ok(await admin.createKnowledgeBase(caller.accountId, body), 201),
  }),
  owner({
    method: 'get',
    path: kbPath,
    operationId: 'adminGetKnowledgeBase',
    summary: 'Read a knowledge base',
    description: 'With how many products and documents it holds.',
    responses: { 200: { schema: envelope(knowledgeBaseDetailSchema), description: 'The knowledge base.' } },
    errors: KB,
    handler: async ({ caller, admin, params }) => ok(await admin.getKnowledgeBase(caller.accountId, params.kbId!)),
  }),
  owner({
    method: 'post',
    path: `${kbPath}/import`,
    operationId: 'adminImportKnowledge',
    summary: 'Import products and documents',
    description: 'The JSON file `svc kb import` reads (`{ products: [...], documents: [...] }`): products are upserted by id, documents added.',
    body: { schema: knowledgeFileSchema, required: true },
    responses: { 200: { schema: envelope(importedKnowledgeSchema), description: 'How many products and documents were written.' } },
    errors: KB,
    handler: async ({ caller, admin, params, body }) => ok(await admin.importIntoKnowledgeBase(caller.accountId, params.kbId!, body)),
  }),
  owner({
    method: 'get',
    path: `${kbPath}/products`,
    operationId: 'adminListKnowledgeProducts',
    summary: "List a knowledge base's products",
    description: 'In id order; `meta.nextCursor` pages on (null on the last page).',
    query: productPageQuerySchema,
    responses: {
      200: {
        schema: z.object({ data: z.array(productSchema), meta: metaSchema.extend({ nextCursor: z.string().nullable() }) }),
        description: 'A page of products.',
      },
    },
    errors: KB,
    handler: async ({ c, caller, admin, params, query }) => {
      const page = await admin.listKnowledgeProducts(caller.accountId, params.kbId!, definedOnly(parseInput(productPageQuerySchema, query)));
      return c.json({ data: page.products, meta: { creditsConsumed: 0, nextCursor: page.nextCursor } });
    },
  }),
  owner({
    method: 'get',
    path: `${kbPath}/documents`,
    operationId: 'adminListKnowledgeDocuments',
    summary: "List a knowledge base's documents",
    description: 'Oldest first, without their content.',
    responses: { 200: { schema: envelope(z.array(documentSchema)), description: 'The documents.' } },
    errors: KB,
    handler: async ({ caller, admin, params }) => list(await admin.listKnowledgeDocuments(caller.accountId, params.kbId!)),
  }),
  owner({
    method: 'post',
    path: `${kbPath}/search`,
    operationId: 'adminSearchKnowledge',
    summary: 'Try a search',
    description: "What the AI's retrieval finds for a query in this knowledge base: what it would read to answer. Free.",
    body: { schema: adminSearchRequestSchema, required: true },
    responses: { 200: { schema: envelope(knowledgeSearchResultSchema), description: 'Passages and products, best first.' } },
    errors: KB,
    handler: async ({ caller, admin, params, body }) => {
      const { text, query, ...options } = parseInput(adminSearchRequestSchema, body);
      return ok(await admin.searchKnowledge(caller.accountId, params.kbId!, { ...options, query: text ?? query }));
    },
  }),

  owner({
    method: 'get',
    path: `${V1}/analytics`,
    operationId: 'adminGetAnalytics',
    summary: 'Usage and analytics',
    description:
      'For `[from, to)` (ISO 8601 dates or date-times; default the last 30 UTC days, today included; at most 367 days), optionally one widget: conversations per day, how they ended (agent, ended by the visitor\'s side, operator, expired), ratings, the share handed to a person, credits by bucket and totals.',
    query: analyticsQuerySchema,
    responses: { 200: { schema: envelope(analyticsSchema), description: 'The figures.' } },
    errors: ['validation_failed', 'widget_not_found'],
    handler: async ({ caller, admin, operators, query }) => {
      const { from, to, widgetId } = parseInput(analyticsQuerySchema, query);
      const now = operators.clock.now();
      // The last 30 UTC days, today included.
      const start = from ?? new Date(Math.floor(now.getTime() / 86_400_000) * 86_400_000 - 29 * 86_400_000).toISOString();
      const end = to ?? now.toISOString();
      return ok(await admin.analytics(caller.accountId, { from: start, to: end, widgetId }));
    },
  }),
  owner({
    method: 'get',
    path: `${V1}/deliveries`,
    operationId: 'adminListDeliveries',
    summary: 'List deliveries',
    description: "The account's callback and webhook deliveries, newest first (`status=failed` for the ones to look at); never their payloads.",
    query: deliveryFiltersSchema,
    responses: { 200: { schema: envelope(z.array(deliveryViewSchema)), description: 'The deliveries.' } },
    errors: ['validation_failed'],
    handler: async ({ caller, admin, query }) =>
      list((await admin.listDeliveries(caller.accountId, definedOnly(parseInput(deliveryFiltersSchema, query)))).map(describeDelivery)),
  }),
  owner({
    method: 'post',
    path: `${V1}/deliveries/{deliveryId}/replay`,
    operationId: 'adminReplayDelivery',
    summary: 'Send a delivery again',
    description: 'Queued again with a fresh retry budget; a running worker sends it within a second.',
    responses: { 200: { schema: envelope(deliveryViewSchema), description: 'The delivery, queued.' } },
    errors: ['validation_failed', 'not_found', 'invalid_json'],
    handler: async ({ caller, admin, params }) => ok(describeDelivery(await admin.replayDelivery(caller.accountId, params.deliveryId!))),
  }),
];

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
    handler: async ({ c, caller, operators }) => {
      await signOut(operators, signedIn(caller).session);
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
    handler: async ({ caller }) => ok(describeConsoleSession(signedIn(caller))),
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
    handler: async ({ c, caller, operators, body }) => {
      await changePassword(operators, signedIn(caller), body);
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
    handler: async ({ caller, operators }) => {
      const account = await operators.store.getAccount(caller.accountId);
      if (!account) throw new SvcError('not_found', `Account ${caller.accountId} was not found.`);
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
    handler: async ({ caller, operators }) => ok((await listOperators(operators, caller.accountId)).map(describeOperator)),
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
    handler: async ({ caller, operators, body }) => ok(describeOperator(await createOperator(operators, caller.accountId, body)), 201),
  },
  ...CONFIGURATION_ROUTES,
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
    handler: async ({ c, caller, conversations, query }) => {
      const page = await listConversations(conversations, caller.accountId, query);
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
    handler: async ({ caller, conversations, params }) => ok(await getConversation(conversations, caller.accountId, params.widgetId!, params.sessionId!)),
  },
  sessionAction({
    suffix: 'handoff/accept',
    operationId: 'adminAcceptHandoff',
    summary: 'Take a conversation over',
    description:
      "The caller answers from now on instead of the AI (the handoff becomes `active` under their name; the visitor's widget shows it). Only an active session can be taken over.",
    handler: async ({ caller, conversations, params }) => ok(await acceptHandoff(conversations, caller.accountId, params.widgetId!, params.sessionId!, operatorRef(caller))),
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
    handler: async ({ caller, conversations, params, body }) =>
      ok(await replyAsOperator(conversations, caller.accountId, params.widgetId!, params.sessionId!, operatorRef(caller), parseInput(operatorReplyRequestSchema, body).text), 201),
  },
  {
    method: 'get',
    path: `${V1}/events`,
    operationId: 'adminAccountEvents',
    tag: 'admin',
    summary: "The account's live events",
    description:
      "Server-sent events of every conversation of the account, for the console's live inbox: `message.created` (every message, the visitor's too) and `session.updated` (status, handoff, rating), with the session stream's data plus `widgetId` and `sessionId`. Each event's `id` resumes the feed after it in `Last-Event-ID`, with no gap and no repeat; without it the feed starts now. A `: ping` comment every 15 s keeps it open.",
    auth: 'admin',
    roles: ANY_OPERATOR,
    responses: { 200: { schema: z.string(), description: 'The event stream.', contentType: 'text/event-stream' } },
    errors: [...ADMIN, 'validation_failed'],
    handler: async ({ c, caller, store, eventStreams }) => {
      const feed = await openAccountEvents({ store }, caller.accountId, c.req.header('last-event-id'));
      // Per caller: a few tabs of one operator (or scripts of one key), not a whole team, share a cap.
      const holder = caller.operator?.id ?? caller.keyId!;
      const release = eventStreams.slots.acquire(holder, `account-feed\u0000${holder}`);
      return streamEventLog(
        c,
        { store, after: feed.after, read: feed.read, wakesOn: (event) => event.type === 'session-event' && event.accountId === caller.accountId, release },
        eventStreams,
      );
    },
  },
  sessionAction({
    suffix: 'handoff/release',
    operationId: 'adminReleaseHandoff',
    summary: 'Give a conversation back to the AI',
    description: 'Ends the handoff: the AI answers the next visitor message again. A session without a handoff is answered as it is.',
    handler: async ({ caller, conversations, params }) => ok(await releaseHandoff(conversations, caller.accountId, params.widgetId!, params.sessionId!)),
  }),
  sessionAction({
    suffix: 'resolve',
    operationId: 'adminResolveConversation',
    summary: 'Resolve a conversation',
    description: 'Resolves the session (reason `operator`), ending any handoff. A resolved session is answered as it is; an expired one cannot be resolved (409).',
    handler: async ({ caller, conversations, params }) => ok(await resolveConversation(conversations, caller.accountId, params.widgetId!, params.sessionId!)),
  }),
];
