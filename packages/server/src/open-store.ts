import type { Store } from '@svc/core';
import { createPgliteStore, createPostgresStore } from '@svc/store-postgres';
import type { ServerConfig } from './config.js';

/** PostgreSQL when DATABASE_URL is set (production, several instances); otherwise embedded PGlite on disk. */
export async function openStore(config: Pick<ServerConfig, 'databaseUrl' | 'dataDir'>): Promise<Store> {
  if (config.databaseUrl) return createPostgresStore({ connectionString: config.databaseUrl });
  return createPgliteStore({ dataDir: config.dataDir });
}

export function describeStore(config: Pick<ServerConfig, 'databaseUrl' | 'dataDir'>): string {
  if (!config.databaseUrl) return `PGlite at ${config.dataDir}`;
  const url = new URL(config.databaseUrl);
  // The password never reaches a log line.
  return `PostgreSQL at ${url.hostname}:${url.port || 5432}${url.pathname}`;
}
