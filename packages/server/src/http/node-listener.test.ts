import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import { createHarness } from '../testing/harness.js';
import { listen, type RunningServer } from '../node-server.js';

let server: RunningServer;
beforeAll(async () => {
  const h = await createHarness();
  server = await listen(h.runtime, { port: 0, host: '127.0.0.1' });
});
afterAll(() => server.close());

/** Sends raw bytes and reads the answer up to the end of its body (or until the server closes). */
function rawExchange(bytes: string): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1');
    let data = '';
    const finish = (): void => {
      const split = data.indexOf('\r\n\r\n');
      const head = data.slice(0, split);
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), headers: head, body: data.slice(split + 4) });
      socket.destroy();
    };
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      data += chunk;
      const length = /content-length: (\d+)/i.exec(data)?.[1];
      const split = data.indexOf('\r\n\r\n');
      if (length !== undefined && split !== -1 && Buffer.byteLength(data.slice(split + 4)) >= Number(length)) finish();
    });
    socket.on('end', finish);
    socket.on('error', reject);
    socket.write(bytes);
  });
}

describe('every response is JSON, even before the app runs (issue 10, defect 7)', () => {
  it.each([
    ['a Host header that is no URL host (xn--)', 'GET /healthz HTTP/1.1\r\nHost: xn--\r\n\r\n', 400],
    ['a Host header with a space', 'GET /healthz HTTP/1.1\r\nHost: a b\r\n\r\n', 400],
    ['a backslash in the path', 'GET /\\\\evil.example/ HTTP/1.1\r\nHost: localhost\r\n\r\n', 400],
    ['a request line that is not HTTP', 'HELLO THERE\r\n\r\n', 400],
    ['a header without a colon', 'GET /healthz HTTP/1.1\r\nHost: localhost\r\nnonsense\r\n\r\n', 400],
    ['headers over the limit', `GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
  ])('answers %s with a JSON error', async (_what, bytes, status) => {
    const res = await rawExchange(bytes);
    expect(res.status).toBe(status);
    expect(res.headers).toMatch(/content-type: application\/json/i);
    expect(JSON.parse(res.body)).toMatchObject({ error: { code: 'validation_failed', message: expect.any(String) }, meta: { creditsConsumed: 0 } });
  });

  it('still serves ordinary requests', async () => {
    const res = await rawExchange('GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ status: 'ok' });
  });
});
