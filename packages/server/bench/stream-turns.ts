/**
 * Stream turns in `pnpm bench` (issue 9 item 7): time to the first `message.delta` and to `message.completed`,
 * p50/p99, measured against the same server as the sync turns. The SSE route is built on the engine's
 * `TurnObserver` seam by the streaming work; until a build has it, the bench reports the row as not measured
 * rather than inventing figures. Fill `measureStreamTurns` in when the route exists.
 */
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

/** Null while this build has no streaming route. */
export async function measureStreamTurns(target: StreamBenchTarget): Promise<StreamTurnFigures | null> {
  void target;
  return null;
}
