/**
 * Stream turns in `pnpm bench` (issue 9 item 7): time to the first `message.delta` and to `message.completed`,
 * p50/p99, measured against the same server, store and agent as the sync turns (`response_type: "stream"`, each
 * of `concurrency` clients on its own session, back to back for `durationMs`). `bench/stream.bench.ts` adds the
 * service's own delay on a delta (an agent's first token to the first SSE byte) with an agent writing in pieces.
 */
import { timeStreamedTurn } from '../src/testing/stream-timing.js';
import type { LoadResult } from './load.js';

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

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function summary(latencies: number[], seconds: number): LoadResult {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { requests: sorted.length, seconds, perSecond: sorted.length / seconds, p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99) };
}

export async function measureStreamTurns(target: StreamBenchTarget): Promise<StreamTurnFigures | null> {
  const firstDelta: number[] = [];
  const completed: number[] = [];
  const started = performance.now();
  const deadline = started + target.durationMs;
  await Promise.all(
    Array.from({ length: target.concurrency }, async (_, worker) => {
      const url = `${target.base}/${target.sessionIds[worker]}/messages`;
      while (performance.now() < deadline) {
        const timing = await timeStreamedTurn({ url, headers: target.headers, content: 'Hello, what are your opening hours?' });
        if (timing.status !== 200 || !timing.body.includes('event: message.completed\n')) {
          throw new Error(`stream turn failed: ${timing.status} ${timing.body.slice(0, 300)}`);
        }
        firstDelta.push(timing.firstDeltaAt - timing.sentAt);
        completed.push(timing.completedAt - timing.sentAt);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { firstDelta: summary(firstDelta, seconds), completed: summary(completed, seconds) };
}
