import { afterAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI_SCRIPT as cli, nodeWithTsx, runCli } from './testing/processes.js';



describe('svc CLI on the embedded database', () => {
  let dir: string;
  let server: ChildProcess | undefined;
  afterAll(async () => {
    if (server && server.exitCode === null) await new Promise((resolve) => server!.once('exit', resolve).kill('SIGTERM'));
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('provisions with --json while stopped, and forwards to `svc start` while it holds the database', async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-cli-'));
    const env = { SVC_DATA_DIR: join(dir, 'data'), LOG_LEVEL: 'silent', SVC_SEED_DEMO: 'false' };
    const json = async (args: string[]) => {
      const result = await runCli([...args, '--json'], env);
      expect(result.code, result.stderr + result.stdout).toBe(0);
      return JSON.parse(result.stdout);
    };

    const account = await json(['accounts', 'create', '--name', 'Acme', '--credits', '25']);
    expect(account).toMatchObject({ id: expect.stringMatching(/^acct_/), balance: 25 });
    await writeFile(join(dir, 'kb.json'), JSON.stringify({ products: [{ id: 'p1', name: 'Tent', price: 99 }], documents: [{ title: 'Hours', content: 'Open 9-5.' }] }));
    const kb = await json(['kb', 'import', '--account', account.id, '--file', join(dir, 'kb.json')]);
    expect(kb).toEqual({ id: expect.stringMatching(/^kb_/), products: 1, documents: 1 });
    const widget = await json(['widgets', 'create', '--account', account.id, '--name', 'Shop', '--knowledge-base', kb.id]);
    expect(widget).toMatchObject({ id: expect.stringMatching(/^wgt_/), identitySecret: expect.stringMatching(/^idsec_/) });
    const key = await json(['keys', 'create', '--account', account.id, '--scopes', 'conversations:chat']);
    expect(key).toMatchObject({ id: expect.stringMatching(/^key_/), key: expect.stringMatching(/^sk_live_/) });
    const bad = await runCli(['keys', 'create', '--account', account.id, '--scopes', 'everything', '--json'], env);
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout)).toEqual({ error: { code: 'validation_failed', message: expect.stringMatching(/scope/), field: 'scopes' } });

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
    const forwarded = await json(['keys', 'create', '--account', account.id, '--scopes', 'knowledge:read']);
    const res = await fetch(`${url}/knowledge-bases/${kb.id}/products`, { headers: { 'X-API-Key': forwarded.key } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { pagination: { total: number } }).pagination.total).toBe(1);
    const listed = await json(['keys', 'list', '--account', account.id]);
    expect(listed.map((k: { id: string }) => k.id)).toEqual([key.id, forwarded.id]);
    const refused = await runCli(['credits', 'set', '--account', 'acct_nope', '--balance', '5', '--json'], env);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout).error.code).toBe('validation_failed');
  }, 90_000);
});
