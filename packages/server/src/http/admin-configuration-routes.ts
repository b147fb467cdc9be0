import { analyticsQuerySchema, analyticsSchema, callbackSecretSchema, createdKeySchema, createdWebhookSchema, createKeyRequestSchema, createKnowledgeBaseRequestSchema, createPublicKeyRequestSchema, createWebhookRequestSchema, createWidgetRequestSchema, deliveryFiltersSchema, deliveryViewSchema, documentSchema, identitySecretSchema, importedKnowledgeSchema, keyViewSchema, knowledgeBaseDetailSchema, knowledgeBaseSchema, adminSearchRequestSchema, knowledgeSearchResultSchema, productPageQuerySchema, productSchema, rotateSecretRequestSchema, webhookSecretSchema, webhookViewSchema, widgetFormsRequestSchema, widgetSettingsSchema, widgetThemeSchema, widgetViewSchema, metaSchema, envelope, parseInput, knowledgeFileSchema } from '@svc/core/schemas';
import { views, type ErrorCode } from '@svc/core';
import { z } from 'zod';
import { ADMIN, BODY, definedOnly, noContent, ok, V1 } from './admin-route-kit.js';
import type { Route, RouteSpec } from './routes.js';

/**
 * The admin API's configuration routes (`/admin/v1`): widgets, keys, webhooks, knowledge bases, analytics and
 * deliveries of the caller's account, translated to core's operator operations.
 */

const widgetPath = `${V1}/widgets/{widgetId}`;
const kbPath = `${V1}/knowledge-bases/{kbId}`;
const WIDGET: ErrorCode[] = ['validation_failed', 'widget_not_found'];
const KB: ErrorCode[] = ['validation_failed', 'knowledge_base_not_found'];

/** Owner-only routes of the account's configuration, with the common fields filled in. */
const owner = (route: Omit<RouteSpec<'admin'>, 'tag' | 'auth' | 'errors'> & { errors?: readonly ErrorCode[] }): Route => ({
  ...route,
  tag: 'admin',
  auth: 'admin',
  errors: [...ADMIN, ...(route.body ? BODY : []), ...(route.errors ?? [])],
});

/** The account's configuration: owner only. */
export const CONFIGURATION_ROUTES: Route[] = [
  owner({
    method: 'get',
    path: `${V1}/widgets`,
    operationId: 'adminListWidgets',
    summary: 'List widgets',
    description: "The account's widgets, oldest first; identity secrets are never shown.",
    responses: { 200: { schema: envelope(z.array(widgetViewSchema)), description: 'The widgets.' } },
    handler: async ({ caller, core }) => ok((await core.admin.listWidgets(caller.accountId)).map(views.widget)),
  }),
  owner({
    method: 'post',
    path: `${V1}/widgets`,
    operationId: 'adminCreateWidget',
    summary: 'Create a widget',
    description: 'A new widget (chatbot). Its identity-token secret is in the answer, this once (rotate it to get another).',
    body: { schema: createWidgetRequestSchema, required: true },
    responses: { 201: { schema: envelope(widgetViewSchema.extend({ identitySecret: z.string() })), description: 'The widget and its identity secret.' } },
    handler: async ({ caller, core, body }) => {
      const input = parseInput(createWidgetRequestSchema, body);
      const widget = await core.admin.createWidget({ ...definedOnly(input), accountId: caller.accountId, name: input.name });
      return ok({ ...views.widget(widget), identitySecret: views.identitySecret(widget) }, 201);
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
    handler: async ({ caller, core, params }) => ok(views.widget(await core.admin.getWidget(caller.accountId, params.widgetId!))),
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
    handler: async ({ caller, core, params, body }) =>
      ok(views.widget(await core.admin.updateWidget(caller.accountId, params.widgetId!, definedOnly(parseInput(widgetSettingsSchema, body))))),
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
    handler: async ({ caller, core, params, body }) => ok(views.widget(await core.admin.setWidgetTheme(caller.accountId, params.widgetId!, body))),
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
    handler: async ({ caller, core, params, body }) => ok(views.widget(await core.admin.setWidgetForms(caller.accountId, params.widgetId!, body))),
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
    handler: async ({ caller, core, params, body }) => {
      const { graceSeconds } = parseInput(rotateSecretRequestSchema, body ?? {});
      const { identitySecret } = await core.admin.rotateIdentitySecret(caller.accountId, params.widgetId!, graceSeconds ?? 86_400);
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
    handler: async ({ caller, core }) => ok((await core.admin.listKeys(caller.accountId)).map(views.key)),
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
    handler: async ({ caller, core, body }) => {
      const input = parseInput(createKeyRequestSchema, body);
      const created = await core.admin.createApiKey({ ...input, accountId: caller.accountId });
      return ok({ key: created.key, apiKey: views.key(created.apiKey), ...(created.callbackSecret ? { callbackSecret: created.callbackSecret } : {}) }, 201);
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
    handler: async ({ caller, core, body }) => {
      const created = await core.admin.createPublicKey(caller.accountId, parseInput(createPublicKeyRequestSchema, body));
      return ok({ key: created.key, apiKey: views.key(created.apiKey) }, 201);
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
    handler: async ({ caller, core, params }) => ok(views.key(await core.admin.revokeKey(caller.accountId, params.keyId!))),
  }),
  owner({
    method: 'post',
    path: `${V1}/keys/{keyId}/callback-secret`,
    operationId: 'adminRotateCallbackSecret',
    summary: "Replace a key's callback secret",
    description: 'A new secret signs its callbacks from now on (deliveries still pending included), shown this once.',
    responses: { 200: { schema: envelope(callbackSecretSchema), description: 'The new secret.' } },
    errors: ['validation_failed', 'not_found', 'invalid_json'],
    handler: async ({ caller, core, params }) => ok({ callbackSecret: (await core.admin.rotateCallbackSecret(caller.accountId, params.keyId!)).callbackSecret }),
  }),

  owner({
    method: 'get',
    path: `${V1}/webhooks`,
    operationId: 'adminListWebhooks',
    summary: 'List webhook endpoints',
    description: "The account's lifecycle webhook endpoints; never their secrets.",
    responses: { 200: { schema: envelope(z.array(webhookViewSchema)), description: 'The endpoints.' } },
    handler: async ({ caller, core }) => ok((await core.admin.listWebhooks(caller.accountId)).map(views.webhook)),
  }),
  owner({
    method: 'post',
    path: `${V1}/webhooks`,
    operationId: 'adminCreateWebhook',
    summary: 'Add a webhook endpoint',
    description: 'An https URL told about session lifecycle events (all of them unless `events` names some), signed with a secret shown this once.',
    body: { schema: createWebhookRequestSchema, required: true },
    responses: { 201: { schema: envelope(createdWebhookSchema), description: 'The endpoint and its signing secret.' } },
    handler: async ({ caller, core, body }) => {
      const input = parseInput(createWebhookRequestSchema, body);
      const { webhook, secret } = await core.admin.createWebhook({ accountId: caller.accountId, url: input.url, events: input.events });
      return ok({ ...views.webhook(webhook), secret }, 201);
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
    handler: async ({ c, caller, core, params }) => {
      await core.admin.deleteWebhook(caller.accountId, params.webhookId!);
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
    handler: async ({ caller, core, params, body }) => {
      const { graceSeconds } = parseInput(rotateSecretRequestSchema, body ?? {});
      return ok({ secret: (await core.admin.rotateWebhookSecret(caller.accountId, params.webhookId!, graceSeconds)).secret });
    },
  }),

  owner({
    method: 'get',
    path: `${V1}/knowledge-bases`,
    operationId: 'adminListKnowledgeBases',
    summary: 'List knowledge bases',
    description: "The account's knowledge bases, oldest first.",
    responses: { 200: { schema: envelope(z.array(knowledgeBaseSchema)), description: 'The knowledge bases.' } },
    handler: async ({ caller, core }) => ok(await core.admin.listKnowledgeBases(caller.accountId)),
  }),
  owner({
    method: 'post',
    path: `${V1}/knowledge-bases`,
    operationId: 'adminCreateKnowledgeBase',
    summary: 'Create a knowledge base',
    description: 'An empty knowledge base; import products and documents into it next.',
    body: { schema: createKnowledgeBaseRequestSchema, required: true },
    responses: { 201: { schema: envelope(knowledgeBaseSchema), description: 'The new knowledge base.' } },
    handler: async ({ caller, core, body }) => ok(await core.admin.createKnowledgeBase(caller.accountId, body), 201),
  }),
  owner({
    method: 'get',
    path: kbPath,
    operationId: 'adminGetKnowledgeBase',
    summary: 'Read a knowledge base',
    description: 'With how many products and documents it holds.',
    responses: { 200: { schema: envelope(knowledgeBaseDetailSchema), description: 'The knowledge base.' } },
    errors: KB,
    handler: async ({ caller, core, params }) => ok(await core.admin.getKnowledgeBase(caller.accountId, params.kbId!)),
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
    handler: async ({ caller, core, params, body }) => ok(await core.admin.importIntoKnowledgeBase(caller.accountId, params.kbId!, body)),
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
    handler: async ({ c, caller, core, params, query }) => {
      const page = await core.admin.listKnowledgeProducts(caller.accountId, params.kbId!, definedOnly(parseInput(productPageQuerySchema, query)));
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
    handler: async ({ caller, core, params }) => ok(await core.admin.listKnowledgeDocuments(caller.accountId, params.kbId!)),
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
    handler: async ({ caller, core, params, body }) => {
      const { text, query, ...options } = parseInput(adminSearchRequestSchema, body);
      return ok(await core.admin.searchKnowledge(caller.accountId, params.kbId!, { ...options, query: text ?? query }));
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
    handler: async ({ caller, core, query }) => {
      const { from, to, widgetId } = parseInput(analyticsQuerySchema, query);
      return ok(await core.admin.analytics(caller.accountId, { from, to, widgetId }));
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
    handler: async ({ caller, core, query }) =>
      ok((await core.admin.listDeliveries(caller.accountId, definedOnly(parseInput(deliveryFiltersSchema, query)))).map(views.delivery)),
  }),
  owner({
    method: 'post',
    path: `${V1}/deliveries/{deliveryId}/replay`,
    operationId: 'adminReplayDelivery',
    summary: 'Send a delivery again',
    description: 'Queued again with a fresh retry budget; a running worker sends it within a second.',
    responses: { 200: { schema: envelope(deliveryViewSchema), description: 'The delivery, queued.' } },
    errors: ['validation_failed', 'not_found', 'invalid_json'],
    handler: async ({ caller, core, params }) => ok(views.delivery(await core.admin.replayDelivery(caller.accountId, params.deliveryId!))),
  }),
];
