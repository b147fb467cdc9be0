import { Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { requestId } from 'hono/request-id';
import { systemClock, SvcError, type Clock, type Engine, type Store, type WidgetConfig } from '@svc/core';
import type { Logger } from 'pino';
import { docsPageHtml } from '../openapi/docs-page.js';
import { buildOpenApiDocument } from '../openapi/document.js';
import { apiKeyAuth, type AppEnv } from './auth.js';
import { MAX_BODY_BYTES, readJsonBody, readRequiredJsonBody } from './body.js';
import { cors } from './cors.js';
import { idempotency, turnIdempotency } from './idempotency.js';
import { clientAddress, rateLimit } from './rate-limit.js';
import { errorBody, sendPage, sendResult } from './respond.js';
import { registerStreamRoutes } from './stream-routes.js';

export interface AppOptions {
  engine: Engine;
  store: Store;
  logger: Logger;
  clock?: Clock;
  /** Requests per minute and client address with a public key (the widget's); default 120. */
  publicRateLimitPerMinute?: number;
  /** Read the client address from X-Forwarded-For (behind a reverse proxy you control). */
  trustProxy?: boolean;
  /** Extra routes (the widget bundle, the demo page) added by the Node entry. */
  extraRoutes?: (app: Hono<AppEnv>) => void;
}

/**
 * The HTTP adapter: web-standard `Request → Response`, mountable under any path of any server that speaks
 * fetch (Node via @hono/node-server, Express via a bridge, Bun, Deno, workers). It only translates: every
 * decision is the engine's.
 */
export function createApp(options: AppOptions): Hono<AppEnv> {
  const { engine, store, logger } = options;
  const clock = options.clock ?? systemClock;
  const app = new Hono<AppEnv>();

  app.use(requestId({ headerName: 'X-Request-Id' }));
  app.use(async (c, next) => {
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
    const { status, body } = errorBody(error);
    if (status >= 500) logger.error({ requestId: c.get('requestId'), err: error }, 'request failed');
    return c.json(body, status);
  });
  app.notFound((c) => {
    const { status, body } = errorBody(new SvcError('not_found', `No endpoint ${c.req.method} ${c.req.path}.`));
    return c.json(body, status);
  });

  app.get('/healthz', async (c) => {
    // A real round trip to the store, so a lost database shows up here and not on a visitor's message.
    await store.getAccount('acct_healthcheck');
    return c.json({ status: 'ok' });
  });

  // The API reference, generated from core's schemas. The relative spec URL keeps working when the app is mounted under a path.
  let openApiDocument: ReturnType<typeof buildOpenApiDocument> | undefined;
  app.get('/openapi.json', (c) => c.json((openApiDocument ??= buildOpenApiDocument())));
  app.get('/docs', (c) => c.html(docsPageHtml('openapi.json')));

  options.extraRoutes?.(app);

  const api = new Hono<AppEnv>();
  const middleware = apiMiddleware({ ...options, clock });
  // Hono's '/x/*' also matches '/x' itself: one pattern per prefix, or the chain would run twice.
  for (const path of ['/widgets/*', '/knowledge-bases/*', '/widget/*']) {
    api.use(path, ...middleware);
  }

  api.get('/widget/config', async (c) => {
    const principal = c.get('principal');
    if (principal.kind !== 'public' || !principal.widgetId) {
      throw new SvcError('insufficient_scope', 'GET /widget/config is for the widget: call it with a pk_live_ public key.');
    }
    const widget = await store.getWidget(principal.widgetId);
    if (!widget) throw new SvcError('widget_not_found', `Widget ${principal.widgetId} was not found.`);
    const data: WidgetConfig = { widgetId: widget.id, name: widget.name, greeting: widget.greeting, language: widget.language, theme: widget.theme };
    return c.json({ data, meta: { creditsConsumed: 0 } });
  });


  const conversation = '/widgets/:widgetId/conversations/:sessionId';
  registerStreamRoutes(api, options); // Before the turn routes: it takes `response_type: "stream"` and /chat.
  api.post('/widgets/:widgetId/conversations', async (c) =>
    sendResult(c, await engine.createSession(c.get('principal'), c.req.param('widgetId'), await readRequiredJsonBody(c))),
  );
  api.post(`${conversation}/messages`, async (c) => {
    // Hashed before the body is parsed: the record must match the exact bytes sent.
    const idempotency = await turnIdempotency(c);
    const body = await readRequiredJsonBody(c);
    const result = await engine.sendMessage(c.get('principal'), c.req.param('widgetId'), c.req.param('sessionId'), body, undefined, { idempotency });
    if (result.replayed) c.header('Idempotent-Replayed', 'true');
    return sendResult(c, result);
  });
  api.get(`${conversation}/messages`, async (c) =>
    sendPage(c, await engine.listMessages(c.get('principal'), c.req.param('widgetId'), c.req.param('sessionId'), c.req.query())),
  );
  api.post(`${conversation}/form-submissions`, async (c) => {
    // Hashed before the body is parsed: the record must match the exact bytes sent.
    const idempotency = await turnIdempotency(c);
    const body = await readRequiredJsonBody(c);
    const result = await engine.submitForm(c.get('principal'), c.req.param('widgetId'), c.req.param('sessionId'), body, undefined, { idempotency });
    if (result.replayed) c.header('Idempotent-Replayed', 'true');
    return sendResult(c, result);
  });
  api.post(`${conversation}/end`, async (c) => {
    await readJsonBody(c); // No body is expected; one that is sent must still be well-formed JSON.
    return sendResult(c, await engine.endSession(c.get('principal'), c.req.param('widgetId'), c.req.param('sessionId')));
  });
  api.post(`${conversation}/rate`, async (c) =>
    sendResult(
      c,
      await engine.rateSession(c.get('principal'), c.req.param('widgetId'), c.req.param('sessionId'), await readRequiredJsonBody(c)),
    ),
  );
  api.get(conversation, async (c) =>
    sendResult(c, await engine.getSession(c.get('principal'), c.req.param('widgetId'), c.req.param('sessionId'))),
  );
  api.get('/knowledge-bases/:kbId/products', async (c) =>
    sendPage(c, await engine.listProducts(c.get('principal'), c.req.param('kbId'), c.req.query())),
  );

  const kb = engine.knowledge;
  api.post('/knowledge-bases', async (c) => sendResult(c, await kb.create(c.get('principal'), await readRequiredJsonBody(c))));
  api.get('/knowledge-bases', async (c) => sendPage(c, await kb.list(c.get('principal'), c.req.query())));
  api.get('/knowledge-bases/:kbId', async (c) => sendResult(c, await kb.get(c.get('principal'), c.req.param('kbId'))));
  api.post('/knowledge-bases/:kbId/products', async (c) =>
    sendResult(c, await kb.upsertProducts(c.get('principal'), c.req.param('kbId'), await readRequiredJsonBody(c))),
  );
  api.put('/knowledge-bases/:kbId/products/:productId', async (c) =>
    sendResult(c, await kb.putProduct(c.get('principal'), c.req.param('kbId'), c.req.param('productId'), await readRequiredJsonBody(c))),
  );
  api.delete('/knowledge-bases/:kbId/products/:productId', async (c) =>
    sendResult(c, await kb.deleteProduct(c.get('principal'), c.req.param('kbId'), c.req.param('productId'))),
  );
  api.get('/knowledge-bases/:kbId/documents', async (c) =>
    sendPage(c, await kb.listDocuments(c.get('principal'), c.req.param('kbId'), c.req.query())),
  );
  api.post('/knowledge-bases/:kbId/documents', async (c) =>
    sendResult(c, await kb.addDocument(c.get('principal'), c.req.param('kbId'), await readRequiredJsonBody(c))),
  );
  api.put('/knowledge-bases/:kbId/documents/:documentId', async (c) =>
    sendResult(c, await kb.replaceDocument(c.get('principal'), c.req.param('kbId'), c.req.param('documentId'), await readRequiredJsonBody(c))),
  );
  api.delete('/knowledge-bases/:kbId/documents/:documentId', async (c) =>
    sendResult(c, await kb.deleteDocument(c.get('principal'), c.req.param('kbId'), c.req.param('documentId'))),
  );
  api.post('/knowledge-bases/:kbId/search', async (c) =>
    sendResult(c, await kb.search(c.get('principal'), c.req.param('kbId'), await readRequiredJsonBody(c))),
  );

  app.route('/', api);
  return app;
}

function apiMiddleware(options: AppOptions & { clock: Clock }): MiddlewareHandler<AppEnv>[] {
  const { store, clock } = options;
  return [
    cors(store),
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () => {
        throw new SvcError('payload_too_large', `The request body exceeds ${MAX_BODY_BYTES / 1024} KiB.`);
      },
    }),
    apiKeyAuth(store, clock),
    rateLimit({
      limit: options.publicRateLimitPerMinute ?? 120,
      windowMs: 60_000,
      clock,
      // Server keys are the operator's own backends; the per-address limit protects public keys used in browsers.
      keyOf: (c) => (c.get('principal').kind === 'public' ? clientAddress(c, options.trustProxy ?? false) : undefined),
    }),
    idempotency(store, clock),
  ];
}
