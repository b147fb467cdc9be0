import { z } from 'zod';
import { ERROR_STATUS, listQuerySchema, productSchema, sessionIdSchema, type ErrorCode } from '@svc/core';
import { componentSchemas, parameterSchema, ref } from './components.js';
import { ENDPOINTS, type Endpoint, type PathParameter } from './endpoints.js';
import { addStreamingDocs } from './stream-docs.js';

type Json = Record<string, unknown>;

export interface OpenApiDocumentOptions {
  /** The API's base URL, e.g. `https://chat.example.com`; omitted, clients use the document's own origin. */
  serverUrl?: string;
}

/** The release the document describes; paths carry no version (spec 9). */
export const API_VERSION = '0.1.0';

const PATH_PARAMETERS: Record<PathParameter, { description: string; schema: z.ZodType }> = {
  widgetId: { description: 'The widget (chatbot), e.g. `wgt_…`.', schema: z.string().min(1) },
  sessionId: { description: 'The session: a generated `sess_…` id or one the client chose.', schema: sessionIdSchema },
  kbId: { description: 'The knowledge base, e.g. `kb_…`.', schema: z.string().min(1) },
  productId: { description: 'The product: the `id` it was given in the catalogue.', schema: productSchema.shape.id },
  documentId: { description: 'The document, e.g. `doc_…`.', schema: z.string().min(1) },
};

/**
 * The server reads `limit` from the query string as text (core's `listQuerySchema`); documented as the integer
 * it must spell: 1-100, default 50. A test holds the two to the same bounds.
 */
export const limitParameterSchema = z.int().min(1).max(100).default(50);

function parameters(endpoint: Endpoint): Json[] {
  const list: Json[] = endpoint.pathParameters.map((name) => ({
    name,
    in: 'path',
    required: true,
    description: PATH_PARAMETERS[name].description,
    schema: parameterSchema(PATH_PARAMETERS[name].schema),
  }));
  if (endpoint.paginated) {
    list.push(
      { name: 'limit', in: 'query', required: false, description: 'Items per page.', schema: parameterSchema(limitParameterSchema) },
      {
        name: 'cursor',
        in: 'query',
        required: false,
        description: 'The `pagination.cursor` of the previous page; opaque.',
        schema: parameterSchema(listQuerySchema.shape.cursor),
      },
    );
  }
  if (endpoint.identityToken) list.push({ $ref: '#/components/parameters/IdentityToken' });
  if (endpoint.method === 'post') list.push({ $ref: '#/components/parameters/IdempotencyKey' });
  return list;
}

/** Groups an endpoint's error codes by status: one response per status, its codes listed and enumerated. */
function errorResponses(codes: readonly ErrorCode[]): Record<string, Json> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set(codes)) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  return Object.fromEntries(
    [...byStatus].sort(([a], [b]) => a - b).map(([status, group]) => [
      String(status),
      {
        description: `Error codes: ${group.map((code) => `\`${code}\``).join(', ')}.`,
        headers: { 'X-Request-Id': { $ref: '#/components/headers/RequestId' }, ...(status === 429 ? { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } } : {}) },
        content: {
          'application/json': {
            schema: { allOf: [ref('Error'), { properties: { error: { properties: { code: { enum: group } } } } }] },
          },
        },
      },
    ]),
  );
}

function operation(endpoint: Endpoint): Json {
  const success = Object.entries(endpoint.responses).map(([status, response]) => [
    status,
    {
      description: response.description,
      headers: {
        'X-Request-Id': { $ref: '#/components/headers/RequestId' },
        ...(endpoint.method === 'post' ? { 'Idempotent-Replayed': { $ref: '#/components/headers/IdempotentReplayed' } } : {}),
      },
      content: { 'application/json': { schema: ref(response.schema) } },
    },
  ]);
  return {
    operationId: endpoint.operationId,
    tags: [endpoint.tag],
    summary: endpoint.summary,
    description: endpoint.description,
    // OpenAPI 3.1 lets an apiKey requirement name roles: one requirement per scope, any one of them suffices.
    ...(endpoint.public ? { security: [] } : endpoint.scopes ? { security: endpoint.scopes.map((scope) => ({ ApiKey: [scope] })) } : {}),
    parameters: parameters(endpoint),
    ...(endpoint.body
      ? { requestBody: { required: endpoint.body.required, content: { 'application/json': { schema: ref(endpoint.body.schema) } } } }
      : {}),
    responses: { ...Object.fromEntries(success), ...errorResponses(endpoint.errors) },
  };
}

/**
 * The OpenAPI 3.1 document of the HTTP API, generated from @svc/core's zod schemas and error table: every
 * endpoint, parameter, body, success and error response. Serve it as JSON.
 *
 * @example
 * app.get('/openapi.json', (c) => c.json(buildOpenApiDocument({ serverUrl: new URL(c.req.url).origin })));
 */
export function buildOpenApiDocument(options: OpenApiDocumentOptions = {}): Json {
  const paths: Record<string, Record<string, Json>> = {};
  for (const endpoint of ENDPOINTS) (paths[endpoint.path] ??= {})[endpoint.method] = operation(endpoint);
  return addStreamingDocs({
    openapi: '3.1.0',
    info: {
      title: 'Svc Conversations API',
      version: API_VERSION,
      summary: 'AI chat sessions for websites and apps: sessions, messages, forms, ratings, history.',
      description:
        'Every request carries `X-API-Key`. Every response is JSON and carries `meta.creditsConsumed` (0 on errors); errors are `{ error: { code, message, field? }, meta }`. Any POST accepts `Idempotency-Key`: a repeat within 24 h replays the first success.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    ...(options.serverUrl === undefined ? {} : { servers: [{ url: options.serverUrl }] }),
    security: [{ ApiKey: [] }],
    tags: [
      { name: 'Sessions', description: 'Create, read, end and rate chat sessions.' },
      { name: 'Messages', description: 'Send visitor messages and read the history.' },
      { name: 'Forms', description: 'Answer the dynamic forms a reply surfaces.' },
      { name: 'Knowledge bases', description: 'The products and documents the AI answers from: manage them and search them as the AI does.' },
      { name: 'Widget', description: 'What the embeddable widget reads with its public key.' },
      { name: 'Operations', description: 'Running the service.' },
    ],
    paths,
    components: {
      schemas: componentSchemas(),
      securitySchemes: {
        ApiKey: {
          type: 'apiKey',
          in: 'header',
          name: 'X-API-Key',
          description:
            'A server key (`sk_live_…`) with the scopes the endpoint needs (listed as the roles of its security requirement; any one suffices), or a widget public key (`pk_live_…`), which may only call its own widget\'s conversation endpoints and `GET /widget/config`, from one of its allowed origins (else 403 `origin_not_allowed`).',
        },
      },
      parameters: {
        IdentityToken: {
          name: 'X-Identity-Token',
          in: 'header',
          required: false,
          description:
            "Public (widget) keys only: the signed-in visitor's identity as a JWT signed with the widget's identity secret (HS256; `sub` and `exp` required, at most 24 h). One that does not verify is 401 `invalid_identity_token`; a server key sends an `identity` object instead and gets 400 `validation_failed` for this header.",
          schema: { type: 'string', minLength: 1 },
        },
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'Makes the POST safe to retry: a repeat with the same key and body within 24 h replays the first successful response, runs nothing twice and bills once; the same key with another body is 422 `idempotency_key_reused`.',
          // As the server's idempotency middleware checks it.
          schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' },
        },
      },
      headers: {
        RequestId: { description: 'Identifies the request in the server logs; quote it when reporting a problem.', schema: { type: 'string' } },
        IdempotentReplayed: { description: '`true` when the response is the replay of an earlier request with the same `Idempotency-Key`.', schema: { type: 'string', enum: ['true'] } },
        RetryAfter: { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 0 } },
      },
    },
  });
}
