import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest, type Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitOf, freshDatabase, ROOT, run, startUntilListening } from './support.js';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One HTTP request whose body is written only when `send()` is called: a request held in flight. */
function heldRequest(url: string, path: string, body: string, key: string, agent: Agent | false = false) {
  let send!: () => void;
  const reply = new Promise<Reply>((resolve, reject) => {
    const req = httpRequest(new URL(path, url), { method: 'POST', agent, headers: { 'X-API-Key': key, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.flushHeaders();
    send = () => req.end(body);
  });
  return { reply, send: () => send() };
}

function get(url: string, path: string, agent: Agent | false = false, headers: Record<string, string> = {}): Promise<Reply & { bytes: number }> {
  return new Promise((resolve, reject) => {
    httpRequest(new URL(path, url), { agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        resolve({ status: res.statusCode!, headers: res.headers, body: raw.toString(), bytes: raw.length });
      });
    })
      .on('error', reject)
      .end();
  });
}

describe('the release directory, run with plain node', () => {
  const work = mkdtempSync(join(tmpdir(), 'svc-release-'));
  const out = join(work, 'server');
  let database: Awaited<ReturnType<typeof freshDatabase>>;

  beforeAll(async () => {
    run(process.execPath, [join(ROOT, 'scripts/release.mjs'), '--out', out]);
    database = await freshDatabase('svc_release');
  });
  afterAll(async () => {
    await database?.drop();
    rmSync(work, { recursive: true, force: true });
  });

  it('migrates a fresh PostgreSQL database, answers a conversation, and drains 50 requests in flight on SIGTERM', async () => {
    const env = { DATABASE_URL: database.url, PORT: '0', LOG_LEVEL: 'info', SVC_SHUTDOWN_TIMEOUT_MS: '10000' };
    const cli = join(out, 'dist/cli.js');
    const started = performance.now();
    // Plain node, from the release directory: nothing of the workspace is on its module path.
    const server = await startUntilListening(process.execPath, [cli, 'start'], { cwd: out, env });
    try {
      let ready = await get(server.url, '/readyz');
      while (ready.status !== 200 && performance.now() - started < 30_000) ready = await get(server.url, '/readyz');
      expect(ready.status).toBe(200);
      expect(JSON.parse(ready.body)).toMatchObject({ status: 'ready', pendingMigrations: 0 });

      // Plain `svc start` seeds nothing: no demo key was printed or stored.
      expect(server.stderr()).not.toContain('sk_live_');
      const cliEnv = { DATABASE_URL: database.url, LOG_LEVEL: 'silent' };
      expect(JSON.parse(run(process.execPath, [cli, 'keys', 'list', '--json'], { cwd: out, env: cliEnv }))).toEqual([]);

      // Provisioned with the release's own CLI, then a conversation over HTTP.
      const svc = (...args: string[]) => JSON.parse(run(process.execPath, [cli, ...args, '--json'], { cwd: out, env: cliEnv }));
      const account = svc('accounts', 'create', '--name', 'Release', '--credits', '1000');
      const widget = svc('widgets', 'create', '--account', account.id, '--name', 'Release Assistant');
      const key = svc('keys', 'create', '--account', account.id, '--scopes', 'conversations:chat').key as string;
      const api = async (method: string, path: string, body?: unknown) => {
        const res = await fetch(new URL(path, server.url), {
          method,
          headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        return { status: res.status, body: (await res.json()) as { data: Record<string, unknown> } };
      };
      const created = await api('POST', `/widgets/${widget.id}/conversations`, { visitorId: 'release-visitor' });
      expect(created.status).toBe(201);
      const sessionId = created.body.data.sessionId as string;
      const sent = await api('POST', `/widgets/${widget.id}/conversations/${sessionId}/messages`, { content: 'Hello there' });
      expect(sent.status).toBe(200);
      expect(sent.body.data.content).toEqual(expect.any(String));
      expect((sent.body.data.content as string).length).toBeGreaterThan(0);
      const history = await api('GET', `/widgets/${widget.id}/conversations/${sessionId}/messages`);
      expect(history.status).toBe(200);

      // The widget bundle is part of the release, and so is the console, with its assets.
      expect((await get(server.url, '/widget.js')).status).toBe(200);
      const console = await get(server.url, '/console/');
      expect(console.status).toBe(200);
      expect(console.headers['content-security-policy']).toContain("script-src 'self'");
      const script = /src="(\/console\/assets\/[^"]+\.js)"/.exec(console.body)?.[1];
      expect(script).toBeDefined();
      const asset = await get(server.url, script!);
      expect(asset.status).toBe(200);
      expect(asset.headers['cache-control']).toContain('immutable');

      // 50 requests in flight: headers sent, bodies held back until after the signal. (/readyz turning 503 at once is
      // asserted in the server's operations tests: here the listener is closed, so nothing new can ask.)
      const held = Array.from({ length: 50 }, (_, i) =>
        heldRequest(server.url, `/widgets/${widget.id}/conversations`, JSON.stringify({ visitorId: `drain-${i}` }), key),
      );
      held.forEach((h) => h.reply.catch(() => undefined));
      // The server has accepted every connection once the count shows them in flight.
      await new Promise((resolve) => setTimeout(resolve, 500));

      const exited = exitOf(server.child);
      const signalled = performance.now();
      server.child.kill('SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 300));
      // The listener is closed: new connections are refused while the held requests are still being served.
      await expect(get(server.url, '/healthz')).rejects.toThrow();

      for (const h of held) h.send();
      const replies = await Promise.all(held.map((h) => h.reply));
      expect(replies.map((r) => r.status)).toEqual(Array(50).fill(201));
      const { code } = await exited;
      const shutdownMs = performance.now() - signalled;
      expect(code).toBe(0);
      expect(shutdownMs).toBeLessThan(10_000);
      expect(server.stdout()).toMatch(/"msg":"stopped"/);
    } finally {
      server.child.kill('SIGKILL');
    }
  });
});

describe('pnpm start', () => {
  it('serves the seeded demo, and SIGTERM to the pnpm process itself stops the server (regression: the server kept serving)', async () => {
    const data = mkdtempSync(join(tmpdir(), 'svc-pnpm-start-'));
    const pnpm = process.env.npm_execpath && /\.[cm]?js$/.test(process.env.npm_execpath) ? [process.execPath, process.env.npm_execpath] : ['pnpm'];
    try {
      // `child` is pnpm itself: what a terminal's Ctrl-C, `docker stop` or systemd signal.
      const server = await startUntilListening(pnpm[0]!, [...pnpm.slice(1), 'start'], {
        env: { SVC_DATA_DIR: join(data, 'db'), PORT: '0', LOG_LEVEL: 'info', DATABASE_URL: '' },
      });
      expect(server.stderr()).toContain('First run: seeded a demo account');
      // The console's owner sign-in is printed beside the demo key, once, and works.
      const password = /Password:\s+([A-Za-z0-9]{20})\s/.exec(server.stderr())?.[1];
      expect(server.stderr()).toContain('Email:          demo@example.com');
      const signIn = await fetch(`${server.url}/admin/v1/sessions`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: 'demo@example.com', password }),
      });
      expect(signIn.status).toBe(200);
      expect((await get(server.url, '/demo')).status).toBe(200);
      expect((await get(server.url, '/widget.js')).status).toBe(200);
      expect((await get(server.url, '/console/')).status).toBe(200);

      const exited = exitOf(server.child);
      server.child.kill('SIGTERM');
      expect(await exited).toEqual({ code: 0, signal: null });
      // The server itself logged its shutdown, and nothing listens any more.
      expect(server.stdout()).toMatch(/"signal":"SIGTERM".*"msg":"draining"/);
      expect(server.stdout()).toMatch(/"msg":"stopped"/);
      await expect(get(server.url, '/healthz')).rejects.toThrow();
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  });
});
