import express, { type Express } from 'express';
import { getRequestListener } from '@hono/node-server';
import type { Store } from '@svc/core';
import { createLogger, createRuntime } from '@svc/server';

/**
 * An existing Express shop app that gains a chat API under /chat-api. The Svc app is a web-standard fetch
 * handler; `getRequestListener` turns it into a Node (req, res) listener that Express can mount.
 */
export async function createShopApp(store: Store): Promise<Express> {
  const svc = await createRuntime({
    store,
    logger: createLogger(process.env.LOG_LEVEL ?? 'info'),
    config: { cursorSecret: process.env.SVC_CURSOR_SECRET, syncTimeoutMs: 25_000, agentTimeoutMs: 120_000 },
  });

  const app = express();
  app.get('/', (_req, res) => {
    res.send('Welcome to the shop. The chat API lives under /chat-api.');
  });

  // Mount before any body parser (express.json() and friends): the Svc API reads the raw body itself,
  // enforces its 64 KiB limit and answers 415/400 with its own error format. Express strips the /chat-api
  // prefix from req.url, so the API sees the paths of the specification.
  app.use('/chat-api', getRequestListener(svc.app.fetch));

  app.use(express.json());
  app.post('/newsletter', (req, res) => {
    res.json({ subscribed: req.body?.email ?? null });
  });
  return app;
}
