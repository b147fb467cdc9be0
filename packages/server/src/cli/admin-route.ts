import { chmod, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Hono } from 'hono';
import { isSvcError, randomBase62, timingSafeEqualStrings, type Store } from '@svc/core';
import type { ServerConfig } from '../config.js';
import { userDirectory } from '../config.js';
import type { AppEnv } from '../http/auth.js';
import { runAdmin, UsageError, type Values } from './commands.js';

/**
 * The embedded database (PGlite) belongs to one process. While `svc start` holds it, the CLI cannot open it, so
 * the server publishes a loopback-only admin endpoint and a one-time token in the data directory (readable by
 * the same OS user only), and the CLI forwards its command there. With PostgreSQL none of this is needed.
 */
const FILE = 'admin.json';

interface AdminEndpoint {
  url: string;
  token: string;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

export function adminRoute(store: Store, config: ServerConfig, token: string): (app: Hono<AppEnv>) => void {
  return (app) => {
    app.post('/admin/cli', async (c) => {
      const address = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming?.socket?.remoteAddress;
      const given = c.req.header('authorization')?.replace(/^Bearer /, '') ?? '';
      if (!address || !LOOPBACK.has(address) || !timingSafeEqualStrings(given, token)) {
        return c.json({ error: { code: 'not_found', message: `No endpoint POST ${c.req.path}.` }, meta: { creditsConsumed: 0 } }, 404);
      }
      const { command, values } = (await c.req.json()) as { command: string; values: Values };
      try {
        return c.json(await runAdmin(command, values, store, config));
      } catch (error) {
        if (error instanceof UsageError) return c.json({ error: { code: 'usage', message: error.message } }, 400);
        if (isSvcError(error)) return c.json({ error: error.toJSON() }, 400);
        throw error;
      }
    });
  };
}

export function newAdminToken(): string {
  return randomBase62(43);
}

/** Writes where the CLI finds the running server; returns a function that removes it again. */
export async function publishAdminEndpoint(dataDir: string, endpoint: AdminEndpoint): Promise<() => Promise<void>> {
  const path = join(dataDir, FILE);
  await writeFile(path, JSON.stringify(endpoint), { mode: 0o600 });
  await chmod(path, 0o600);
  return () => rm(path, { force: true });
}

/** Runs a CLI command through the server holding the data directory; the CLI prints what comes back. */
export async function forwardToServer(dataDir: string, command: string, values: Values): Promise<{ json: unknown; text: string; exitCode?: number }> {
  let endpoint: AdminEndpoint;
  try {
    endpoint = JSON.parse(await readFile(join(dataDir, FILE), 'utf8')) as AdminEndpoint;
  } catch {
    throw new Error(`The data directory ${dataDir} is in use by another process that does not accept commands; stop it, or use DATABASE_URL.`);
  }
  // Files are named relative to where the CLI runs, not where the server was started.
  const forwarded: Values = {
    ...values,
    ...(values.file === undefined ? {} : { file: resolve(userDirectory(), values.file) }),
    ...(values.out === undefined ? {} : { out: resolve(userDirectory(), values.out) }),
  };
  const res = await fetch(`${endpoint.url}/admin/cli`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${endpoint.token}` },
    body: JSON.stringify({ command, values: forwarded }),
  });
  const body = (await res.json()) as { json: unknown; text: string; exitCode?: number } | { error: { code: string; message: string; field?: string } };
  if ('error' in body) {
    if (body.error.code === 'usage') throw new UsageError(body.error.message);
    throw Object.assign(new Error(body.error.message), { name: 'SvcError', code: body.error.code, field: body.error.field });
  }
  return body;
}
