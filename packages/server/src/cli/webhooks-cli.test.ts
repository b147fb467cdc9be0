import { afterAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../testing/processes.js';



describe('svc webhooks (the CLI contract of DESIGN.md 5)', () => {
  let dir: string | undefined;
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('creates (secret shown once), lists, rotates with a grace period and deletes; refuses bad URLs naming the field', async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-webhooks-cli-'));
    const env = { SVC_DATA_DIR: join(dir, 'data'), LOG_LEVEL: 'silent', SVC_SEED_DEMO: 'false', SVC_ALLOW_PRIVATE_CALLBACKS: 'false' };
    const json = async (args: string[]) => {
      const result = await runCli([...args, '--json'], env);
      expect(result.code, result.stderr + result.stdout).toBe(0);
      return JSON.parse(result.stdout);
    };
    const account = await json(['accounts', 'create', '--name', 'Hooks']);
    const created = await json(['webhooks', 'create', '--account', account.id, '--url', 'https://hooks.example.com/svc', '--events', 'session.resolved,session.rated']);
    expect(created).toEqual({
      id: expect.stringMatching(/^whk_/),
      url: 'https://hooks.example.com/svc',
      events: ['session.resolved', 'session.rated'],
      secret: expect.stringMatching(/^whsec_[0-9A-Za-z+/]{43}=$/),
    });

    const refused = await runCli(['webhooks', 'create', '--account', account.id, '--url', 'http://127.0.0.1:9/in', '--json'], env);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout)).toEqual({ error: { code: 'validation_failed', message: expect.stringMatching(/https/), field: 'url' } });

    const listed = await json(['webhooks', 'list', '--account', account.id]);
    expect(listed).toEqual([{ id: created.id, url: created.url, events: created.events, createdAt: expect.any(String), secretRotatedUntil: null }]);
    expect(JSON.stringify(listed)).not.toContain(created.secret);

    const rotated = await json(['webhooks', 'rotate-secret', '--id', created.id, '--grace-seconds', '600']);
    expect(rotated).toEqual({ id: created.id, secret: expect.stringMatching(/^whsec_/), previousSecretValidUntil: expect.any(String) });
    expect(rotated.secret).not.toBe(created.secret);
    expect(Date.parse(rotated.previousSecretValidUntil) - Date.now()).toBeGreaterThan(500_000);

    expect(await json(['webhooks', 'delete', '--id', created.id])).toEqual({ id: created.id, deleted: true });
    expect(await json(['webhooks', 'list', '--account', account.id])).toEqual([]);
    const missing = await runCli(['webhooks', 'delete', '--id', created.id, '--json'], env);
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stdout).error.code).toBe('not_found');
  }, 90_000);
});
