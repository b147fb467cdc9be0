import type { EmbeddingWork } from '@svc/core';
import type { Logger } from 'pino';
import { startPollLoop, type PollLoop } from './poll-loop.js';

export interface EmbeddingLoopOptions {
  work: EmbeddingWork;
  logger: Logger;
  /** Fallback poll, for passages added by another process. */
  pollMs: number;
}

/**
 * Schedules the core's embedding job (DESIGN.md section 11): rounds back to back while there are passages to embed,
 * then a wake-up when documents are added here or the fallback poll. After a provider failure the core says how long
 * to wait; until then rounds do nothing, and a timer wakes the loop when the wait is over.
 */
export function startEmbeddingLoop(options: EmbeddingLoopOptions): PollLoop {
  const stopping = new AbortController();
  let notBefore = 0;
  let retryTimer: NodeJS.Timeout | undefined;
  const loop = startPollLoop({
    pollMs: options.pollMs,
    onError: (error) => options.logger.error({ err: error }, 'embedding round failed'),
    tick: async () => {
      if (Date.now() < notBefore || stopping.signal.aborted) return false;
      const round = await options.work.embedPassages({ signal: stopping.signal });
      if (round.failure !== undefined) {
        if (stopping.signal.aborted) return false;
        const { error, retryInMs } = round.failure;
        notBefore = Date.now() + retryInMs;
        options.logger.warn({ err: error, retryInMs }, 'embedding provider failed; retrying later');
        clearTimeout(retryTimer);
        retryTimer = setTimeout(() => loop.wake(), retryInMs);
        retryTimer.unref();
        return false;
      }
      if (round.embedded > 0) options.logger.debug({ embedded: round.embedded }, 'embedded passages');
      return round.busy;
    },
  });
  return {
    wake: () => loop.wake(),
    async stop() {
      clearTimeout(retryTimer);
      stopping.abort(new Error('the embedding worker is stopping'));
      await loop.stop();
    },
  };
}
