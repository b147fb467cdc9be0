import { createLlmAgentFromEnv, embeddingProviderFromEnv, rerankProviderFromEnv } from '@svc/agents';
import { createRetriever } from '@svc/core';
import { migrate } from '@svc/store-postgres';
import { adminRoute, newAdminToken, publishAdminEndpoint } from './cli/admin-route.js';
import { createServer } from 'node:net';
import { ConfigError, type ServerConfig } from './config.js';
import { createLogger } from './logger.js';
import { listen, type RunningServer } from './node-server.js';
import { describeStore, openStore } from './open-store.js';
import { createRuntime } from './runtime.js';
import { ensureDemoOperator, seedDemo, type DemoOperator, type DemoSeed } from './seed.js';

function banner(url: string, seed: DemoSeed | null, operator: DemoOperator | null, storeName: string): string {
  const lines = [`Svc Conversations listening on ${url} (${storeName})`];
  if (seed) {
    lines.push(
      '',
      'First run: seeded a demo account, widget and knowledge base.',
      `  Account:        ${seed.accountId}`,
      `  Widget:         ${seed.widgetId}`,
      `  Knowledge base: ${seed.knowledgeBaseId}`,
      `  API key:        ${seed.apiKey}   (shown once; only its hash is stored)`,
      '',
      'Try it:',
      `  curl -s -X POST ${url}/widgets/${seed.widgetId}/conversations \\`,
      `    -H 'X-API-Key: ${seed.apiKey}' -H 'Content-Type: application/json' \\`,
      `    -d '{"visitorId":"visitor-1"}'`,
    );
  }
  if (operator) {
    lines.push(
      '',
      `Console: ${url}/console`,
      `  Email:          ${operator.email}`,
      `  Password:       ${operator.password}   (shown once; change it in the console)`,
    );
  }
  return lines.join('\n');
}

export type Role = 'all' | 'api' | 'worker';

/**
 * `svc start`: open and migrate the database, seed a demo on first run, then serve the API (role `api`), run the
 * callback workers (role `worker`), or both (`all`, the default), until SIGINT/SIGTERM.
 */
export async function startServer(config: ServerConfig, options: { role?: Role } = {}): Promise<RunningServer | null> {
  const role = options.role ?? 'all';
  const logger = createLogger(config.logLevel);
  // A port in use is reported before anything touches the database.
  if (role !== 'worker') await assertPortFree(config.port, config.host);
  const store = await openStore(config, { onWaiting: (message) => logger.warn(message), onWarning: (message) => logger.warn(message) });
  // Which migrations this start applied (an upgrade says so in its log; [] when the schema was current).
  const migrations = await migrate(store);
  const seed = config.seedDemo ? await seedDemo(store) : null;
  // A demo database from before the console gets its owner sign-in on its next demo start.
  const operator = seed?.operator ?? (config.seedDemo ? await ensureDemoOperator(store) : null);
  // SVC_AI_PROVIDER picks an LLM (OpenAI, Anthropic, any OpenAI-compatible server); unset, the offline local agent
  // answers. A half-set configuration stops here with the variable named, before anything is served.
  // One retrieval for both agents and the search endpoint (DESIGN.md section 11). SVC_EMBEDDING_PROVIDER adds vector
  // search (the workers compute the passages' vectors) and SVC_RERANK_PROVIDER a reranker; either's outage costs only
  // its part: the search goes on with full text.
  const embeddings = embeddingProviderFromEnv(process.env);
  const rerank = rerankProviderFromEnv(process.env);
  const retriever = createRetriever({
    store,
    embeddings: embeddings ?? undefined,
    rerank: rerank ?? undefined,
    onProviderError: (provider, error) => logger.warn({ provider, err: error }, 'retrieval provider failed; full text only for this search'),
  });
  const llm = createLlmAgentFromEnv(process.env, { knowledge: retriever });
  // The embedded database is this process's alone: the CLI reaches it through a loopback admin endpoint.
  const adminToken = config.databaseUrl ? null : newAdminToken();
  const runtime = await createRuntime({
    config,
    store,
    logger,
    processMetrics: true,
    retriever,
    ...(embeddings === null ? {} : { embeddings }),
    ...(llm === null ? {} : { agent: llm }),
    ...(adminToken ? { extraRoutes: adminRoute(store, config, adminToken) } : {}),
  });
  logger.info(
    { agent: llm === null ? 'local' : process.env.SVC_AI_PROVIDER, embeddings: embeddings?.model ?? null, rerank: rerank?.model ?? null, role, migrations },
    'starting',
  );
  const workers = role === 'api' ? null : runtime.startWorkers({ sweepIntervalMs: config.sweepIntervalMs });
  const server = role === 'worker' ? null : await listen(runtime, config);
  // The banner is for the person at the terminal; logs stay JSON on stdout.
  const unpublish = server && adminToken ? await publishAdminEndpoint(config.dataDir, { url: server.url, token: adminToken }) : null;
  if (server) process.stderr.write(`${banner(server.url, seed, operator, describeStore(config))}\n`);
  else process.stderr.write(`Svc Conversations worker running (${describeStore(config)})\n`);

  let stopping = false;
  /**
   * Graceful shutdown (DESIGN.md section 9): /readyz turns 503 at once, the listener closes, requests in flight and
   * claimed jobs get up to SVC_SHUTDOWN_TIMEOUT_MS to finish, jobs still running are handed back, then exit 0.
   * A second signal exits at once.
   */
  const stop = async (signal: string): Promise<void> => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting without waiting');
      process.exit(1);
    }
    stopping = true;
    const started = performance.now();
    runtime.operations.startDraining();
    logger.info({ signal, deadlineMs: config.shutdownTimeoutMs }, 'draining');
    await unpublish?.().catch(() => undefined);
    const deadline = Date.now() + config.shutdownTimeoutMs;
    const [, drained] = await Promise.all([
      server?.close(config.shutdownTimeoutMs).catch((error: unknown) => logger.warn({ err: error }, 'closing the listener failed')),
      // Turns run in the process that accepted them, whatever its role: the core drains them, workers or not.
      runtime.core.work.drainTurns(config.shutdownTimeoutMs).catch((error: unknown) => {
        logger.warn({ err: error }, 'draining the turns failed');
        return { released: 0 };
      }),
    ]);
    // Then the deliveries those turns queued, in the time left (at least a second).
    await workers
      ?.drain(Math.max(1_000, deadline - Date.now()))
      .catch((error: unknown) => logger.warn({ err: error }, 'draining the workers failed'));
    await store.close().catch((error: unknown) => logger.warn({ err: error }, 'closing the database failed'));
    logger.info({ ms: Math.round(performance.now() - started), releasedJobs: drained?.released ?? 0 }, 'stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  return server;
}

/** Binds and releases the port, so that `svc start` fails before migrating when another program holds it. */
async function assertPortFree(port: number, host: string): Promise<void> {
  if (port === 0) return;
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') {
        reject(new ConfigError(`PORT ${port} on ${host} is already in use (another server listens there): stop it, or set PORT (or --port) to a free port.`));
      } else if (error.code === 'EACCES') {
        reject(new ConfigError(`PORT ${port} on ${host} needs privileges this process lacks: use a port above 1023 behind a reverse proxy, or set HOST and PORT.`));
      } else if (error.code === 'EADDRNOTAVAIL') {
        reject(new ConfigError(`HOST ${host} is not an address of this machine: set HOST to 127.0.0.1, 0.0.0.0 or one of its addresses.`));
      } else reject(error);
    });
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}
