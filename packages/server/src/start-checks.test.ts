import { existsSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';
import { openStore } from './open-store.js';
import { startServer } from './start.js';

describe('configuration errors name the variable and the fix', () => {
  it('DATABASE_URL that is not a URL (regression: printed "getaddrinfo ENOTFOUND base")', () => {
    expect(() => loadConfig({ DATABASE_URL: 'not-a-url' })).toThrow(ConfigError);
    expect(() => loadConfig({ DATABASE_URL: 'not-a-url' })).toThrow(/DATABASE_URL is not a URL: use postgres:\/\//);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://u:secret@db/x' })).toThrow(/DATABASE_URL must start with postgres:\/\//);
    // A mistyped URL may hold a password: it is never echoed.
    expect(() => loadConfig({ DATABASE_URL: 'mysql://u:secret@db/x' })).not.toThrow(/secret/);
  });

  it('SVC_DATABASE_URL is read like DATABASE_URL (regression: it was silently ignored and the embedded database used)', () => {
    expect(loadConfig({ SVC_DATABASE_URL: 'postgres://svc@db.internal/svc' }).databaseUrl).toBe('postgres://svc@db.internal/svc');
    expect(loadConfig({ SVC_DATABASE_URL: 'postgres://a@db/x', DATABASE_URL: 'postgres://a@db/x' }).databaseUrl).toBe('postgres://a@db/x');
    expect(() => loadConfig({ SVC_DATABASE_URL: 'postgres://a@db/x', DATABASE_URL: 'postgres://a@other/y' })).toThrow(/SVC_DATABASE_URL and DATABASE_URL are both set, to different databases/);
    expect(() => loadConfig({ SVC_DATABASE_URL: 'not-a-url' })).toThrow(/^SVC_DATABASE_URL is not a URL/);
  });

  it('an unreachable DATABASE_URL is retried for SVC_DATABASE_WAIT_MS, said once, then reported (regression: exited at once with ECONNREFUSED)', async () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://svc:secret@127.0.0.1:1/svc', SVC_DATABASE_WAIT_MS: '1500' });
    const said: string[] = [];
    const started = Date.now();
    const error = await openStore(config, { onWaiting: (m) => said.push(m) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/^DATABASE_URL: cannot reach PostgreSQL at 127\.0\.0\.1:1\/svc \(ECONNREFUSED\)/);
    expect((error as Error).message).toContain('SVC_DATABASE_WAIT_MS');
    expect((error as Error).message).not.toContain('secret');
    expect(Date.now() - started).toBeGreaterThanOrEqual(700);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(said).toEqual(['waiting for PostgreSQL at 127.0.0.1:1/svc (ECONNREFUSED); retrying for up to 2 s']);
  });

  it('a port in use is reported before the database is opened (regression: found only after migrating and seeding)', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as { port: number }).port;
    const dataDir = join(mkdtempSync(join(tmpdir(), 'svc-port-')), 'data');
    try {
      const config = loadConfig({ SVC_DATA_DIR: dataDir, LOG_LEVEL: 'silent' }, { port, host: '127.0.0.1' });
      const error = await startServer(config).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toBe(
        `PORT ${port} on 127.0.0.1 is already in use (another server listens there): stop it, or set PORT (or --port) to a free port.`,
      );
      expect(existsSync(dataDir)).toBe(false);
    } finally {
      holder.close();
    }
  });
});
