import { z } from 'zod';
import { ERROR_STATUS, type ErrorCode } from '@svc/core';
import { listQuerySchema } from '@svc/core/schemas';
import { PATH_PARAMETERS, pathParameters, ROUTES, TAGS, type Route } from '../http/routes.js';
import type { UploadSpec } from '../http/upload.js';
import { componentSchemas, parameterSchema, ref, schemaOf } from './components.js';
import { addStreamingDocs } from './stream-docs.js';

type Json = Record<string, unknown>;

export interface OpenApiDocumentOptions {
  /** The API's base URL, e.g. `https://chat.example.com`; omitted, clients use the document's own origin. */
  serverUrl?: string;
  /** Whom readers of a published document contact: the operator's, so none by default. */
  contact?: { name?: string; url?: string; email?: string };
}

/** The release the document describes; paths carry no version (spec 9). */
export const API_VERSION = '0.1.0';

/**
 * The server reads `limit` from the query string as text (core's `listQuerySchema`); documented as the integer
 * it must spell: 1-100, default 50. A test holds the two to the same bounds.
 */
export const limitParameterSchema = z.int().min(1).max(100).default(50);

function parameters(endpoint: Route): Json[] {
  const list: Json[] = pathParameters(endpoint.path).map((name) => ({
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
  for (const [name, schema] of Object.entries(endpoint.query?.shape ?? {})) {
    const { description, ...rest } = parameterSchema(schema as z.ZodType) as { description?: string };
    list.push({ name, in: 'query', required: false, description: description ?? `Only ${name} matching this.`, schema: rest });
  }
  if (endpoint.identityToken) list.push({ $ref: '#/components/parameters/IdentityToken' });
  if (endpoint.method === 'post' && endpoint.auth === 'key') list.push({ $ref: '#/components/parameters/IdempotencyKey' });
  if (endpoint.auth === 'admin' && endpoint.method !== 'get') list.push({ $ref: '#/components/parameters/CsrfToken' });
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
        headers: { 'X-Request-Id': { $ref: '#/components/headers/RequestId' }, ...(status === 429 ? { 'Retry-After': { $ref: '#/components/headers/RetryAfter' }, ...RATE_LIMIT_HEADERS } : {}) },
        content: {
          'application/json': {
            schema: { allOf: [ref('Error'), { properties: { error: { properties: { code: { enum: group } } } } }] },
          },
        },
      },
    ]),
  );
}

const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': { $ref: '#/components/headers/RateLimitLimit' },
  'RateLimit-Remaining': { $ref: '#/components/headers/RateLimitRemaining' },
  'RateLimit-Reset': { $ref: '#/components/headers/RateLimitReset' },
};

function successHeaders(endpoint: Route, status: string): Json {
  return {
    'X-Request-Id': { $ref: '#/components/headers/RequestId' },
    ...(endpoint.auth !== 'none' ? { 'Cache-Control': { $ref: '#/components/headers/NoStore' } } : {}),
    ...(endpoint.auth !== 'none' && endpoint.errors.includes('rate_limited') ? RATE_LIMIT_HEADERS : {}),
    ...(endpoint.method === 'post' && endpoint.auth === 'key' ? { 'Idempotent-Replayed': { $ref: '#/components/headers/IdempotentReplayed' } } : {}),
    ...(endpoint.auth === 'signin' ? { 'Set-Cookie': { $ref: '#/components/headers/ConsoleCookie' } } : {}),
    ...(status === '201' && endpoint.location ? { Location: { $ref: '#/components/headers/Location' } } : {}),
  };
}

/** Who may call an endpoint: nobody needs credentials for 'none' and 'signin'; the admin API takes a console session or an admin key. */
function security(endpoint: Route): Json {
  if (endpoint.auth === 'none' || endpoint.auth === 'signin') return { security: [] };
  if (endpoint.auth === 'admin') return { security: [{ ConsoleSession: [] }, { ApiKey: ['admin'] }, { AdminBearer: [] }] };
  // OpenAPI 3.1 lets an apiKey requirement name roles: one requirement per scope, any one of them suffices.
  return endpoint.scopes ? { security: endpoint.scopes.map((scope) => ({ ApiKey: [scope] })) } : {};
}

/** A `multipart/form-data` body with one file (OpenAPI 3.1: a binary string with `contentMediaType`). */
function uploadBody(upload: UploadSpec): Json {
  return {
    required: true,
    content: {
      'multipart/form-data': {
        schema: {
          type: 'object',
          required: [upload.field],
          properties: {
            [upload.field]: {
              type: 'string',
              contentMediaType: 'application/octet-stream',
              description: `The file, at most ${Math.floor(upload.maxBytes / (1024 * 1024))} MB. Its type is read from its bytes; the file name breaks ties (Markdown or plain text, CSV or text).`,
            },
          },
        },
      },
    },
  };
}

function operation(endpoint: Route): Json {
  const success = Object.entries(endpoint.responses).map(([status, response]) => [
    status,
    {
      description: response.description,
      headers: successHeaders(endpoint, status),
      ...(response.schema ? { content: { [response.contentType ?? 'application/json']: { schema: schemaOf(response.schema, 'output') } } } : {}),
    },
  ]);
  return {
    operationId: endpoint.operationId,
    tags: [endpoint.tag],
    summary: endpoint.summary,
    description: endpoint.description,
    ...security(endpoint),
    parameters: parameters(endpoint),
    ...(endpoint.body
      ? {
          requestBody: {
            required: endpoint.body.required,
            content: {
              'application/json': { schema: schemaOf(endpoint.body.schema, 'input') },
              // The same object written as YAML (an eval suite as its file is written).
              ...(endpoint.body.yaml ? { 'application/yaml': { schema: schemaOf(endpoint.body.schema, 'input') } } : {}),
            },
          },
        }
      : {}),
    ...(endpoint.upload ? { requestBody: uploadBody(endpoint.upload) } : {}),
    responses: { ...Object.fromEntries(success), ...errorResponses(endpoint.errors) },
  };
}

const DELIVERY_HEADERS: Json[] = [
  {
    name: 'X-Svc-Signature',
    in: 'header',
    required: true,
    description:
      "Hex HMAC-SHA256 of `<X-Svc-Timestamp>.<raw body>` with the key's callback secret. Verify it over the raw bytes (`@svc/callbacks` does), in constant time.",
    schema: { type: 'string', pattern: '^[0-9a-f]{64}$' },
  },
  {
    name: 'X-Svc-Timestamp',
    in: 'header',
    required: true,
    description: 'Unix seconds of this attempt (fresh per attempt); refuse stale ones to stop replays.',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  { name: 'X-Svc-Event', in: 'header', required: true, description: 'The event name, as in the body.', schema: { type: 'string' } },
  {
    name: 'X-Svc-Delivery',
    in: 'header',
    required: true,
    description: 'The delivery id (`dlv_…`), stable across the retries of one delivery: de-duplicate on it.',
    schema: { type: 'string' },
  },
];

function webhook(event: string, schema: 'MessageCompletedEvent' | 'MessageFailedEvent', description: string): Json {
  return {
    post: {
      operationId: event === 'message.completed' ? 'messageCompletedCallback' : 'messageFailedCallback',
      tags: ['Messages'],
      summary: `\`${event}\` callback`,
      description: `${description} POSTed to the callback URL of the server key that sent the message with \`response_type: "callback"\`. Answer any 2xx within 10 s; a failure is retried 0 s, 1 s and 5 s after the previous attempt (4 attempts in all); redirects are not followed.`,
      security: [],
      parameters: DELIVERY_HEADERS,
      requestBody: { required: true, content: { 'application/json': { schema: ref(schema) } } },
      responses: { '200': { description: 'Received (any 2xx).' } },
    },
  };
}

/** A lifecycle webhook (DESIGN.md section 5): sent to the account's webhook endpoints, not to a key's callback URL. */
type LifecycleSchema = 'SessionCreatedEvent' | 'SessionResolvedEvent' | 'SessionExpiredEvent' | 'SessionRatedEvent' | 'SessionHandoffEvent' | 'MessageFeedbackEvent';

function lifecycleWebhook(event: string, schema: LifecycleSchema, description: string): Json {
  const operationId = `${event.replace('.', '_').replace(/_(\w)/g, (_, c: string) => c.toUpperCase())}Webhook`;
  return {
    post: {
      operationId,
      tags: ['Sessions'],
      summary: `\`${event}\` webhook`,
      description: `${description} POSTed to every webhook endpoint of the account subscribed to it (\`svc webhooks create --account A --url U [--events …]\`), signed with the endpoint's secret (during a secret rotation, \`X-Svc-Signature\` carries two comma-separated signatures: one per secret). \`data\` is the session as get-session shows it after the change; \`id\` is the event's, the same at every endpoint. The event is recorded in the transaction that changes the session, so it is sent exactly when the change happened. Answer any 2xx within 10 s; a failure is retried 0 s, 1 s and 5 s after the previous attempt; replay failed ones with \`svc deliveries replay\`.`,
      security: [],
      parameters: DELIVERY_HEADERS,
      requestBody: { required: true, content: { 'application/json': { schema: ref(schema) } } },
      responses: { '200': { description: 'Received (any 2xx).' } },
    },
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
  for (const endpoint of ROUTES) if (endpoint.document !== false) (paths[endpoint.path] ??= {})[endpoint.method] = operation(endpoint);
  // The streaming answers and /chat (documented as the AI SDK defines them) are added to the table's operations.
  return addStreamingDocs({
    openapi: '3.1.0',
    info: {
      title: 'Svc Conversations API',
      version: API_VERSION,
      summary: 'AI chat sessions for websites and apps: sessions, messages, forms, ratings, history.',
      description:
        'Every request carries `X-API-Key` (the admin API under `/admin/v1` takes a console session or an admin key instead: see the `admin` tag). Every response is JSON and carries `meta.creditsConsumed` (0 on errors); errors are `{ error: { code, message, field? }, meta }`. Any POST outside the admin API accepts `Idempotency-Key`: a repeat within 24 h replays the first success. A method a path does not support answers 405 `method_not_allowed` with `Allow`; HEAD is answered only by the operations endpoints (`/healthz`), so it never runs or bills anything. Unknown top-level body fields, wrong types and text PostgreSQL cannot store (NUL, unpaired surrogates) are 400 `validation_failed` naming the field; bodies over 64 KiB are 413.',
      license: { name: 'MIT', identifier: 'MIT' },
      ...(options.contact ? { contact: options.contact } : {}),
    },
    // Relative by default: the API is where the document was fetched from, also under a mount path.
    servers: [options.serverUrl === undefined ? { url: '.', description: 'The server this document was fetched from.' } : { url: options.serverUrl }],
    security: [{ ApiKey: [] }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    paths,
    webhooks: {
      'message.completed': webhook('message.completed', 'MessageCompletedEvent', 'The reply of a callback-mode turn.'),
      'message.failed': webhook('message.failed', 'MessageFailedEvent', 'A callback-mode turn that could not be answered (`error.code` says why; nothing was billed).'),
      'session.created': lifecycleWebhook('session.created', 'SessionCreatedEvent', 'A session was created (resuming one sends nothing).'),
      'session.resolved': lifecycleWebhook('session.resolved', 'SessionResolvedEvent', 'A session was resolved: `reason` is `ended` (the end-session call), `agent` (the AI concluded the conversation) or `operator` (a person resolved it).'),
      'session.expired': lifecycleWebhook('session.expired', 'SessionExpiredEvent', 'A session expired after its widget\'s idle time.'),
      'session.rated': lifecycleWebhook('session.rated', 'SessionRatedEvent', 'A resolved or expired session was rated (each new rating is an event).'),
      'session.handoff': lifecycleWebhook(
        'session.handoff',
        'SessionHandoffEvent',
        'A handoff to a person changed: `state` is `requested` (the visitor asked for a person; the AI stays silent from now on), `active` (an operator took the conversation over) or `released` (back to the AI; `data.handoff` is null).',
      ),
      'message.feedback': lifecycleWebhook(
        'message.feedback',
        'MessageFeedbackEvent',
        'A visitor rated an AI reply thumbs up or down (each new rating is an event): `feedback` is `{ messageId, rating, reason, comment, updatedAt }`, `data` the session.',
      ),
    },
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
        ConsoleSession: {
          type: 'apiKey',
          in: 'cookie',
          name: 'svc_console',
          description:
            'The console session cookie set by `POST /admin/v1/sessions`. Writes (POST, PUT, PATCH, DELETE) made with it also send `X-CSRF-Token` (and, from a browser, an `Origin` of this server), else 403 `csrf_failed`.',
        },
        AdminBearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'A server key with the `admin` scope as `Authorization: Bearer sk_live_…` (the same as sending it in `X-API-Key`).',
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
        CsrfToken: {
          name: 'X-CSRF-Token',
          in: 'header',
          required: false,
          description: 'With the console cookie: the `csrfToken` signing in returned (required then; admin keys need none).',
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
        RateLimitLimit: { description: 'Requests allowed per window for this client (IETF RateLimit header fields).', schema: { type: 'integer', minimum: 0 } },
        RateLimitRemaining: { description: 'Requests left in the current window.', schema: { type: 'integer', minimum: 0 } },
        RateLimitReset: { description: 'Seconds until the window resets.', schema: { type: 'integer', minimum: 0 } },
        ConsoleCookie: {
          description: 'The console session: `svc_console=…; HttpOnly; SameSite=Strict; Path=/` (and `Secure` unless reached on loopback).',
          schema: { type: 'string' },
        },
        NoStore: { description: 'Always `no-store`: conversations and keyed answers must not be cached.', schema: { type: 'string', enum: ['no-store'] } },
        Location: {
          description: 'The resource just created, relative to the request URL (`conversations/sess_…` for `POST …/conversations`), so it holds under any mount path.',
          schema: { type: 'string', format: 'uri-reference' },
        },
      },
    },
  });
}
