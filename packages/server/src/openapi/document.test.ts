import { Validator } from '@seriousme/openapi-schema-validator';
import { ERROR_STATUS } from '@svc/core';
import { listQuerySchema } from '@svc/core/schemas';
import { describe, expect, it } from 'vitest';
import { ADMIN_ROUTES } from '../http/admin-routes.js';
import { createHarness } from '../testing/harness.js';
import { buildOpenApiDocument, limitParameterSchema } from './document.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const doc = buildOpenApiDocument() as Json;
const operations = Object.entries(doc.paths as Record<string, Record<string, Json>>).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, op]) => ({ path, method, op })),
);

/** Every `$ref` anywhere in a value. */
function refs(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refs);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, child]) => (key === '$ref' && typeof child === 'string' ? [child] : refs(child)));
}

describe('OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document, by an independent validator', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(() => validator.resolveRefs()).not.toThrow();
  });

  it('documents exactly the routes the app mounts, both ways', async () => {
    const { runtime } = await createHarness();
    // The document describes the JSON API: the reference itself, the widget's assets (script, panel, demo page), the
    // console's pages and assets, and the orchestrator probes documented in the README's production section (/readyz,
    // Prometheus /metrics) are not part of it.
    const assets = new Set(['/openapi.json', '/docs', '/widget.js', '/widget-assets/:file', '/demo', '/readyz', '/metrics']);
    for (const path of ['/console', '/console/', '/console/preview.html', '/console/assets/:file']) assets.add(path);
    const mounted = runtime.app.routes
      .filter((route) => route.method !== 'ALL' && !assets.has(route.path))
      .map((route) => `${route.method} ${route.path.replace(/:(\w+)/g, '{$1}')}`);
    const documented = operations.map(({ method, path }) => `${method.toUpperCase()} ${path}`);
    expect({ undocumented: mounted.filter((r) => !documented.includes(r)), notMounted: documented.filter((r) => !mounted.includes(r)) }).toEqual({
      undocumented: [],
      notMounted: [],
    });
    expect(new Set(mounted.filter((route) => !route.includes(' /admin/v1/'))).size).toBe(32);
    expect(new Set(mounted.filter((route) => route.includes(' /admin/v1/'))).size).toBe(ADMIN_ROUTES.length);
    expect(mounted).toEqual(expect.arrayContaining(['PUT /knowledge-bases/{kbId}/products/{productId}', 'DELETE /knowledge-bases/{kbId}/documents/{documentId}']));
  });

  it('documents the knowledge sources, and the upload as multipart/form-data with its one file field', () => {
    const paths = doc.paths as Record<string, Record<string, Json>>;
    expect(Object.keys(paths['/knowledge-bases/{kbId}/sources']!)).toEqual(['post', 'get']);
    expect(Object.keys(paths['/knowledge-bases/{kbId}/sources/{sourceId}']!)).toEqual(['get', 'delete']);
    expect(Object.keys(paths['/knowledge-bases/{kbId}/sources/{sourceId}/sync']!.post!.responses)).toContain('202');
    const upload = paths['/knowledge-bases/{kbId}/files']!.post!;
    expect(Object.keys(upload.requestBody.content)).toEqual(['multipart/form-data']);
    expect(upload.requestBody.content['multipart/form-data'].schema).toMatchObject({
      type: 'object',
      required: ['file'],
      properties: { file: { type: 'string', contentMediaType: 'application/octet-stream' } },
    });
    expect(Object.keys(upload.responses)).toEqual(expect.arrayContaining(['201', '400', '404', '413', '415']));
    expect(Object.keys(paths['/admin/v1/knowledge-bases/{kbId}/files']!.post!.requestBody.content)).toEqual(['multipart/form-data']);
  });

  it('resolves every $ref to a component', () => {
    const components = doc.components as Json;
    for (const target of new Set(refs(doc))) {
      const [, , section, name] = target.split('/');
      expect(components[section!]?.[name!], target).toBeDefined();
    }
  });

  it('answers every error status of an endpoint with the error body and its codes, statuses from ERROR_STATUS', () => {
    for (const { path, method, op } of operations) {
      const errors = Object.entries(op.responses as Record<string, Json>).filter(([status]) => Number(status) >= 400);
      expect(errors.length, `${method} ${path}`).toBeGreaterThan(0);
      for (const [status, response] of errors) {
        const schema = response.content['application/json'].schema;
        expect(schema.allOf[0]).toEqual({ $ref: '#/components/schemas/Error' });
        for (const code of schema.allOf[1].properties.error.properties.code.enum as Array<keyof typeof ERROR_STATUS>) {
          expect(ERROR_STATUS[code], `${method} ${path} ${code}`).toBe(Number(status));
        }
      }
    }
  });

  it('gives each endpoint the failures the spec names for it', () => {
    const codesOf = (operationId: string) =>
      operations
        .filter(({ op }) => op.operationId === operationId)
        .flatMap(({ op }) => Object.values(op.responses as Record<string, Json>))
        .flatMap((response) => response.content['application/json'].schema.allOf?.[1].properties.error.properties.code.enum ?? []);
    expect(codesOf('createSession')).toEqual(expect.arrayContaining(['session_id_taken', 'insufficient_credits', 'widget_not_found']));
    expect(codesOf('sendMessage')).toEqual(
      expect.arrayContaining(['callback_not_configured', 'invalid_identity', 'identity_scope_required', 'session_not_found', 'session_not_active']),
    );
    expect(codesOf('submitForm')).toContain('form_rejected');
    expect(codesOf('rateSession')).toContain('session_active');
    expect(codesOf('listMessages')).toContain('invalid_cursor');
    expect(codesOf('listProducts')).toContain('knowledge_base_not_found');
    for (const id of ['getKnowledgeBase', 'upsertProducts', 'putProduct', 'deleteProduct', 'listDocuments', 'addDocument', 'replaceDocument', 'deleteDocument', 'searchKnowledge']) {
      expect(codesOf(id), id).toEqual(expect.arrayContaining(['knowledge_base_not_found', 'insufficient_scope', 'origin_not_allowed']));
    }
    expect(codesOf('deleteProduct')).toContain('product_not_found');
    for (const id of ['replaceDocument', 'deleteDocument']) expect(codesOf(id), id).toContain('document_not_found');
    for (const id of ['createKnowledgeBase', 'upsertProducts', 'putProduct', 'addDocument', 'replaceDocument', 'searchKnowledge']) {
      expect(codesOf(id), id).toEqual(expect.arrayContaining(['validation_failed', 'invalid_json']));
    }
    expect(codesOf('listKnowledgeBases')).toContain('invalid_cursor');
    expect(codesOf('listDocuments')).toEqual(expect.arrayContaining(['invalid_cursor', 'insufficient_credits']));
    expect(codesOf('searchKnowledge')).toContain('insufficient_credits');
    expect(codesOf('getWidgetConfig')).toEqual(expect.arrayContaining(['insufficient_scope', 'origin_not_allowed', 'widget_not_found']));
    for (const id of ['createSession', 'sendMessage', 'listMessages', 'submitForm', 'endSession', 'rateSession', 'getSession']) {
      expect(codesOf(id), id).toEqual(expect.arrayContaining(['invalid_identity_token', 'origin_not_allowed']));
    }
    for (const id of ['sendMessage', 'submitForm']) {
      const op = operations.find(({ op }) => op.operationId === id)!.op;
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '202']));
    }
    const create = operations.find(({ op }) => op.operationId === 'createSession')!.op;
    expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(['200', '201', '409']));
  });

  it('takes the X-API-Key everywhere except /healthz and the admin API, and Idempotency-Key on every POST but the admin API\'s', () => {
    expect(doc.security).toEqual([{ ApiKey: [] }]);
    expect(doc.components.securitySchemes.ApiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    for (const { path, method, op } of operations) {
      const admin = path.startsWith('/admin/v1/');
      if (path === '/healthz' || path === '/admin/v1/sessions') expect(op.security).toEqual([]);
      else if (admin) expect(op.security, path).toEqual([{ ConsoleSession: [] }, { ApiKey: ['admin'] }, { AdminBearer: [] }]);
      else if (op.security !== undefined) expect((op.security as Json[]).every((req) => Object.keys(req).join() === 'ApiKey'), path).toBe(true);
      const idempotency = (op.parameters as Json[]).some((p) => p.$ref === '#/components/parameters/IdempotencyKey');
      expect(idempotency, `${method} ${path}`).toBe(method === 'post' && !admin);
      const csrf = (op.parameters as Json[]).some((p) => p.$ref === '#/components/parameters/CsrfToken');
      expect(csrf, `${method} ${path}`).toBe(admin && method !== 'get' && path !== '/admin/v1/sessions');
    }
  });

  it('names the scopes each endpoint needs, any one of them sufficing', () => {
    const securityOf = (operationId: string) => operations.find(({ op }) => op.operationId === operationId)!.op.security;
    expect(securityOf('sendMessage')).toEqual([{ ApiKey: ['conversations:chat'] }]);
    expect(securityOf('createKnowledgeBase')).toEqual([{ ApiKey: ['knowledge:write'] }]);
    expect(securityOf('deleteDocument')).toEqual([{ ApiKey: ['knowledge:write'] }]);
    expect(securityOf('searchKnowledge')).toEqual([{ ApiKey: ['knowledge:read'] }, { ApiKey: ['knowledge:write'] }]);
    expect(securityOf('listProducts')).toEqual([{ ApiKey: ['knowledge:read'] }, { ApiKey: ['knowledge:write'] }]);
    // A public key's own endpoint: no scope to name, the key kind is what counts.
    expect(securityOf('getWidgetConfig')).toBeUndefined();
  });

  it('documents X-Identity-Token on the endpoints a widget public key calls, and the new path parameters', () => {
    expect(doc.components.parameters.IdentityToken).toMatchObject({ name: 'X-Identity-Token', in: 'header', required: false });
    for (const { path, op } of operations) {
      const takesToken = (op.parameters as Json[]).some((p) => p.$ref === '#/components/parameters/IdentityToken');
      expect(takesToken, path).toBe(path.startsWith('/widgets/'));
    }
    const params = (path: string, method: string) => (doc.paths[path][method].parameters as Json[]).filter((p) => p.in === 'path').map((p) => p.name);
    expect(params('/knowledge-bases/{kbId}/products/{productId}', 'put')).toEqual(['kbId', 'productId']);
    expect(params('/knowledge-bases/{kbId}/products/{productId}', 'delete')).toEqual(['kbId', 'productId']);
    expect(params('/knowledge-bases/{kbId}/documents/{documentId}', 'put')).toEqual(['kbId', 'documentId']);
    expect(params('/knowledge-bases/{kbId}/documents/{documentId}', 'delete')).toEqual(['kbId', 'documentId']);
    const productId = (doc.paths['/knowledge-bases/{kbId}/products/{productId}'].put.parameters as Json[]).find((p) => p.name === 'productId')!;
    expect(productId.schema).toMatchObject({ type: 'string', minLength: 1, maxLength: 128 });
  });

  it('generates the schemas from core: bodies as accepted, responses as produced', () => {
    const schemas = doc.components.schemas as Json;
    expect(schemas.CreateSessionRequest.required).toEqual(['visitorId']);
    expect(schemas.CreateSessionRequest.properties.visitorId).toMatchObject({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_\\-.:@]+$' });
    expect(schemas.SendMessageRequest.properties.identity).toEqual({ $ref: '#/components/schemas/Identity' });
    expect(schemas.Identity.required).toEqual(['sub']);
    expect(Object.keys(schemas.Credits.properties)).toEqual(['chat', 'retrieval', 'orchestration', 'embedding', 'rerank', 'plugin', 'pluginRerank', 'crawler']);
    expect(schemas.ProcessingReply.properties.status).toMatchObject({ const: 'processing' });
    expect(schemas.HistoryPage.properties.pagination).toEqual({ $ref: '#/components/schemas/Pagination' });
    expect(schemas.CreateKnowledgeBaseRequest).toMatchObject({ required: ['name'], properties: { name: { minLength: 1, maxLength: 200 } } });
    expect(schemas.UpsertProductsRequest.properties.products).toMatchObject({ minItems: 1, maxItems: 1000, items: { $ref: '#/components/schemas/ProductInput' } });
    expect(schemas.ProductInput.required).toEqual(['id', 'name', 'price']);
    expect(schemas.ProductBody.required).toEqual(['name', 'price']);
    expect(schemas.ProductBody.additionalProperties).toBe(false);
    expect(schemas.ProductBody.properties.price).toMatchObject({ type: 'number', minimum: 0 });
    expect(schemas.DocumentRequest.required).toEqual(['title', 'content']);
    expect(schemas.DocumentRequest.properties.url).toMatchObject({ type: 'string', format: 'uri' });
    expect(schemas.KnowledgeSearchRequest.properties.limit).toMatchObject({ type: 'integer', minimum: 1, maximum: 20 });
    expect(schemas.Document.properties.url).toEqual({ type: ['string', 'null'] });
    expect(Object.keys(schemas.KnowledgeSearchResult.properties)).toEqual(['passages', 'products', 'confidence']);
    expect(schemas.MessageReply.required).toEqual(expect.arrayContaining(['actions', 'sources']));
    expect(schemas.KnowledgeBaseDetail.required).toEqual(expect.arrayContaining(['id', 'name', 'createdAt', 'products', 'documents']));
    expect(schemas.Deleted.properties.deleted).toMatchObject({ const: true });
    expect(schemas.WidgetConfigResponse.properties.data).toEqual({ $ref: '#/components/schemas/WidgetConfig' });
    expect(schemas.WidgetConfig.required).toEqual(['widgetId', 'name', 'greeting', 'language', 'theme']);
    expect(schemas.DocumentPage.properties.pagination).toEqual({ $ref: '#/components/schemas/Pagination' });
    for (const schema of Object.values(schemas)) expect(Object.keys(schema as Json)).not.toContain('$id');
  });

  it('documents limit with the bounds the server enforces', () => {
    const limit = (operations.find(({ op }) => op.operationId === 'listMessages')!.op.parameters as Json[]).find((p) => p.name === 'limit')!;
    expect(limit.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 50 });
    const accepts = (value: string | undefined) => listQuerySchema.safeParse({ limit: value }).success;
    expect([accepts('1'), accepts('100'), accepts('0'), accepts('101')]).toEqual([true, true, false, false]);
    expect(listQuerySchema.parse({}).limit).toBe(limitParameterSchema.parse(undefined));
  });

  it('documents the event stream of the turn endpoints and the AI SDK /chat endpoint', () => {
    for (const path of ['/widgets/{widgetId}/conversations/{sessionId}/messages', '/widgets/{widgetId}/conversations/{sessionId}/form-submissions']) {
      const ok = doc.paths[path].post.responses['200'];
      expect(Object.keys(ok.content)).toEqual(['application/json', 'text/event-stream']);
      expect(ok.content['text/event-stream']['x-events']['message.completed']).toEqual({ $ref: '#/components/schemas/StreamCompletedEvent' });
    }
    expect(doc.components.schemas.SendMessageRequest.properties.response_type.enum).toEqual(['sync', 'stream', 'callback']);
    const chat = doc.paths['/widgets/{widgetId}/conversations/{sessionId}/chat'].post;
    expect(chat.operationId).toBe('chat');
    expect(Object.keys(chat.responses['200'].content)).toEqual(['text/event-stream']);
    expect(chat.responses['200'].headers['x-vercel-ai-ui-message-stream']).toBeDefined();
    expect(chat.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ChatRequest' });
    expect(chat.responses['403'].content['application/json'].schema.allOf[1].properties.error.properties.code.enum).toContain('origin_not_allowed');
  });

  it('names the server: relative by default (Redocly failed on a document without servers), or the one given', () => {
    expect(doc.servers).toEqual([{ url: '.', description: 'The server this document was fetched from.' }]);
    expect(buildOpenApiDocument({ serverUrl: 'https://chat.example.com' }).servers).toEqual([{ url: 'https://chat.example.com' }]);
  });

  it('documents what drifted (issue 10, defect 9): identity_mismatch on createSession, RateLimit-*, Location, no-store', () => {
    const create = operations.find(({ op }) => op.operationId === 'createSession')!.op;
    expect(create.responses['403'].content['application/json'].schema.allOf[1].properties.error.properties.code.enum).toContain('identity_mismatch');
    expect(Object.keys(create.responses['429'].headers)).toEqual(expect.arrayContaining(['Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']));
    expect(Object.keys(create.responses['201'].headers)).toEqual(expect.arrayContaining(['Location', 'Cache-Control', 'RateLimit-Limit']));
    const history = operations.find(({ op }) => op.operationId === 'listMessages')!.op;
    expect(history.responses['200'].headers['Cache-Control']).toEqual({ $ref: '#/components/headers/NoStore' });
  });

  it('publishes the callback payloads as OpenAPI 3.1 webhooks with the delivery headers @svc/callbacks requires', () => {
    expect(Object.keys(doc.webhooks)).toEqual([
      'message.completed',
      'message.failed',
      'session.created',
      'session.resolved',
      'session.expired',
      'session.rated',
      'session.handoff',
      'message.feedback',
    ]);
    for (const [event, schema] of [
      ['message.completed', 'MessageCompletedEvent'],
      ['message.failed', 'MessageFailedEvent'],
      ['session.created', 'SessionCreatedEvent'],
      ['session.resolved', 'SessionResolvedEvent'],
      ['session.expired', 'SessionExpiredEvent'],
      ['session.rated', 'SessionRatedEvent'],
      ['session.handoff', 'SessionHandoffEvent'],
      ['message.feedback', 'MessageFeedbackEvent'],
    ] as const) {
      const post = doc.webhooks[event].post;
      expect((post.parameters as Json[]).map((p) => [p.name, p.in, p.required])).toEqual([
        ['X-Svc-Signature', 'header', true],
        ['X-Svc-Timestamp', 'header', true],
        ['X-Svc-Event', 'header', true],
        ['X-Svc-Delivery', 'header', true],
      ]);
      expect(post.requestBody.content['application/json'].schema).toEqual({ $ref: `#/components/schemas/${schema}` });
    }
    expect(doc.components.schemas.MessageFailedEvent.properties.messageId).toEqual({ type: 'null' });
    expect(doc.components.schemas.MessageCompletedEvent.properties.data.properties).not.toHaveProperty('messageId');
  });

  it('publishes the lifecycle webhook bodies: the get-session view, and why a session was resolved', () => {
    expect(Object.keys(doc.components.schemas.SessionExpiredEvent.properties)).toEqual(['event', 'id', 'deliveryId', 'createdAt', 'data']);
    expect(doc.components.schemas.SessionExpiredEvent.properties.data).toEqual({ $ref: '#/components/schemas/Session' });
    expect(doc.components.schemas.SessionResolvedEvent.properties.reason).toEqual({ type: 'string', enum: ['ended', 'agent', 'operator'] });
    expect(doc.components.schemas.SessionHandoffEvent.properties.state).toEqual({ type: 'string', enum: ['requested', 'active', 'released'] });
    expect(doc.components.schemas.Session.properties.handoff).toBeDefined();
    expect(Object.keys(doc.components.schemas.MessageFeedbackEvent.properties)).toEqual(['event', 'id', 'deliveryId', 'createdAt', 'data', 'feedback']);
    expect(doc.components.schemas.MessageFeedbackEvent.properties.feedback.properties.rating).toEqual({ type: 'string', enum: ['up', 'down'] });
    expect(doc.webhooks['session.resolved'].post.tags).toEqual(['Sessions']);
  });
});
