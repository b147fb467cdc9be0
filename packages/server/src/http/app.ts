import { Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { requestId } from 'hono/request-id';
import { systemClock, SvcError, type Clock, type Engine, type Store } from '@svc/core';
import type { Logger } from 'pino';
import { apiKeyAuth, type AppEnv } from './auth.js';
import { MAX_BODY_BYTES, readJsonBody, readRequiredJsonBody } from './body.js';
import { idempotency } from './idempotency.js';
import { errorBody, sendPage, sendResult } from './respond.js';

export interface AppOptions {
  engine: Engine;
  store: Store;
  logger: Logger;
  clock?: Clock;
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

  const api = new Hono<AppEnv>();
  for (const path of ['/widgets/*', '/knowledge-bases/*']) {
    api.use(path, ...apiMiddleware(store, clock));
  }


  const conversation = '/widgets/:widgetId/conversations/:sessionId';
  api.post('/widgets/:widgetId/conversations', async (c) =>
    sendResult(c, await engine.createSession(c.get('principal'), c.req.param('widgetId'), await readRequiredJsonBody(c))),
  );
  api.post(`${conversation}/messages`, async (c) =>
    sendResult(
      c,
      await engine.sendMessage(c.get('principal'), c.req.param('widgetId'), c.req.param('sessionId'), await readRequiredJsonBody(c)),
    ),
  );
  api.get(`${conversation}/messages`, async (c) =>
    sendPage(c, await engine.listMessages(c.get('principal'), c.req.param('widgetId'), c.req.param('sessionId'), c.req.query())),
  );
  api.post(`${conversation}/form-submissions`, async (c) =>
    sendResult(
      c,
      await engine.submitForm(c.get('principal'), c.req.param('widgetId'), c.req.param('sessionId'), await readRequiredJsonBody(c)),
    ),
  );
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

  app.route('/', api);
  return app;
}

function apiMiddleware(store: Store, clock: Clock): MiddlewareHandler<AppEnv>[] {
  return [
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () => {
        throw new SvcError('payload_too_large', `The request body exceeds ${MAX_BODY_BYTES / 1024} KiB.`);
      },
    }),
    apiKeyAuth(store),
    idempotency(store, clock),
  ];
}
