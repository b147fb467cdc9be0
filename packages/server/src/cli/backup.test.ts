import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_SCRIPT as cli, nodeWithTsx, runCli } from '../testing/processes.js';



describe('svc backup / svc restore (embedded database)', () => {
  let dir: string;
  let server: ChildProcess | undefined;
  afterAll(async () => {
    if (server && server.exitCode === null) await new Promise((resolve) => server!.once('exit', resolve).kill('SIGKILL'));
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('backs up while svc start serves and writes, and restores that state with the server stopped (regression: a copied data directory refused to start)', async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-backup-'));
    const env = { SVC_DATA_DIR: join(dir, 'data'), LOG_LEVEL: 'silent', DATABASE_URL: '' };
    const json = async (args: string[]) => {
      const result = await runCli([...args, '--json'], env);
      expect(result.code, result.stderr + result.stdout).toBe(0);
      return JSON.parse(result.stdout);
    };

    const account = await json(['accounts', 'create', '--name', 'Acme', '--credits', '100']);
    server = spawn(process.execPath, nodeWithTsx(cli, ['start', '--port', '0']), { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    const url = await new Promise<string>((resolve, reject) => {
      let err = '';
      server!.stderr!.on('data', (d: Buffer) => {
        err += d.toString();
        const match = /listening on (\S+)/.exec(err);
        if (match) resolve(match[1]!);
      });
      server!.once('exit', () => reject(new Error(err)));
    });
    const before = await json(['keys', 'create', '--account', account.id, '--scopes', 'conversations:chat']);

    // The server keeps answering requests that write while the backup is taken.
    let writing = true;
    const load = (async () => {
      let n = 0;
      while (writing) {
        const res = await fetch(`${url}/widgets/wgt_missing/conversations`, {
          method: 'POST',
          headers: { 'X-API-Key': before.key, 'Content-Type': 'application/json' },
          body: JSON.stringify({ visitorId: `v${n++}` }),
        });
        expect(res.status).toBe(404);
      }
      return n;
    })();
    const backup = join(dir, 'svc.backup.tar.gz');
    const made = await json(['backup', '--out', backup]);
    writing = false;
    expect(await load).toBeGreaterThan(0);
    expect(made).toEqual({ file: backup, bytes: expect.any(Number) });
    expect(existsSync(backup)).toBe(true);

    // Changed after the backup: this key must be gone once the backup is restored.
    const after = await json(['keys', 'create', '--account', account.id, '--scopes', 'knowledge:read']);
    const refused = await runCli(['restore', '--file', backup], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('is in use (svc start is running): stop the server, then restore.');

    await new Promise((resolve) => server!.once('exit', resolve).kill('SIGTERM'));
    const restored = await json(['restore', '--file', backup]);
    expect(restored.previous).toMatch(/pg\.before-restore-/);
    expect(readdirSync(join(dir, 'data'))).toEqual(expect.arrayContaining(['pg', restored.previous.split('/').pop()]));

    const keys = (await json(['keys', 'list', '--account', account.id])) as Array<{ id: string }>;
    expect(keys.map((k) => k.id)).toEqual([before.id]);
    expect(keys.map((k) => k.id)).not.toContain(after.id);

    const garbage = await runCli(['restore', '--file', cli], env);
    expect(garbage.code).toBe(1);
    expect(garbage.stderr).toContain('not a backup made by svc backup');
    // A failed restore leaves the database as it was.
    expect(((await json(['keys', 'list'])) as Array<{ id: string }>).map((k) => k.id)).toEqual([before.id]);
  }, 120_000);
});
