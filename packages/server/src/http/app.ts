import { Hono, type Handler, type MiddlewareHandler } from 'hono';
import { requestId } from 'hono/request-id';
import { systemClock, SvcError, type Clock, type Core, type Store } from '@svc/core';
import { parseInput } from '@svc/core/schemas';
import type { Logger } from 'pino';
import { createOperations, operationsMiddleware, type Operations } from '../operations/operations.js';
import { buildOpenApiDocument } from '../openapi/document.js';
import { adminAuth, claimsAdminKey, requireRole } from './admin-auth.js';
import { OWNER } from './admin-route-kit.js';
import { apiKeyAuth, type AppEnv } from './auth.js';
import { SSE_CONTENT_TYPE } from './sse.js';
import { limitBody, readJsonBody, readJsonOrYamlBody, readRequiredJsonBody, type BodyLimit } from './body.js';
import { MULTIPART_OVERHEAD_BYTES, readUpload, type UploadedPart } from './upload.js';
import { cors } from './cors.js';
import { idempotency } from './idempotency.js';
import { clientAddress, rateLimit } from './rate-limit.js';
import { createEventStreamSlots, type EventStreamLimits } from './session-event-stream.js';
import type { ServerServices } from './server-services.js';
import { errorBody, sendPage, sendResult } from './respond.js';
import { allowedMethods, honoPath, PATH_PARAMETERS, pathParameters, ROUTES, type Route } from './routes.js';

export interface AppOptions {
  /** Every operation the routes translate to (`createCore`). */
  core: Core;
  /** For the middleware that runs before any operation: keys, CORS origins, rate limits, idempotency records. */
  store: Store;
  logger: Logger;
  clock?: Clock;
  /** Requests per minute and client address, counted before authentication; server keys are exempt. Default 120. */
  publicRateLimitPerMinute?: number;
  /** Reverse proxies you control in front of the server (true means 1): the client address comes from X-Forwarded-For. */
  trustProxy?: boolean | number;
  /** Extra routes (the widget bundle, the demo page) added by the Node entry. */
  extraRoutes?: (app: Hono<AppEnv>) => void;
  /** How often a comment line keeps an idle event stream open; default 15,000 ms (DESIGN.md section 4). */
  streamKeepAliveMs?: number;
  /** Metrics and the draining flag behind /readyz and /metrics; one of its own when absent. */
  operations?: Operations;
  /** Caps on open session event streams (per session, per key); default 3 and 1,000. */
  eventStreamLimits?: Partial<EventStreamLimits>;
}

/**
 * The HTTP adapter: web-standard `Request → Response`, mountable under any path of any server that speaks
 * fetch (Node via @hono/node-server, Express via a bridge, Bun, Deno, workers). It only translates: every
 * decision is the core's.
 */
export function createApp(options: AppOptions): Hono<AppEnv> {
  const { core, store, logger } = options;
  const clock = options.clock ?? systemClock;
  const app = new Hono<AppEnv>();

  app.use(requestId({ headerName: 'X-Request-Id' }));
  // Every event stream names its charset (sse.ts says why); Hono's `streamSSE` does not.
  app.use(async (c, next) => {
    await next();
    if (c.res.headers.get('Content-Type') === 'text/event-stream') c.res.headers.set('Content-Type', SSE_CONTENT_TYPE);
  });
  app.use(async (c, next) => {
    if (!logger.isLevelEnabled('info')) return next();
    const started = performance.now();
    await next();
    // Keys, bodies and secrets are never logged: only what identifies the request and its outcome.
    logger.info(
      {
        requestId: c.get('requestId'),
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
        keyId: c.get('principal')?.keyId,
      },
      'request',
    );
  });

  app.onError((error, c) => {
    const { status, body, retryAfterSeconds } = errorBody(error);
    if (retryAfterSeconds !== undefined) c.header('Retry-After', String(retryAfterSeconds));
    if (status >= 500) logger.error({ requestId: c.get('requestId'), err: error }, 'request failed');
    return c.json(body, status);
  });
  app.notFound((c) => {
    const allow = allowedMethods(ROUTES, c.req.path);
    // An OPTIONS that is not a CORS preflight asks what the path supports.
    if (c.req.method === 'OPTIONS' && allow.length > 0) return c.body(null, 204, { Allow: allow.join(', ') });
    const { status, body } = errorBody(new SvcError('not_found', `No endpoint ${c.req.method} ${c.req.path}.`));
    return c.json(body, status);
  });

  // Request metrics and compression (DESIGN.md section 9), before everything they measure.
  const operations = options.operations ?? createOperations(store);
  operationsMiddleware(operations)(app);

  // Wrong methods on known paths are 405 with `Allow` from the route table, before any key check or query;
  // HEAD only where the table allows it, so it never runs or bills a metered read.
  app.use(async (c, next) => {
    const allow = allowedMethods(ROUTES, c.req.path);
    if (allow.length === 0 || allow.includes(c.req.method)) return next();
    c.header('Allow', allow.join(', '));
    throw new SvcError('method_not_allowed', `${c.req.method} is not allowed on ${c.req.path}; use ${allow.filter((m) => m !== 'OPTIONS' && m !== 'HEAD').join(' or ')}.`);
  });

  options.extraRoutes?.(app);

  const keyed = apiMiddleware({ ...options, clock });
  const uploadKeyed = (route: Route) => (route.upload || route.maxBodyBytes ? apiMiddleware({ ...options, clock }, uploadLimit(route)) : keyed);
  const limited = requestLimit({ ...options, clock }, claimsAdminKey);
  const admin = (route: Route) => [noStore, checkPathIds(route), limited, limitBody(uploadLimit(route)), adminAuth({ store, admin: core.admin }), requireRole(route.roles ?? OWNER)];
  const signin = (route: Route) => [noStore, checkPathIds(route), limited, limitBody()];
  // Hono's '/x/*' also matches '/x' itself: one pattern per prefix, or CORS would run twice.
  for (const path of ['/widgets/*', '/knowledge-bases/*', '/widget/*']) app.use(path, cors(store));

  let openApiDocument: ReturnType<typeof buildOpenApiDocument> | undefined;
  const trustedProxyHops = Number(options.trustProxy ?? 0);
  const server: Omit<ServerServices, 'clientAddress'> = {
    openApiDocument: () => (openApiDocument ??= buildOpenApiDocument()),
    stream: { logger, keepAliveMs: options.streamKeepAliveMs },
    eventStreams: { logger, keepAliveMs: options.streamKeepAliveMs, slots: createEventStreamSlots(options.eventStreamLimits) },
    operations,
  };
  app.use(async (c, next) => {
    c.set('server', { ...server, clientAddress: () => clientAddress(c, trustedProxyHops) });
    await next();
  });
  for (const route of ROUTES) {
    const chain =
      route.auth === 'key' ? [noStore, checkPathIds(route), ...uploadKeyed(route)] : route.auth === 'admin' ? admin(route) : route.auth === 'signin' ? signin(route) : [checkPathIds(route)];
    app.on(route.method.toUpperCase(), [honoPath(route.path)], ...chain, runRoute(route, core));
  }
  return app;
}

/** An upload's body is capped at its file's limit (plus the multipart framing) instead of 64 KiB. */
function uploadLimit(route: Route): BodyLimit {
  if (route.maxBodyBytes !== undefined) return { maxBytes: route.maxBodyBytes };
  return route.upload ? { maxBytes: route.upload.maxBytes + MULTIPART_OVERHEAD_BYTES, binary: true } : {};
}

/** Conversations and keyed answers are private and change: never cached (errors and replays included). */
const noStore: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  c.res.headers.set('Cache-Control', 'no-store');
};

/** Path ids are checked against the table's schemas before any key lookup or query (DESIGN.md section 4). */
function checkPathIds(route: Route): MiddlewareHandler<AppEnv> {
  const names = pathParameters(route.path);
  return async (c, next) => {
    for (const name of names) parseInput(PATH_PARAMETERS[name].schema, c.req.param(name), name);
    await next();
  };
}

function runRoute(route: Route, core: Core): Handler<AppEnv> {
  return async (c) => {
    let body: Record<string, unknown> | undefined;
    const spec = route.upload;
    // An upload's file is read by its handler (`upload()`), once it has checked what the path names.
    const upload = spec ? (): Promise<UploadedPart> => readUpload(c, spec) : undefined;
    if (route.body) body = route.body.yaml ? await readJsonOrYamlBody(c) : route.body.required ? await readRequiredJsonBody(c) : await readJsonBody(c);
    // No body is expected; one that is sent must still be well-formed JSON.
    else if (!spec && route.method !== 'get') await readJsonBody(c);
    const inputs = { c, core, params: c.req.param(), body, query: c.req.query(), ...(upload ? { upload } : {}) };
    // Each kind of route gets the caller its authentication resolved: a key's principal, an operator, or nobody.
    const result =
      route.auth === 'key'
        ? await route.handler({ ...inputs, caller: c.get('principal') })
        : route.auth === 'admin'
          ? await route.handler({ ...inputs, caller: c.get('admin') })
          : await route.handler({ ...inputs, caller: undefined });
    if (result instanceof Response) return result;
    // A turn answered from its Idempotency-Key record (the engine recognised the repeat) says so, as other replays do.
    if ('replayed' in result && result.replayed) c.header('Idempotent-Replayed', 'true');
    if (result.status === 201 && route.location) {
      // Relative to the request's URL (RFC 9110 10.2.2), so it stays right when the app is mounted under a prefix
      // it cannot see (Express strips it): POST …/conversations answers `conversations/sess_…`.
      const collection = c.req.path.split('/').at(-1)!;
      c.header('Location', `${collection}/${encodeURIComponent(route.location(result.data as never))}`);
    }
    return 'pagination' in result ? sendPage(c, result) : sendResult(c, result);
  };
}

/** The per-address request limit (DESIGN.md section 4), before the body is read and before any key lookup. */
function requestLimit(options: AppOptions & { clock: Clock }, claimsServerKey?: Parameters<typeof rateLimit>[0]['claimsServerKey']): MiddlewareHandler<AppEnv> {
  return rateLimit({
    store: options.store,
    clock: options.clock,
    limit: options.publicRateLimitPerMinute ?? 120,
    windowMs: 60_000,
    trustedProxyHops: Number(options.trustProxy ?? 0),
    ...(claimsServerKey ? { claimsServerKey } : {}),
  });
}

function apiMiddleware(options: AppOptions & { clock: Clock }, bodyLimit?: BodyLimit): MiddlewareHandler<AppEnv>[] {
  const { store, clock } = options;
  return [
    cors(store),
    requestLimit(options),
    limitBody(bodyLimit),
    apiKeyAuth(store, clock),
    idempotency(store, clock),
  ];
}
