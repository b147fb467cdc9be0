import type { Clock, Engine, Store } from '@svc/core';
import type { Logger } from 'pino';
import { deliverDue, workerId } from './delivery-worker.js';
import type { ConnectOptions } from './post-callback.js';
import { startPollLoop, type PollLoop } from './poll-loop.js';
import { runQueuedTurns } from './turn-worker.js';

export interface WorkerOptions {
  store: Store;
  engine: Engine;
  clock: Clock;
  logger: Logger;
  allowPrivateCallbacks: boolean;
  /** Test only: how deliveries resolve and dial (see ConnectOptions); production uses DNS and the real address. */
  connect?: Omit<ConnectOptions, 'allowPrivate'>;
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
  /**
   * Graceful shutdown: claims nothing more and waits up to `deadlineMs` for the rounds in hand (deliveries in flight,
   * turns this loop claimed). The engine's `drainTurns` hands back turns still running at the deadline.
   */
  drain(deadlineMs: number): Promise<void>;
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
  const deliveryRound = (): Promise<boolean> =>
    deliverDue({
      store: options.store,
      clock: options.clock,
      logger: options.logger,
      allowPrivate: options.allowPrivateCallbacks,
      ...(options.connect ? { connect: options.connect } : {}),
      owner,
      concurrency: options.deliveryConcurrency ?? 16,
      ...(options.deliveryTimeoutMs === undefined ? {} : { timeoutMs: options.deliveryTimeoutMs }),
      ...(options.retryDelaysMs === undefined ? {} : { retryDelaysMs: options.retryDelaysMs }),
      onRetryScheduled: (at) => {
        const timer = setTimeout(() => deliveries.wake(), Math.max(0, at.getTime() - options.clock.now().getTime()));
        timer.unref();
      },
    });
  const deliveries: PollLoop = startPollLoop({ pollMs, onError, tick: deliveryRound });
  return {
    wake: (kind) => (kind === 'turn' ? turns : deliveries).wake(),
    stop: async () => {
      await Promise.all([turns.stop(), deliveries.stop()]);
    },
    drain: async (deadlineMs) => {
      const deadline = Date.now() + deadlineMs;
      const within = async <T>(work: Promise<T>): Promise<T | 'timeout'> => {
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), Math.max(0, deadline - Date.now()))));
        try {
          return await Promise.race([work, timeout]);
        } finally {
          clearTimeout(timer);
        }
      };
      await within(turns.stop());
      await within(deliveries.stop());
      // The replies of the turns that just finished are queued deliveries: send them while time remains.
      while (Date.now() < deadline) {
        const busy = await within(deliveryRound().catch((error: unknown) => (onError(error), false)));
        if (busy !== true) break;
      }
    },
  };
}
