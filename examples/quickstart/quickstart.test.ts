import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '@svc/core';
import { createLogger, createRuntime, listen, operatorAdmin, type RunningServer } from '@svc/server';
import { createPgliteStore } from '@svc/store-postgres';

const run = promisify(execFile);
const here = fileURLToPath(new URL('.', import.meta.url));

/** Runs quickstart.ts as a user would (tsx), with the given environment; resolves to its exit code and output. */
async function quickstart(env: Record<string, string>) {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--conditions=@svc/source', '--import', 'tsx', 'quickstart.ts'], {
      cwd: here,
      env: { PATH: process.env.PATH ?? '', ...env },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

describe('examples/quickstart', () => {
  let store: Store;
  let server: RunningServer;
  let env: Record<string, string>;

  beforeAll(async () => {
    store = await createPgliteStore({});
    const runtime = await createRuntime({
      config: { cursorSecret: 'quickstart-cursor-secret-0123456789', syncTimeoutMs: 25_000, agentTimeoutMs: 60_000 },
      store,
      logger: createLogger('silent'),
    });
    const admin = operatorAdmin(store);
    const account = await admin.createAccount({ name: 'Quickstart', credits: 100 });
    const { knowledgeBase } = await admin.importKnowledgeBase({
      accountId: account.id,
      content: {
        products: [{ id: 'tent-2p', name: 'Trail Tent 2P', price: 249, currency: 'EUR', description: 'A light two-person tent.' }],
        documents: [{ title: 'Shipping', content: 'We ship to Canada and the United States in 5 to 7 days.' }],
      },
    });
    const widget = await admin.createWidget({ accountId: account.id, name: 'Shop assistant', knowledgeBaseIds: [knowledgeBase.id] });
    const { key } = await admin.createApiKey({ accountId: account.id, scopes: ['conversations:chat'] });
    server = await listen(runtime, { port: 0, host: '127.0.0.1' });
    env = { BASE_URL: server.url, SVC_API_KEY: key, SVC_WIDGET_ID: widget.id };
    // Opening PGlite takes seconds, more on a busy machine: this project does not inherit the root's hook timeout.
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    await store?.close();
  });

  it('creates a session, chats twice, walks the history, ends and rates it against a real server', async () => {
    const { code, stdout, stderr } = await quickstart(env);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const lines = stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^Session sess_\w+ created \(1 credit\)\.$/);
    expect(stdout).toContain('> Do you ship to Canada?');
    expect(stdout).toMatch(/< .*Canada/i);
    expect(stdout).toContain('> Which tents do you sell?');
    expect(stdout).toMatch(/\(\d+(\.\d+)? credits; Trail Tent 2P at 249\)/);
    const history = lines.slice(lines.indexOf('History:') + 1).filter((line) => line.startsWith('  '));
    expect(history.map((line) => line.trim().split(':')[0])).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(stdout).toMatch(/Session resolved at \d{4}-\d\d-\d\dT[\d:.]+Z\./);
    expect(lines.at(-1)).toBe('Rated positive.');

    const sessionId = /Session (\S+) created/.exec(stdout)![1]!;
    const res = await fetch(`${server.url}/widgets/${env.SVC_WIDGET_ID}/conversations/${sessionId}`, { headers: { 'X-API-Key': env.SVC_API_KEY! } });
    expect(((await res.json()) as { data: unknown }).data).toMatchObject({ status: 'resolved', rating: 'positive', messageCount: 4 });
  });

  it('explains a refused request and exits 1', async () => {
    const { code, stderr } = await quickstart({ ...env, SVC_API_KEY: 'sk_live_0000000000000000000000' });
    expect(code).toBe(1);
    expect(stderr).toMatch(/^Request failed: 401 invalid_api_key: .+ \[request id \S+\]/);
  });

  it('asks for its settings when they are missing', async () => {
    const { code, stderr } = await quickstart({ BASE_URL: server.url });
    expect(code).toBe(1);
    expect(stderr).toContain('Set SVC_WIDGET_ID');
  });
});
