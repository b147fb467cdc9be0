import { afterAll, describe, expect, it } from 'vitest';
import { freshSchema, kill, startCliServer } from '../testing/processes.js';

const DATABASE_URL = process.env.SVC_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

describe('SIGTERM with event streams open', () => {
  it('ends the streams at once and exits in seconds, not after the whole 25 s deadline (regression: any open widget panel held the shutdown)', async () => {
    const schema = await freshSchema(DATABASE_URL, 't_shutdown');
    cleanups.push(schema.drop);
    const { child, url, banner } = await startCliServer(
      { DATABASE_URL: schema.url, LOG_LEVEL: 'silent', SVC_SEED_DEMO: 'true', SVC_SHUTDOWN_TIMEOUT_MS: '25000' },
      /Password:/,
    );
    cleanups.push(() => kill(child, 'SIGKILL'));
    const widgetId = /Widget:\s+(\S+)/.exec(banner)![1]!;
    const key = /API key:\s+(\S+)/.exec(banner)![1]!;
    const headers = { 'content-type': 'application/json', 'x-api-key': key };
    const base = `${url}/widgets/${widgetId}/conversations`;

    const streams = await Promise.all(
      ['v1', 'v2', 'v3'].map(async (visitorId) => {
        const created = await fetch(base, { method: 'POST', headers, body: JSON.stringify({ visitorId }) });
        const { sessionId } = ((await created.json()) as { data: { sessionId: string } }).data;
        const res = await fetch(`${base}/${sessionId}/events`, { headers: { 'x-api-key': key, accept: 'text/event-stream' } });
        expect(res.status).toBe(200);
        const reader = res.body!.getReader();
        await reader.read(); // ": connected"
        // Wrapped: an async function returning the promise itself would wait for the stream to end.
        return {
          end: (async () => {
            for (;;) if ((await reader.read()).done) return 'ended';
          })().catch(() => 'reset'),
        };
      }),
    );

    const signalled = performance.now();
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    // Each stream ends cleanly (the client sees the end of the body and reconnects elsewhere).
    expect(await Promise.all(streams.map((stream) => stream.end))).toEqual(['ended', 'ended', 'ended']);
    expect(await exited).toBe(0);
    expect(performance.now() - signalled).toBeLessThan(10_000);
  }, 120_000);
});
