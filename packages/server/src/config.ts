import { isAbsolute, resolve } from 'node:path';

/** Server settings, all from the environment (README "Configuration"), resolved and checked in one place. */
export interface ServerConfig {
  port: number;
  host: string;
  /** PostgreSQL connection string; when absent the embedded PGlite database in `dataDir` is used. */
  databaseUrl: string | undefined;
  dataDir: string;
  syncTimeoutMs: number;
  agentTimeoutMs: number;
  /** Key for pagination cursors; when absent one is generated once and kept in the database. */
  cursorSecret: string | undefined;
  sweepIntervalMs: number;
  logLevel: string;
  /** Seed a demo account, widget, knowledge base and full-scope key on first start (`svc start --demo`, `pnpm start`). */
  seedDemo: boolean;
  /**
   * The address policy (DESIGN.md section 11): allow loopback, private and link-local addresses for every outbound
   * request (the site reader, callbacks, webhooks) and http:// callback URLs. SVC_ALLOW_PRIVATE_URLS; development,
   * tests and intranets only.
   */
  allowPrivateUrls: boolean;
  /** The same setting under its older name (SVC_ALLOW_PRIVATE_CALLBACKS, still read as an alias). */
  allowPrivateCallbacks: boolean;
  /** Requests per minute and client address, counted before authentication (server keys are exempt). */
  publicRateLimitPerMinute: number;
  /**
   * How many reverse proxies you control append to X-Forwarded-For in front of the server (SVC_TRUST_PROXY: a
   * number, or true for 1); 0 uses the socket's peer address.
   */
  trustProxy: number;
  /** The address visitors reach this server at (SVC_PUBLIC_URL); the demo page's key is bound to it. */
  publicUrl: string | undefined;
  /** After SIGTERM, how long requests in flight and claimed jobs may take before the process exits anyway. */
  shutdownTimeoutMs: number;
  /** How long start-up waits for a PostgreSQL server that is not accepting connections yet. */
  databaseWaitMs: number;
  /** SVC_DATABASE_POOLER: `auto` (default), `direct`, or `transaction` (behind PgBouncer in transaction mode). */
  databasePooler: 'auto' | 'direct' | 'transaction';
  /** SVC_DATABASE_LISTEN_URL: a direct PostgreSQL connection for LISTEN when DATABASE_URL goes through a pooler. */
  databaseListenUrl: string | undefined;
  /**
   * SVC_SOURCE_LEASE_MS: a website sync claimed by a process that stops storing pages (it crashed) is resumed by
   * another process after this long (DESIGN.md section 11 "Sources"). Default 60 s.
   */
  sourceLeaseMs: number;
  /** SVC_SOURCE_PAGE_TIMEOUT_MS: the deadline of one page read by the crawler (redirects and body). Default 15 s. */
  sourcePageTimeoutMs: number;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}; got "${raw}".`);
  }
  return value;
}

function flag(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name]?.toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false; got "${env[name]}".`);
}

function publicUrl(env: NodeJS.ProcessEnv): string | undefined {
  const raw = env.SVC_PUBLIC_URL;
  if (raw === undefined || raw === '') return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`SVC_PUBLIC_URL must be an absolute URL such as https://chat.example.com; got "${raw}".`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ConfigError(`SVC_PUBLIC_URL must be an http or https URL; got "${raw}".`);
  }
  return url.origin;
}

function proxyHops(env: NodeJS.ProcessEnv): number {
  const raw = env.SVC_TRUST_PROXY?.toLowerCase();
  if (raw === undefined || raw === '') return 0;
  if (/^\d+$/.test(raw) && Number(raw) <= 10) return Number(raw);
  if (['true', 'yes', 'on'].includes(raw)) return 1;
  if (['false', 'no', 'off'].includes(raw)) return 0;
  throw new ConfigError(`SVC_TRUST_PROXY must be true, false or a number of proxies from 0 to 10; got "${env.SVC_TRUST_PROXY}".`);
}

/** `pnpm start` runs in packages/server; relative paths mean the directory the user typed the command in. */
export function userDirectory(env: NodeJS.ProcessEnv = process.env): string {
  return env.INIT_CWD ?? process.cwd();
}

/**
 * A connection string node-postgres can use. The value is never echoed: a mistyped URL may still hold a password.
 */
function databaseUrl(env: NodeJS.ProcessEnv): string | undefined {
  // Every other setting is SVC_-prefixed; DATABASE_URL is what hosting platforms set. Both are read.
  const prefixed = env.SVC_DATABASE_URL?.trim();
  const plain = env.DATABASE_URL?.trim();
  if (prefixed && plain && prefixed !== plain) {
    throw new ConfigError('SVC_DATABASE_URL and DATABASE_URL are both set, to different databases: unset one of them.');
  }
  return postgresUrl(env, prefixed ? 'SVC_DATABASE_URL' : 'DATABASE_URL', prefixed || plain || undefined);
}

function postgresUrl(env: NodeJS.ProcessEnv, name: string, raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  const fix = `use postgres://USER:PASSWORD@HOST:5432/DATABASE${name === 'SVC_DATABASE_LISTEN_URL' ? '' : `, or unset ${name} to use the embedded database in SVC_DATA_DIR`}`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} is not a URL: ${fix}.`);
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new ConfigError(`${name} must start with postgres:// or postgresql:// (it starts with ${url.protocol}//): ${fix}.`);
  }
  if (!url.hostname && !url.searchParams.get('host')) throw new ConfigError(`${name} has no host name: ${fix}.`);
  return raw;
}

function pooler(env: NodeJS.ProcessEnv): ServerConfig['databasePooler'] {
  const raw = env.SVC_DATABASE_POOLER?.trim() || 'auto';
  if (raw === 'auto' || raw === 'direct' || raw === 'transaction') return raw;
  throw new ConfigError(`SVC_DATABASE_POOLER must be auto, direct or transaction (it is ${JSON.stringify(raw)}).`);
}

/** SVC_ALLOW_PRIVATE_URLS, or its older name SVC_ALLOW_PRIVATE_CALLBACKS when only that one is set. */
function allowPrivateUrls(env: NodeJS.ProcessEnv): boolean {
  const current = env.SVC_ALLOW_PRIVATE_URLS;
  if (current !== undefined && current !== '') return flag(env, 'SVC_ALLOW_PRIVATE_URLS', false);
  return flag(env, 'SVC_ALLOW_PRIVATE_CALLBACKS', false);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<ServerConfig> = {}): ServerConfig {
  const dataDir = env.SVC_DATA_DIR || '.svc-data';
  const cursorSecret = env.SVC_CURSOR_SECRET || undefined;
  if (cursorSecret !== undefined && cursorSecret.length < 16) {
    throw new ConfigError('SVC_CURSOR_SECRET must be at least 16 characters.');
  }
  const allowPrivate = allowPrivateUrls(env);
  const config: ServerConfig = {
    port: integer(env, 'PORT', 3000, 0, 65535),
    host: env.HOST || '127.0.0.1',
    databaseUrl: databaseUrl(env),
    databasePooler: pooler(env),
    databaseListenUrl: postgresUrl(env, 'SVC_DATABASE_LISTEN_URL', env.SVC_DATABASE_LISTEN_URL?.trim() || undefined),
    dataDir: isAbsolute(dataDir) ? dataDir : resolve(userDirectory(env), dataDir),
    syncTimeoutMs: integer(env, 'SVC_SYNC_TIMEOUT_MS', 25_000, 100, 600_000),
    agentTimeoutMs: integer(env, 'SVC_AGENT_TIMEOUT_MS', 120_000, 1_000, 3_600_000),
    cursorSecret,
    sweepIntervalMs: integer(env, 'SVC_SWEEP_INTERVAL_MS', 60_000, 100, 86_400_000),
    logLevel: env.LOG_LEVEL || 'info',
    seedDemo: flag(env, 'SVC_SEED_DEMO', false),
    allowPrivateUrls: allowPrivate,
    allowPrivateCallbacks: allowPrivate,
    publicRateLimitPerMinute: integer(env, 'SVC_PUBLIC_RATE_LIMIT', 120, 1, 1_000_000),
    trustProxy: proxyHops(env),
    publicUrl: publicUrl(env),
    shutdownTimeoutMs: integer(env, 'SVC_SHUTDOWN_TIMEOUT_MS', 25_000, 0, 3_600_000),
    databaseWaitMs: integer(env, 'SVC_DATABASE_WAIT_MS', 30_000, 0, 3_600_000),
    sourceLeaseMs: integer(env, 'SVC_SOURCE_LEASE_MS', 60_000, 1_000, 3_600_000),
    sourcePageTimeoutMs: integer(env, 'SVC_SOURCE_PAGE_TIMEOUT_MS', 15_000, 100, 600_000),
    ...overrides,
  };
  // One setting under two names: an override of either sets both.
  const overridden = overrides.allowPrivateUrls ?? overrides.allowPrivateCallbacks;
  if (overridden !== undefined) {
    config.allowPrivateUrls = overridden;
    config.allowPrivateCallbacks = overridden;
  }
  return config;
}
