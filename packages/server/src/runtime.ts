import { createEngine, randomBase62, type Agent, type Clock, type Engine, type Store } from '@svc/core';
import { createLocalAgent } from '@svc/agents';
import type { Hono } from 'hono';
import type { Logger } from 'pino';
import type { ServerConfig } from './config.js';
import type { AppEnv } from './http/auth.js';
import { formatReply } from './reply-format.js';
import { createApp } from './http/app.js';

export interface Runtime {
  store: Store;
  engine: Engine;
  app: Hono<AppEnv>;
  logger: Logger;
}

export interface RuntimeOptions {
  config: Pick<ServerConfig, 'cursorSecret' | 'syncTimeoutMs' | 'agentTimeoutMs'>;
  store: Store;
  logger: Logger;
  /** Defaults to the offline local agent answering from the store's knowledge bases. */
  agent?: Agent;
  clock?: Clock;
}

/** Wires the ports into an engine and the engine into the HTTP app. Everything a server or a test needs. */
export async function createRuntime(options: RuntimeOptions): Promise<Runtime> {
  const { store, logger, config } = options;
  // Shared through the database, so every instance accepts every other instance's cursors, across restarts.
  const cursorSecret = config.cursorSecret ?? (await store.getOrCreateSetting('cursor_secret', () => randomBase62(43)));
  const engine = createEngine({
    store,
    agent: options.agent ?? createLocalAgent({ knowledge: store }),
    cursorSecret,
    syncTimeoutMs: config.syncTimeoutMs,
    agentTimeoutMs: config.agentTimeoutMs,
    ...(options.clock ? { clock: options.clock } : {}),
    logger: { error: (message, details) => logger.error(details, message) },
    formatReply,
  });
  const app = createApp({ engine, store, logger, ...(options.clock ? { clock: options.clock } : {}) });
  return { store, engine, app, logger };
}
