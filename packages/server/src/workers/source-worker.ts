import type { BackgroundWork } from '@svc/core';
import type { Logger } from 'pino';
import { startPollLoop, type PollLoop } from './poll-loop.js';

export interface SourceLoopOptions {
  work: Pick<BackgroundWork, 'syncSources'>;
  logger: Logger;
  /** Fallback poll: scheduled syncs come due, other processes queue syncs, a crashed process's lease runs out. */
  pollMs: number;
}

/**
 * Schedules the core's sync job (DESIGN.md section 11 "Sources"): rounds back to back while a source has pages to
 * read, then a wake-up when a source is added or a sync requested in this process, or the fallback poll. Stopping
 * aborts the round in hand: its pages in flight are dropped and the lease hands the sync to the next worker.
 */
export function startSourceLoop(options: SourceLoopOptions): PollLoop {
  const stopping = new AbortController();
  const loop = startPollLoop({
    pollMs: options.pollMs,
    onError: (error) => options.logger.error({ err: error }, 'source sync round failed'),
    tick: async () => {
      if (stopping.signal.aborted) return false;
      const round = await options.work.syncSources({ signal: stopping.signal });
      if (round.pages > 0) options.logger.debug({ pages: round.pages }, 'synced source pages');
      return round.busy && !stopping.signal.aborted;
    },
  });
  return {
    wake: () => loop.wake(),
    async stop() {
      stopping.abort(new Error('the source worker is stopping'));
      await loop.stop();
    },
  };
}
