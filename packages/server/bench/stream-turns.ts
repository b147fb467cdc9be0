/**
 * Stream turns in `pnpm bench` (issue 9 item 7): time to the first `message.delta` and to `message.completed`,
 * p50/p99, measured against the same server, store and agent as the sync turns (`response_type: "stream"`, each
 * of `concurrency` clients on its own session, back to back for `durationMs`). `bench/stream.bench.ts` adds the
 * service's own delay on a delta (an agent's first token to the first SSE byte) with an agent writing in pieces.
 */
import { Worker } from 'node:worker_threads';
import { summarise, type LoadResult } from './load.js';

export interface StreamTurnFigures {
  /** From sending the request to the first delta event. */
  firstDelta: LoadResult;
  /** From sending the request to the completed event. */
  completed: LoadResult;
}

export interface StreamBenchTarget {
  /** `…/widgets/{widgetId}/conversations` on the running server. */
  base: string;
  headers: Record<string, string>;
  /** One fresh session id per concurrent client. */
  sessionIds: string[];
  concurrency: number;
  durationMs: number;
}

/**
 * The clients, in a worker thread (an event loop of their own, as with the sync and callback phases): each reads
 * its response as it arrives and notes when the first delta event and the completed event came in.
 */
const CLIENTS = /* js */ `
const { parentPort, workerData } = require('node:worker_threads');
const { urls, headers, durationMs } = workerData;
const body = JSON.stringify({ content: 'Hello, what are your opening hours?', response_type: 'stream' });
(async () => {
  const firstDelta = [];
  const completed = [];
  const deadline = performance.now() + durationMs;
  const started = performance.now();
  await Promise.all(urls.map(async (url) => {
    while (performance.now() < deadline) {
      const t0 = performance.now();
      const res = await fetch(url, { method: 'POST', headers, body });
      if (res.status !== 200) throw new Error('HTTP ' + res.status + ': ' + (await res.text()));
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      let text = '';
      let delta = NaN;
      let done = NaN;
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
        const now = performance.now();
        text += decoder.decode(chunk.value, { stream: true });
        if (Number.isNaN(delta) && text.includes('event: message.delta\\n')) delta = now;
        if (Number.isNaN(done) && text.includes('event: message.completed\\n')) done = now;
      }
      if (Number.isNaN(done)) throw new Error('stream turn did not complete: ' + text.slice(0, 300));
      firstDelta.push(delta - t0);
      completed.push(done - t0);
    }
  }));
  parentPort.postMessage({ firstDelta, completed, seconds: (performance.now() - started) / 1000 });
})().catch((error) => parentPort.postMessage({ error: String(error) }));
`;

export function measureStreamTurns(target: StreamBenchTarget): Promise<StreamTurnFigures | null> {
  const urls = target.sessionIds.slice(0, target.concurrency).map((id) => `${target.base}/${id}/messages`);
  return new Promise((resolve, reject) => {
    const worker = new Worker(CLIENTS, { eval: true, workerData: { urls, headers: target.headers, durationMs: target.durationMs } });
    worker.once('message', (message: { firstDelta?: number[]; completed?: number[]; seconds?: number; error?: string }) => {
      void worker.terminate();
      const { firstDelta, completed, seconds } = message;
      if (message.error !== undefined || !firstDelta || !completed || seconds === undefined) reject(new Error(message.error ?? 'no result'));
      else resolve({ firstDelta: summarise(firstDelta, seconds), completed: summarise(completed, seconds) });
    });
    worker.once('error', reject);
  });
}
