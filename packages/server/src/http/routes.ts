import type { Context } from 'hono';
import { z } from 'zod';
import { documentIdSchema, evalSuiteNameSchema, knowledgeBaseIdSchema, LABEL_PATTERN, productSchema, sessionIdSchema, widgetIdSchema } from '@svc/core/schemas';
import type { Core, EngineResult, ErrorCode, OperatorRole, PageResult, Principal, Scope } from '@svc/core';
import type { AdminCaller } from './admin-auth.js';
import { ADMIN_ROUTES } from './admin-routes.js';
import type { AppEnv } from './auth.js';
import type { UploadedPart, UploadSpec } from './upload.js';
import { KNOWLEDGE_ROUTES } from './knowledge-routes.js';
import { OPERATIONS_ROUTES } from './operations-routes.js';
import { SESSION_ROUTES } from './session-routes.js';
import { SOURCE_ROUTES } from './sources-routes.js';

/**
 * THE ROUTE TABLE: every endpoint of the HTTP app, once (the entries are in session-routes.ts, knowledge-routes.ts, sources-routes.ts,
 * operations-routes.ts and the admin-*-routes.ts files, gathered here). `createApp` mounts each entry on Hono (with its
 * middleware, path-id checks, 405/`Allow`, `Cache-Control`, `Location`), and `buildOpenApiDocument` writes the
 * OpenAPI document from the same entries, so the two cannot drift.
 *
 * Adding an endpoint is one entry in the file of its group:
 *   1. `method` and `path` in OpenAPI form (`/widgets/{widgetId}/…`). Each `{param}` must be a key of
 *      PATH_PARAMETERS (add a zod schema there for a new one: it is checked before any query, and documented).
 *   2. `auth`: 'key' (X-API-Key, CORS, body limit, rate limit, idempotency on POST), 'none' (operations
 *      endpoints such as /healthz, /readyz, /metrics), 'admin' (the admin API: a console session with CSRF on
 *      writes, or a server key with the `admin` scope; `roles` say which operators may call it, default owner)
 *      or 'signin' (signing in to the console: body limit and rate limit, no credentials yet). `scopes` and
 *      `identityToken` document what a key needs.
 *   3. `body` (a zod schema from @svc/core; `required: false` for an optional body), `paginated` for `limit`/`cursor`.
 *   4. `responses`: status → zod schema (registered in openapi/components.ts to get a component name, inlined
 *      otherwise) and description; `contentType` for anything but JSON (e.g. 'text/event-stream').
 *   5. `errors`: every ErrorCode it can answer (statuses come from core's ERROR_STATUS); spread the groups of
 *      route-kit.ts.
 *   6. `handler`: translate to a call of the core (`core.api`, `core.admin`, `core.events`) and return its
 *      EngineResult/PageResult, or a Response of its own
 *      (a stream). `location` names the id of a 201's new resource for the `Location` header.
 *   `document: false` keeps an entry (e.g. /docs) out of the OpenAPI document but still in 405 handling.
 */

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** The tags of the document, in order, with their descriptions. */
export const TAGS = {
  Sessions: 'Create, read, end and rate chat sessions.',
  Messages: 'Send visitor messages and read the history.',
  Forms: 'Answer the dynamic forms a reply surfaces.',
  'Knowledge bases': 'The products and documents the AI answers from: manage them and search them as the AI does.',
  Widget: 'What the embeddable widget reads with its public key.',
  Operations: 'Running the service.',
  admin:
    'The admin API behind the console (`/admin/v1`): sign in as an operator (session cookie `svc_console`; writes send `X-CSRF-Token`), or call it with a server key that has the `admin` scope. Every call works on the caller\'s own account.',
} as const;
export type Tag = keyof typeof TAGS;

/** A generated id in an admin path: the label rules every id follows, checked before any query. */
function adminIdSchema(name: string) {
  return z
    .string()
    .min(1, { error: `${name} must not be empty` })
    .max(128, { error: `${name} must be at most 128 characters` })
    .regex(LABEL_PATTERN, { error: `${name} is not a valid id: letters, digits and _ - . : @ only` });
}

/** Every path parameter: validated (pattern, length) before any query, 400 `validation_failed` naming it. */
export const PATH_PARAMETERS = {
  widgetId: { description: 'The widget (chatbot), e.g. `wgt_…`.', schema: widgetIdSchema },
  sessionId: { description: 'The session: a generated `sess_…` id or one the client chose.', schema: sessionIdSchema },
  chatId: { description: "An AI SDK chat's `id`: the session it names (POST /widgets/{widgetId}/chat).", schema: sessionIdSchema },
  kbId: { description: 'The knowledge base, e.g. `kb_…`.', schema: knowledgeBaseIdSchema },
  productId: { description: 'The product: the `id` it was given in the catalogue.', schema: productSchema.shape.id },
  documentId: { description: 'The document, e.g. `doc_…`.', schema: documentIdSchema },
  sourceId: { description: 'A knowledge source, e.g. `src_…`.', schema: adminIdSchema('sourceId') },
  keyId: { description: 'An API key, e.g. `key_…` (not the key itself).', schema: adminIdSchema('keyId') },
  webhookId: { description: 'A webhook endpoint, e.g. `whk_…`.', schema: adminIdSchema('webhookId') },
  deliveryId: { description: 'A callback or webhook delivery, e.g. `dlv_…`.', schema: adminIdSchema('deliveryId') },
  messageId: { description: 'A message of the session, e.g. `msg_…` (the `messageId` of a reply or history item).', schema: adminIdSchema('messageId') },
  groupId: { description: 'A group of questions on the questions page, e.g. `qgr_…`.', schema: adminIdSchema('groupId') },
  runId: { description: 'An eval run, e.g. `evr_…`.', schema: adminIdSchema('runId') },
  suite: { description: "An eval suite's name: letters, digits, `_`, `.` and `-`.", schema: evalSuiteNameSchema },
} satisfies Record<string, { description: string; schema: z.ZodType<string> }>;
export type PathParameter = keyof typeof PATH_PARAMETERS;

/** Who calls, by the route's `auth`: the key's principal, the operator or admin key, or nobody yet. */
export interface Callers {
  key: Principal;
  admin: AdminCaller;
  none: undefined;
  signin: undefined;
}
export type Auth = keyof Callers;

/**
 * What a handler is given: the request, the core, the caller, and the already-checked inputs; nothing else, so every
 * operation goes through the core (DESIGN.md section 3b). What only the HTTP adapter has (stream settings, metrics,
 * the client's address) is on the request's context as `c.var.server`.
 */
export interface RouteCall<A extends Auth = Auth> {
  c: Context<AppEnv>;
  core: Core;
  caller: Callers[A];
  /** Path parameters, validated against PATH_PARAMETERS. */
  params: Record<string, string>;
  /** The JSON body: `{}` when a required body is absent, so validation names its first field. */
  body: Record<string, unknown> | undefined;
  query: Record<string, string>;
  /**
   * The file of an `upload` route, read from its multipart body when the handler asks (after checking what the path
   * names, so a wrong knowledge base is a 404 whatever the body).
   */
  upload?: () => Promise<UploadedPart>;
}

export type RouteResult = EngineResult<unknown> | PageResult<unknown> | Response;

export interface ResponseSpec {
  /** Absent for a response without a body (204). */
  schema?: z.ZodType;
  description: string;
  /** Default `application/json`. */
  contentType?: string;
}

export interface RouteSpec<A extends Auth> {
  method: Method;
  path: string;
  operationId: string;
  tag: Tag;
  summary: string;
  description: string;
  auth: A;
  scopes?: readonly Scope[];
  /** Admin routes: the operator roles allowed (an admin key acts as `owner`). Default owner only. */
  roles?: readonly OperatorRole[];
  /** Callable with a widget public key, which may carry the visitor's identity token (`X-Identity-Token`). */
  identityToken?: boolean;
  paginated?: boolean;
  /** Query parameters beyond `limit`/`cursor`, for the document (the operation validates them). */
  query?: z.ZodObject;
  /** `yaml`: the body may also come as YAML (`Content-Type: application/yaml`), read into the same object. */
  body?: { schema: z.ZodType; required: boolean; yaml?: boolean };
  /** A `multipart/form-data` upload instead of a JSON body: the field of its one file and the file's size limit. */
  upload?: UploadSpec;
  /** A JSON body larger than the 64 KiB of DESIGN.md section 4 (the AI SDK's chat body re-sends the conversation). */
  maxBodyBytes?: number;
  responses: Partial<Record<200 | 201 | 202 | 204, ResponseSpec>>;
  errors: readonly ErrorCode[];
  /** The id of the resource a 201 created, appended to the request path for `Location`. */
  location?: (data: never) => string;
  /** Free operational GETs may answer HEAD (run as GET, body dropped); everything else answers HEAD with 405. */
  head?: boolean;
  /** Default true. */
  document?: boolean;
  handler: (call: RouteCall<A>) => Promise<RouteResult>;
}

/** One entry of the table; `auth` decides what `caller` its handler gets. */
export type Route = { [A in Auth]: RouteSpec<A> }[Auth];

/** Every endpoint the HTTP app mounts (spec section 4), in the order a client meets them; the admin API last. */
export const ROUTES: readonly Route[] = [...SESSION_ROUTES, ...KNOWLEDGE_ROUTES, ...SOURCE_ROUTES, ...OPERATIONS_ROUTES, ...ADMIN_ROUTES];

/** `/widgets/{widgetId}` → `/widgets/:widgetId` (Hono's form). */
export const honoPath = (path: string): string => path.replace(/\{(\w+)\}/g, ':$1');

/** The path parameters a template names, in order. */
export const pathParameters = (path: string): PathParameter[] =>
  [...path.matchAll(/\{(\w+)\}/g)].map((match) => {
    if (!(match[1]! in PATH_PARAMETERS)) throw new Error(`Route ${path}: add {${match[1]}} to PATH_PARAMETERS.`);
    return match[1] as PathParameter;
  });

/** Each template split once, and filed by its number of segments: every request asks (the 405 check). */
const compiledTables = new WeakMap<readonly Route[], Map<number, Array<{ route: Route; segments: Array<string | null> }>>>();

function compiled(routes: readonly Route[]): Map<number, Array<{ route: Route; segments: Array<string | null> }>> {
  let table = compiledTables.get(routes);
  if (!table) {
    table = new Map();
    for (const route of routes) {
      // null stands for a `{parameter}` segment, which matches any non-empty segment.
      const segments = route.path.split('/').map((segment) => (/^\{\w+\}$/.test(segment) ? null : segment));
      table.set(segments.length, [...(table.get(segments.length) ?? []), { route, segments }]);
    }
    compiledTables.set(routes, table);
  }
  return table;
}

/** The `Allow` value for a request path, from the table (HEAD only where the route answers it). */
export function allowedMethods(routes: readonly Route[], path: string): string[] {
  const methods = new Set<string>();
  const got = path.split('/');
  for (const { route, segments } of compiled(routes).get(got.length) ?? []) {
    if (!segments.every((segment, i) => (segment === null ? got[i] !== '' : segment === got[i]))) continue;
    methods.add(route.method.toUpperCase());
    if (route.head) methods.add('HEAD');
    // Browsers preflight keyed routes (CORS).
    if (route.auth === 'key') methods.add('OPTIONS');
  }
  const order = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
  return order.filter((method) => methods.has(method));
}
