/**
 * Closed-loop HTTP load from a worker thread (bench/http-clients.worker.mjs): the clients get an event loop of their
 * own, as real clients (other machines) would, and cost the shared cores as little as a load generator can. Each of
 * `urls.length` clients POSTs `body` to its URL back to back for `durationMs` and checks the status.
 */
import { Worker } from 'node:worker_threads';
import { summarise, type LoadResult } from './load.js';

export interface HttpLoad {
  /** One URL per concurrent client (each on its own session), all on one server. */
  urls: string[];
  headers: Record<string, string>;
  /** `{client}` becomes the client's index, `{n}` its request number (0, 1, …). */
  body: string;
  expectStatus: number;
  durationMs: number;
}

/** One streamed turn as the client saw it; times are `performance.timeOrigin + performance.now()`. */
export interface ClientTurn {
  client: number;
  n: number;
  /** The client's local port: the server's side of the same connection sees it as the remote port. */
  port: number;
  sentAt: number;
  firstDeltaAt: number;
  completedAt: number;
}

export interface HttpLoadResult extends LoadResult {
  /** CPU time the load generator's own thread used (NaN where the platform does not tell). */
  clientCpuMs: number;
  /** With `stream`: every turn's timings. */
  turns: ClientTurn[];
  /** With `stream`: whether the clients' thread runs at a raised priority (bench/http-clients.worker.mjs). */
  priorityRaised: boolean;
}

const WORKER = new URL('./http-clients.worker.mjs', import.meta.url);

export function runHttpLoad(load: HttpLoad & { stream?: boolean }): Promise<HttpLoadResult> {
  const first = new URL(load.urls[0]!);
  const workerData = {
    host: first.hostname,
    port: Number(first.port),
    requests: load.urls.map((url) => ({ path: new URL(url).pathname, headers: load.headers, body: load.body })),
    expectStatus: load.expectStatus,
    durationMs: load.durationMs,
    stream: load.stream ?? false,
  };
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, { workerData });
    worker.once('message', (message: { latencies?: number[]; turns?: ClientTurn[]; seconds?: number; cpuMs?: number; priorityRaised?: boolean; error?: string }) => {
      void worker.terminate();
      const { latencies, turns, seconds, cpuMs, priorityRaised = false } = message;
      if (message.error !== undefined || !latencies || !turns || seconds === undefined || cpuMs === undefined) {
        reject(new Error(message.error ?? 'no result'));
      } else resolve({ ...summarise(latencies, seconds), clientCpuMs: cpuMs, turns, priorityRaised });
    });
    worker.once('error', reject);
  });
}
