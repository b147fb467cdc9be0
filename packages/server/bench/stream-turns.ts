/**
 * Stream turns in `pnpm bench` (issue 9 item 7): time to the first `message.delta` and to `message.completed`,
 * p50/p99, measured against the same server, store and agent as the sync turns (`response_type: "stream"`, each
 * of `concurrency` clients on its own session, back to back for `durationMs`). `bench/stream.bench.ts` adds the
 * service's own delay on a delta (an agent's first token to the first SSE byte, written and received) with an agent writing in pieces.
 */
import { runHttpLoad } from './http-load.js';
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

/** The clients are the benchmark's own (bench/http-clients.worker.mjs), reading each event stream as it arrives. */
export async function measureStreamTurns(target: StreamBenchTarget): Promise<StreamTurnFigures> {
  const result = await runHttpLoad({
    urls: target.sessionIds.slice(0, target.concurrency).map((id) => `${target.base}/${id}/messages`),
    headers: { ...target.headers, 'content-type': 'application/json' },
    body: JSON.stringify({ content: 'Hello, what are your opening hours?', response_type: 'stream' }),
    expectStatus: 200,
    durationMs: target.durationMs,
    stream: true,
  });
  return {
    firstDelta: summarise(result.turns.map((turn) => turn.firstDeltaAt - turn.sentAt), result.seconds),
    completed: summarise(result.turns.map((turn) => turn.completedAt - turn.sentAt), result.seconds),
  };
}
