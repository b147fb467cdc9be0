/**
 * The benchmark's HTTP clients, in a worker thread of their own: an event loop apart from the server's, as real
 * clients (other machines) have. Each client holds one keep-alive HTTP/1.1 connection and sends pre-serialised
 * requests back to back, reading the bytes off the socket itself, the way wrk does: the load generator shares the
 * machine's cores with the server and the database, and fetch's own cost (about 1.7 ms of CPU per request here)
 * would be counted against the server. `process.cpuUsage` cannot tell threads apart, so the worker reports the CPU
 * time it used itself (from /proc on Linux).
 *
 * workerData: { host, port, requests: [{ path, headers, body }] (one per client; in a body, `{client}` becomes
 *   the client's index and `{n}` its request number), expectStatus, durationMs, stream?: true }. With `stream`, each response is a
 *   server-sent event stream, and each turn is reported with the times at which the request left and the first
 *   `message.delta` and the `message.completed` event arrived, as `performance.timeOrigin + now()`: a clock the
 *   server's thread shares, and the connection's local port (the server sees it as the remote port); the result
 *   says whether the thread's priority was raised (see raisePriority).
 */
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';

const { host, port, requests, expectStatus, durationMs, stream } = workerData;
const CRLF2 = Buffer.from('\r\n\r\n');

function serialise({ path, headers, body }, client, n) {
  const payload = Buffer.from(body.replaceAll('{client}', String(client)).replaceAll('{n}', String(n)));
  const lines = [`POST ${path} HTTP/1.1`, `host: ${host}:${port}`, 'connection: keep-alive', `content-length: ${payload.length}`];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`), payload]);
}

/** This thread's CPU time in ms (utime + stime of its own task), where Linux tells it; NaN elsewhere. */
function threadCpuMs() {
  try {
    const tid = readFileSync('/proc/thread-self/stat', 'utf8');
    const fields = tid.slice(tid.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

/**
 * Streams are timed as their bytes arrive, and a client on a machine of its own reads them at once; here the
 * thread would first wait for one of the cores the server and the database keep busy (up to several ms, counted
 * as the service's delay). So in stream mode it asks Linux for a higher priority (nice -10, which takes root or
 * CAP_SYS_NICE) and reports whether it got it.
 */
function raisePriority() {
  try {
    const tid = Number(readFileSync('/proc/thread-self/stat', 'utf8').split(' ')[0]);
    setPriority(tid, -10);
    return true;
  } catch {
    return false;
  }
}

/**
 * One connection that sends a request and resolves with the response's status and the timings when it is all in.
 * Responses are read by Content-Length or chunked transfer encoding; a connection the server closes is reopened.
 */
function client() {
  let socket = null;
  let pending = null;
  let buffer = Buffer.alloc(0);

  const open = () =>
    new Promise((resolve, reject) => {
      const s = connect({ host, port, noDelay: true }, () => resolve(s));
      s.once('error', reject);
      s.on('data', (chunk) => {
        buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
        pending?.onData();
      });
      s.on('close', () => {
        if (socket === s) socket = null;
        pending?.fail(new Error('connection closed mid-response'));
      });
    });

  return async function send(request) {
    if (!socket) socket = await open();
    buffer = Buffer.alloc(0);
    return new Promise((resolve, reject) => {
      let headerEnd = -1;
      let status = 0;
      let length = -1;
      let chunked = false;
      let bodyStart = 0;
      let cursor = 0;
      let close = false;
      let firstDelta = Number.NaN;
      let completed = Number.NaN;
      let text = '';
      const finish = (body) => {
        pending = null;
        const port = socket?.localPort ?? 0;
        if (close) {
          socket?.destroy();
          socket = null;
        }
        if (status !== expectStatus) reject(new Error(`HTTP ${status}: ${body.toString('utf8').slice(0, 300)}`));
        else resolve({ firstDelta, completed, port });
      };
      pending = {
        fail: (error) => {
          pending = null;
          reject(error);
        },
        onData() {
          const now = performance.timeOrigin + performance.now();
          if (headerEnd < 0) {
            headerEnd = buffer.indexOf(CRLF2);
            if (headerEnd < 0) return;
            const head = buffer.subarray(0, headerEnd).toString('latin1').split('\r\n');
            status = Number(head[0].split(' ')[1]);
            for (const line of head.slice(1)) {
              const colon = line.indexOf(':');
              const name = line.slice(0, colon).trim().toLowerCase();
              const value = line.slice(colon + 1).trim().toLowerCase();
              if (name === 'content-length') length = Number(value);
              else if (name === 'transfer-encoding' && value.includes('chunked')) chunked = true;
              else if (name === 'connection' && value === 'close') close = true;
            }
            bodyStart = cursor = headerEnd + 4;
          }
          if (stream) {
            // Only the bytes new since the last read; an event's name never straddles reads in practice, and the
            // whole text is searched anyway.
            text += buffer.subarray(bodyStart).toString('utf8');
            bodyStart = buffer.length;
            if (Number.isNaN(firstDelta) && text.includes('event: message.delta\n')) firstDelta = now;
            if (Number.isNaN(completed) && text.includes('event: message.completed\n')) completed = now;
          }
          if (!chunked) {
            if (length >= 0 && buffer.length >= headerEnd + 4 + length) finish(buffer.subarray(headerEnd + 4));
            return;
          }
          // Chunked: walk the chunks that have fully arrived; a zero-size chunk ends the body.
          for (;;) {
            const lineEnd = buffer.indexOf('\r\n', cursor);
            if (lineEnd < 0) return;
            const size = Number.parseInt(buffer.subarray(cursor, lineEnd).toString('latin1'), 16);
            if (size === 0) {
              if (buffer.length < lineEnd + 4) return;
              return finish(buffer.subarray(headerEnd + 4));
            }
            if (buffer.length < lineEnd + 2 + size + 2) return;
            cursor = lineEnd + 2 + size + 2;
          }
        },
      };
      socket.write(request);
    });
  };
}

(async () => {
  const priorityRaised = stream ? raisePriority() : false;
  const latencies = [];
  const turns = [];
  const cpu0 = threadCpuMs();
  const started = performance.now();
  const deadline = started + durationMs;
  await Promise.all(
    requests.map(async (request, index) => {
      const send = client();
      for (let n = 0; performance.now() < deadline; n++) {
        const bytes = serialise(request, index, n);
        const sentAt = performance.timeOrigin + performance.now();
        const result = await send(bytes);
        latencies.push(performance.timeOrigin + performance.now() - sentAt);
        if (stream) {
          if (Number.isNaN(result.completed)) throw new Error('stream turn did not complete');
          turns.push({ client: index, n, port: result.port, sentAt, firstDeltaAt: result.firstDelta, completedAt: result.completed });
        }
      }
    }),
  );
  parentPort.postMessage({
    latencies,
    turns,
    seconds: (performance.now() - started) / 1000,
    cpuMs: threadCpuMs() - cpu0,
    priorityRaised,
  });
})().catch((error) => parentPort.postMessage({ error: String(error?.stack ?? error) }));
