import type { Clock, Engine, Store } from '@svc/core';
import type { Logger } from 'pino';
import { deliverDue, workerId } from './delivery-worker.js';
import { startPollLoop, type PollLoop } from './poll-loop.js';
import { runQueuedTurns } from './turn-worker.js';

export interface WorkerOptions {
  store: Store;
  engine: Engine;
  clock: Clock;
  logger: Logger;
  allowPrivateCallbacks: boolean;
  pollMs?: number;
  turnConcurrency?: number;
  deliveryConcurrency?: number;
  deliveryTimeoutMs?: number;
  retryDelaysMs?: readonly number[];
}

export interface Workers {
  /** Start the named loop now rather than at its next poll. */
  wake(kind: 'turn' | 'delivery'): void;
  stop(): Promise<void>;
}

/**
 * The background workers of DESIGN.md sections 3a and 5: turn jobs nobody in this process is running (a crashed
 * process's, once their lease ran out, and queued ones whose turn came while their own process missed the news), and
 * deliveries. Turns accepted by this process run without them.
 */
export function startWorkers(options: WorkerOptions): Workers {
  const owner = workerId();
  const onError = (error: unknown): void => options.logger.error({ err: error }, 'worker round failed');
  const pollMs = options.pollMs ?? 250;
  const turns: PollLoop = startPollLoop({
    pollMs,
    onError,
    tick: () =>
      runQueuedTurns({
        engine: options.engine,
        concurrency: options.turnConcurrency ?? 4,
      }),
  });
  const deliveries: PollLoop = startPollLoop({
    pollMs,
    onError,
    tick: () =>
      deliverDue({
        store: options.store,
        clock: options.clock,
        logger: options.logger,
        allowPrivate: options.allowPrivateCallbacks,
        owner,
        concurrency: options.deliveryConcurrency ?? 16,
        ...(options.deliveryTimeoutMs === undefined ? {} : { timeoutMs: options.deliveryTimeoutMs }),
        ...(options.retryDelaysMs === undefined ? {} : { retryDelaysMs: options.retryDelaysMs }),
        onRetryScheduled: (at) => {
          const timer = setTimeout(() => deliveries.wake(), Math.max(0, at.getTime() - options.clock.now().getTime()));
          timer.unref();
        },
      }),
  });
  return {
    wake: (kind) => (kind === 'turn' ? turns : deliveries).wake(),
    stop: async () => {
      await Promise.all([turns.stop(), deliveries.stop()]);
    },
  };
}
