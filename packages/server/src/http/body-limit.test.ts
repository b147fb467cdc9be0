import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type RunningServer } from '../node-server.js';
import { createHarness, type Harness } from '../testing/harness.js';

/** Issue 10, defect 6: a body over 64 KiB dropped the connection instead of answering 413. */

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Reads HTTP/1.1 responses off one socket, in order (Content-Length framed, as the server answers JSON). */
function responseReader(socket: Socket): { next(): Promise<RawResponse>; closed(): boolean } {
  let buffer = Buffer.alloc(0);
  let ended = false;
  const waiters: Array<() => void> = [];
  const wake = () => waiters.splice(0).forEach((w) => w());
  socket.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    wake();
  });
  socket.on('close', () => {
    ended = true;
    wake();
  });
  const parse = (): RawResponse | undefined => {
    const headEnd = buffer.indexOf('\r\n\r\n');
    if (headEnd < 0) return undefined;
    const [statusLine, ...lines] = buffer.subarray(0, headEnd).toString('latin1').split('\r\n');
    const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
    const length = Number(headers['content-length'] ?? 0);
    if (buffer.length < headEnd + 4 + length) return undefined;
    const body = buffer.subarray(headEnd + 4, headEnd + 4 + length).toString('utf8');
    buffer = buffer.subarray(headEnd + 4 + length);
    return { status: Number(statusLine!.split(' ')[1]), headers, body };
  };
  return {
    async next() {
      for (;;) {
        const response = parse();
        if (response) return response;
        if (ended) throw new Error('the server closed the connection');
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
    closed: () => ended,
  };
}

describe('bodies over 64 KiB on a keep-alive connection', () => {
  let h: Harness;
  let server: RunningServer;
  beforeAll(async () => {
    h = await createHarness();
    server = await listen(h.runtime, { port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await server.close();
  });

  const open = async (): Promise<Socket> => {
    const socket = connect(server.port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    return socket;
  };
  const head = (method: string, path: string, extra: string[]) =>
    [`${method} ${path} HTTP/1.1`, 'Host: 127.0.0.1', `X-API-Key: ${h.key}`, 'Content-Type: application/json', 'Connection: keep-alive', ...extra, '', ''].join('\r\n');

  it('answers a 1 MB body with 413 and the JSON error body, and the next request on the same connection is answered (it was lost)', async () => {
    const socket = await open();
    const reader = responseReader(socket);
    const big = JSON.stringify({ visitorId: 'v1', padding: 'x'.repeat(1024 * 1024) });
    socket.write(head('POST', h.base, [`Content-Length: ${Buffer.byteLength(big)}`]) + big);
    const refused = await reader.next();
    expect(refused.status).toBe(413);
    expect(refused.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(refused.body)).toMatchObject({ error: { code: 'payload_too_large' }, meta: { creditsConsumed: 0 } });
    expect(refused.headers.connection).not.toBe('close');

    // Past node-server's 500 ms drain window, on the same socket.
    await new Promise((resolve) => setTimeout(resolve, 700));
    const small = JSON.stringify({ visitorId: 'v2' });
    socket.write(head('POST', h.base, [`Content-Length: ${Buffer.byteLength(small)}`]) + small);
    const created = await reader.next();
    expect(created.status).toBe(201);
    expect(JSON.parse(created.body).data.visitorId).toBe('v2');
    socket.end();
  });

  it('counts a chunked body without Content-Length too, and keeps the connection', async () => {
    const socket = await open();
    const reader = responseReader(socket);
    socket.write(head('POST', h.base, ['Transfer-Encoding: chunked']));
    const chunk = 'x'.repeat(16 * 1024);
    socket.write(`${(chunk.length + 16).toString(16)}\r\n{"visitorId":"v1${chunk}\r\n`);
    for (let i = 0; i < 8; i++) socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
    socket.write('2\r\n"}\r\n0\r\n\r\n');
    const refused = await reader.next();
    expect(refused.status).toBe(413);
    expect(JSON.parse(refused.body).error.code).toBe('payload_too_large');
    socket.write(head('GET', '/healthz', []));
    expect((await reader.next()).status).toBe(200);
    socket.end();
  });

  it('still accepts a body just under the limit', async () => {
    const socket = await open();
    const reader = responseReader(socket);
    const body = JSON.stringify({ content: 'a'.repeat(100) });
    const padded = body.padEnd(60 * 1024, ' ');
    const sessionId = await h.session();
    socket.write(head('POST', `${h.base}/${sessionId}/messages`, [`Content-Length: ${Buffer.byteLength(padded)}`]) + padded);
    expect((await reader.next()).status).toBe(200);
    socket.end();
  });
});
