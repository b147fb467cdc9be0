import { createServer, connect, type Server, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { freshSchema, kill, startCliServer } from '../testing/processes.js';

const DATABASE_URL = process.env.SVC_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A TCP hop in front of PostgreSQL that the test can cut and restore: the database "goes away" for this server only. */
async function startCuttableProxy(target: { host: string; port: number }) {
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = connect(target.port, target.host);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => s.destroy());
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as { port: number }).port;
        resolve();
      });
    });
  await listen();
  return {
    get port() {
      return port;
    },
    async cut() {
      await new Promise<void>((resolve) => {
        server!.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
    },
    restore: listen,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => (server?.listening ? server.close(() => resolve()) : resolve()));
    },
  };
}

async function waitFor<T>(probe: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value) || Date.now() > deadline) return value;
    await sleep(100);
  }
}

const status = async (url: string): Promise<{ status: number; body: Record<string, unknown> }> => {
  const res = await fetch(url, { signal: AbortSignal.timeout(5_000) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

describe('a database outage under `svc start` (PostgreSQL through a TCP hop the test cuts)', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  });

  it('keeps /healthz 200 while /readyz says 503 unreachable, logs the failing workers a few times rather than 8 times a second, and recovers (regression: /healthz answered 500)', async () => {
    const schema = await freshSchema(DATABASE_URL, 't_outage');
    cleanups.push(schema.drop);
    const target = new URL(DATABASE_URL);
    const proxy = await startCuttableProxy({ host: target.hostname, port: Number(target.port || 5432) });
    cleanups.push(proxy.close);
    const url = new URL(schema.url);
    url.host = `127.0.0.1:${proxy.port}`;

    const server = await startCliServer({ SVC_DATABASE_URL: url.toString(), LOG_LEVEL: 'info', SVC_SEED_DEMO: 'false', SVC_DATABASE_WAIT_MS: '2000' });
    const { child, logs, url: base } = server;
    cleanups.push(() => kill(child, 'SIGKILL'));

    expect(await status(`${base}/healthz`)).toEqual({ status: 200, body: { status: 'ok' } });
    expect((await status(`${base}/readyz`)).status).toBe(200);
    // The start log says which migrations this start applied (all of them, on a new schema).
    const starting = JSON.parse(logs.find((line) => line.includes('"msg":"starting"'))!) as { migrations: string[] };
    expect(starting.migrations[0]).toBe('1_initial');
    expect(starting.migrations.length).toBeGreaterThanOrEqual(11);

    await proxy.cut();
    const cutAt = logs.length;
    const unready = await waitFor(() => status(`${base}/readyz`), (r) => r.status === 503, 10_000);
    expect(unready).toEqual({ status: 503, body: { status: 'unavailable', database: 'unreachable' } });
    await sleep(3_000);
    expect(await status(`${base}/healthz`)).toEqual({ status: 200, body: { status: 'ok' } });
    const failures = logs.slice(cutAt).filter((line) => line.includes('worker round failed'));
    // Three loops (turns, deliveries, the expiry sweep) each report their first failure; 3 s of polling at 250 ms
    // without back-off would be 24 lines or more.
    expect(failures.length).toBeLessThanOrEqual(6);

    await proxy.restore();
    const ready = await waitFor(() => status(`${base}/readyz`), (r) => r.status === 200, 15_000);
    expect(ready.status).toBe(200);
    await kill(child, 'SIGTERM');
  }, 60_000);
});
