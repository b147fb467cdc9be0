import { createCore, createRetriever, randomBase62, systemClock, type Agent, type Clock, type Core, type EmbeddingProvider, type KnowledgeRetriever, type PasswordHasher, type SiteReader, type Store } from '@svc/core';
import { startWorkers, type WorkerOptions, type Workers } from './workers/workers.js';
import { createSiteReader } from './ingest/site-reader.js';
import { createLocalAgent } from '@svc/agents';
import type { Hono } from 'hono';
import type { Logger } from 'pino';
import type { ServerConfig } from './config.js';
import type { AppEnv } from './http/auth.js';
import { formatReply } from './reply-format.js';
import { widgetRoutes } from './widget-assets.js';
import { consoleRoutes } from './console-assets.js';
import { createApp } from './http/app.js';
import { createOperations, type Operations } from './operations/operations.js';
import { scryptPasswords } from './cli/passwords.js';
import { callbackUrlProblem } from './net/address-policy.js';

export interface Runtime {
  store: Store;
  /** Every operation of the service, on this runtime's ports (`createCore`). */
  core: Core;
  app: Hono<AppEnv>;
  logger: Logger;
  /** Metrics and the draining flag (/readyz, /metrics). */
  operations: Operations;
  /** Starts the callback workers in this process (turn jobs and deliveries). */
  startWorkers(options?: Partial<Omit<WorkerOptions, 'store' | 'work' | 'logger'>>): Workers;
}

export interface RuntimeOptions {
  config: Pick<ServerConfig, 'cursorSecret' | 'syncTimeoutMs' | 'agentTimeoutMs'> &
    Partial<
      Pick<ServerConfig, 'allowPrivateUrls' | 'allowPrivateCallbacks' | 'publicRateLimitPerMinute' | 'trustProxy' | 'publicUrl' | 'sourceLeaseMs' | 'sourcePageTimeoutMs'>
    >;
  store: Store;
  logger: Logger;
  /** Defaults to the offline local agent answering through `retriever`. */
  agent?: Agent;
  /** The one retrieval of the search endpoint and the default agent; full text over the store by default. */
  retriever?: KnowledgeRetriever;
  /**
   * The embedding provider (DESIGN.md section 11): the workers compute passage vectors with it and knowledge bases
   * show their progress. Give `retriever` the same one.
   */
  embeddings?: EmbeddingProvider;
  /**
   * How website sources are read (DESIGN.md section 11 "Sources"); by default the Node site reader under the one
   * address policy (loopback and private addresses only with SVC_ALLOW_PRIVATE_URLS).
   */
  reader?: SiteReader;
  /** More routes outside the API (the Node entry adds the CLI's admin endpoint). */
  extraRoutes?: (app: Hono<AppEnv>) => void;
  clock?: Clock;
  /** A running turn's lease (renewed while it runs); a crashed process's turns are retaken after it. Default 15 s. */
  turnLeaseMs?: number;
  /** Fallback poll for turns queued here and for waiters, should a notification be lost. Default 1 s. */
  turnPollMs?: number;
  /** Also export process metrics (memory, CPU, event loop) on /metrics: for the one app a process serves. */
  processMetrics?: boolean;
  /** How operator passwords are hashed; scrypt by default. */
  passwords?: PasswordHasher;
}

/** Wires the ports into the core and the core into the HTTP app. Everything a server or a test needs. */
export async function createRuntime(options: RuntimeOptions): Promise<Runtime> {
  const { logger, config } = options;
  const operations = createOperations(options.store, { processMetrics: options.processMetrics ?? false });
  // Delivery attempts counted on their way to the database; everything else goes straight through.
  const store = operations.metrics.instrumentStore(options.store);
  // Shared through the database, so every instance accepts every other instance's cursors, across restarts.
  const cursorSecret = config.cursorSecret ?? (await store.getOrCreateSetting('cursor_secret', () => randomBase62(43)));
  const allowPrivate = config.allowPrivateUrls ?? config.allowPrivateCallbacks ?? false;
  const retriever = options.retriever ?? createRetriever({ store });
  const core = createCore({
    store,
    retriever,
    ...(options.embeddings ? { embeddings: options.embeddings } : {}),
    reader:
      options.reader ??
      createSiteReader({ allowPrivateUrls: allowPrivate, ...(config.sourcePageTimeoutMs === undefined ? {} : { pageTimeoutMs: config.sourcePageTimeoutMs }) }),
    ...(config.sourceLeaseMs === undefined ? {} : { sourceJob: { leaseMs: config.sourceLeaseMs } }),
    agent: operations.metrics.instrumentAgent(options.agent ?? createLocalAgent({ knowledge: retriever })),
    cursorSecret,
    syncTimeoutMs: config.syncTimeoutMs,
    agentTimeoutMs: config.agentTimeoutMs,
    ...(options.clock ? { clock: options.clock } : {}),
    logger: { error: (message, details) => logger.error(details, message) },
    formatReply,
    onWork: (kind) => workers?.wake(kind),
    ...(options.turnLeaseMs === undefined ? {} : { turnLeaseMs: options.turnLeaseMs }),
    ...(options.turnPollMs === undefined ? {} : { turnPollMs: options.turnPollMs }),
    urlProblem: (url) => callbackUrlProblem(url, allowPrivate),
    passwords: options.passwords ?? scryptPasswords(),
  });
  let workers: Workers | undefined;
  const app = createApp({
    core,
    store,
    logger,
    operations,
    extraRoutes: (app) => {
      widgetRoutes(core.admin, { publicUrl: config.publicUrl })(app);
      consoleRoutes(app);
      options.extraRoutes?.(app);
    },
    ...(options.clock ? { clock: options.clock } : {}),
    ...(config.publicRateLimitPerMinute === undefined ? {} : { publicRateLimitPerMinute: config.publicRateLimitPerMinute }),
    ...(config.trustProxy === undefined ? {} : { trustProxy: config.trustProxy }),
  });
  const clock = options.clock ?? systemClock;
  return {
    store: options.store,
    core,
    app,
    logger,
    operations,
    startWorkers(overrides = {}) {
      workers = startWorkers({
        store,
        work: core.work,
        logger,
        clock,
        allowPrivateCallbacks: allowPrivate,
        embed: options.embeddings !== undefined,
        ...overrides,
      });
      return workers;
    },
  };
}
