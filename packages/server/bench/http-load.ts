/**
 * Closed-loop HTTP load from a worker thread: the clients get an event loop of their own, as real clients (other
 * machines) would, instead of sharing the server's. Each of `urls.length` clients POSTs `body` to its URL back to
 * back for `durationMs` and checks the status.
 */
import { Worker } from 'node:worker_threads';
import { summarise, type LoadResult } from './load.js';

export interface HttpLoad {
  /** One URL per concurrent client (each on its own session). */
  urls: string[];
  headers: Record<string, string>;
  body: string;
  expectStatus: number;
  durationMs: number;
}

const CLIENTS = /* js */ `
const { parentPort, workerData } = require('node:worker_threads');
const { urls, headers, body, expectStatus, durationMs } = workerData;
(async () => {
  const latencies = [];
  const deadline = performance.now() + durationMs;
  const started = performance.now();
  await Promise.all(urls.map(async (url) => {
    while (performance.now() < deadline) {
      const t0 = performance.now();
      const res = await fetch(url, { method: 'POST', headers, body });
      const text = await res.text();
      if (res.status !== expectStatus) throw new Error('HTTP ' + res.status + ': ' + text);
      latencies.push(performance.now() - t0);
    }
  }));
  parentPort.postMessage({ latencies, seconds: (performance.now() - started) / 1000 });
})().catch((error) => parentPort.postMessage({ error: String(error) }));
`;

export function runHttpLoad(load: HttpLoad): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(CLIENTS, { eval: true, workerData: load });
    worker.once('message', (message: { latencies?: number[]; seconds?: number; error?: string }) => {
      void worker.terminate();
      if (message.error !== undefined || !message.latencies || message.seconds === undefined) reject(new Error(message.error ?? 'no result'));
      else resolve(summarise(message.latencies, message.seconds));
    });
    worker.once('error', reject);
  });
}
