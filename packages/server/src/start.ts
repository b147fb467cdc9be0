import { createLlmAgentFromEnv } from '@svc/agents';
import { migrate } from '@svc/store-postgres';
import { adminRoute, newAdminToken, publishAdminEndpoint } from './admin/admin-route.js';
import type { ServerConfig } from './config.js';
import { createLogger } from './logger.js';
import { listen, type RunningServer } from './node-server.js';
import { describeStore, openStore } from './open-store.js';
import { createRuntime } from './runtime.js';
import { seedDemo, type DemoSeed } from './seed.js';

function banner(url: string, seed: DemoSeed | null, storeName: string): string {
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
  const store = await openStore(config);
  await migrate(store);
  const seed = config.seedDemo ? await seedDemo(store) : null;
  // SVC_AI_PROVIDER picks an LLM (OpenAI, Anthropic, any OpenAI-compatible server); unset, the offline local agent
  // answers. A half-set configuration stops here with the variable named, before anything is served.
  const llm = createLlmAgentFromEnv(process.env, { knowledge: store });
  // The embedded database is this process's alone: the CLI reaches it through a loopback admin endpoint.
  const adminToken = config.databaseUrl ? null : newAdminToken();
  const runtime = await createRuntime({
    config,
    store,
    logger,
    ...(llm === null ? {} : { agent: llm }),
    ...(adminToken ? { extraRoutes: adminRoute(store, config, adminToken) } : {}),
  });
  logger.info({ agent: llm === null ? 'local' : process.env.SVC_AI_PROVIDER, role }, 'starting');
  const workers = role === 'api' ? null : runtime.startWorkers();
  const server = role === 'worker' ? null : await listen(runtime, config);
  // The banner is for the person at the terminal; logs stay JSON on stdout.
  const unpublish = server && adminToken ? await publishAdminEndpoint(config.dataDir, { url: server.url, token: adminToken }) : null;
  if (server) process.stderr.write(`${banner(server.url, seed, describeStore(config))}\n`);
  else process.stderr.write(`Svc Conversations worker running (${describeStore(config)})\n`);

  let stopping = false;
  const stop = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    await unpublish?.().catch(() => undefined);
    await server?.close().catch(() => undefined);
    await workers?.stop().catch(() => undefined);
    await store.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
  return server;
}
