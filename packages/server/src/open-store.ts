import type { Store } from '@svc/core';
import { createPgliteStore, createPostgresStore } from '@svc/store-postgres';
import { ConfigError, type ServerConfig } from './config.js';

/**
 * Errors that mean "PostgreSQL is not there yet" (still starting, its host not resolvable yet in a compose network,
 * a restart in progress), as opposed to a wrong password or database name, which waiting will not fix.
 */
const TRANSIENT_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', '57P03']);

function errorCode(error: unknown): string | undefined {
  const e = error as { code?: unknown; errors?: unknown[] };
  if (typeof e?.code === 'string') return e.code;
  // Node reports a refused dual-stack connection as an AggregateError of one error per address.
  return Array.isArray(e?.errors) ? errorCode(e.errors[0]) : undefined;
}

export interface OpenStoreOptions {
  /** Told once when PostgreSQL does not answer yet and start-up keeps trying. */
  onWaiting?: (message: string) => void;
  /** Told of a degraded set-up that still works (notifications off behind a transaction pooler). */
  onWarning?: (message: string) => void;
}

/**
 * PostgreSQL when DATABASE_URL is set (production, several instances); otherwise embedded PGlite on disk. A
 * PostgreSQL server that is not accepting connections yet is retried for `databaseWaitMs`, then reported with the
 * variable to fix.
 */
export async function openStore(
  config: Pick<ServerConfig, 'databaseUrl' | 'dataDir'> & Partial<Pick<ServerConfig, 'databaseWaitMs' | 'databasePooler' | 'databaseListenUrl'>>,
  options: OpenStoreOptions = {},
): Promise<Store> {
  if (!config.databaseUrl) return createPgliteStore({ dataDir: config.dataDir });
  const waitMs = config.databaseWaitMs ?? 0;
  const started = Date.now();
  let delay = 250;
  let told = false;
  for (;;) {
    try {
      return await createPostgresStore({
        connectionString: config.databaseUrl,
        pooler: config.databasePooler ?? 'auto',
        ...(config.databaseListenUrl ? { listenConnectionString: config.databaseListenUrl } : {}),
        ...(options.onWarning ? { onWarning: options.onWarning } : {}),
      });
    } catch (error) {
      const code = errorCode(error);
      const where = describeStore(config);
      if (!code || !TRANSIENT_CODES.has(code)) {
        // Authentication (class 28), a missing database (3D000), TLS or other connection set-up refusals.
        if (!code || !/^(28|08|3D000)/.test(code)) throw error;
        throw new ConfigError(`DATABASE_URL: ${where} refused the connection: ${(error as Error).message}. Check the user, password and database name in DATABASE_URL.`);
      }
      const waited = Date.now() - started;
      if (waited + delay > waitMs) {
        throw new ConfigError(
          `DATABASE_URL: cannot reach ${where} (${code}) after ${Math.round(waited / 1000)} s. Check that PostgreSQL is running and that the host and port in DATABASE_URL are right; SVC_DATABASE_WAIT_MS sets how long start-up waits (now ${waitMs} ms).`,
        );
      }
      if (!told) {
        told = true;
        options.onWaiting?.(`waiting for ${where} (${code}); retrying for up to ${Math.round(waitMs / 1000)} s`);
      }
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, 2_000);
    }
  }
}

export function describeStore(config: Pick<ServerConfig, 'databaseUrl' | 'dataDir'>): string {
  if (!config.databaseUrl) return `PGlite at ${config.dataDir}`;
  const url = new URL(config.databaseUrl);
  // The password never reaches a log line.
  return `PostgreSQL at ${url.hostname}:${url.port || 5432}${url.pathname}`;
}
