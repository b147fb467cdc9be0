import { afterAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI_SCRIPT, kill, nodeWithTsx, runCli } from '../testing/processes.js';

describe('svc operators (password from standard input)', () => {
  let dir: string | undefined;
  let server: ChildProcess | undefined;
  afterAll(async () => {
    if (server) await kill(server);
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('creates operators on the database and through a running server, who then sign in over HTTP; never takes a password flag', async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-operators-cli-'));
    const env = { SVC_DATA_DIR: join(dir, 'data'), LOG_LEVEL: 'silent', SVC_SEED_DEMO: 'false' };
    const json = async (args: string[], stdin?: string) => {
      const result = await runCli([...args, '--json'], env, stdin);
      expect(result.code, result.stderr + result.stdout).toBe(0);
      return JSON.parse(result.stdout);
    };
    const account = await json(['accounts', 'create', '--name', 'Acme']);
    const owner = await json(['operators', 'create', '--account', account.id, '--email', 'Ana@Acme.example', '--name', 'Ana', '--role', 'owner'], 'first password here\n');
    expect(owner).toEqual({ id: expect.stringMatching(/^op_/), email: 'ana@acme.example', name: 'Ana', role: 'owner', accountId: account.id, createdAt: expect.any(String) });

    const flag = await runCli(['operators', 'create', '--account', account.id, '--email', 'x@acme.example', '--password', 'in the shell history', '--json'], env);
    expect(flag.code).toBe(2);
    const short = await runCli(['operators', 'create', '--account', account.id, '--email', 'x@acme.example', '--json'], env, 'short\n');
    expect([short.code, JSON.parse(short.stdout).error.field]).toEqual([1, 'password']);
    const taken = await runCli(['operators', 'create', '--account', account.id, '--email', 'ana@acme.example', '--json'], env, 'another long password\n');
    expect([taken.code, JSON.parse(taken.stdout).error.code]).toEqual([1, 'email_taken']);

    server = spawn(process.execPath, nodeWithTsx(CLI_SCRIPT, ['start', '--port', '0']), { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    const url = await new Promise<string>((resolve, reject) => {
      let err = '';
      server!.stderr!.on('data', (d: Buffer) => {
        err += d.toString();
        const match = /listening on (\S+)/.exec(err);
        if (match) resolve(match[1]!);
      });
      server!.once('exit', () => reject(new Error(err)));
    });
    const agent = await json(['operators', 'create', '--account', account.id, '--email', 'bo@acme.example'], 'second password here\n');
    expect(agent).toMatchObject({ email: 'bo@acme.example', role: 'agent', name: 'bo' });
    expect((await json(['operators', 'list', '--account', account.id])).map((o: { email: string }) => o.email)).toEqual(['ana@acme.example', 'bo@acme.example']);

    for (const [email, password, role] of [['ana@acme.example', 'first password here', 'owner'], ['bo@acme.example', 'second password here', 'agent']]) {
      const res = await fetch(`${url}/admin/v1/sessions`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email, password }) });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { data: { operator: { role: string } } }).data.operator.role).toBe(role);
    }
  }, 120_000);
});
