import type { BackgroundWork, Clock, Store } from '@svc/core';
import { startEmbeddingLoop } from './embedding-worker.js';
import { startSourceLoop } from './source-worker.js';
import type { Logger } from 'pino';
import { deliverDue, workerId } from './delivery-worker.js';
import type { ConnectOptions } from './post-callback.js';
import { startPollLoop, type PollLoop } from './poll-loop.js';
import { runQueuedTurns } from './turn-worker.js';

export interface WorkerOptions {
  store: Store;
  /** The core's background work: turns, the expiry sweep, embeddings, source syncs. */
  work: BackgroundWork;
  /** Run the embedding job (an embedding provider is configured). */
  embed?: boolean;
  /** Fallback poll of the embedding job, for passages added by another process. Default 10 s. */
  embeddingPollMs?: number;
  /** Run the source sync job (a site reader is configured). Default true. */
  syncSources?: boolean;
  /** Fallback poll of the sync job: due schedules, syncs queued elsewhere, expired leases. Default 5 s. */
  sourcePollMs?: number;
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
  /** How often idle sessions are expired (with their `session.expired` webhook rows). Default 60 s. */
  sweepIntervalMs?: number;
  /** Sessions expired per transaction by the sweep. Default 200. */
  sweepBatchSize?: number;
}

export interface Workers {
  /** Start the named loop now rather than at its next poll. */
  wake(kind: 'turn' | 'delivery' | 'expiry' | 'embedding' | 'source'): void;
  stop(): Promise<void>;
  /**
   * Graceful shutdown: claims nothing more and waits up to `deadlineMs` for the rounds in hand (deliveries in flight,
   * turns this loop claimed). The core's `work.drainTurns` hands back turns still running at the deadline.
   */
  drain(deadlineMs: number): Promise<void>;
}

/**
 * The background workers of DESIGN.md sections 3a and 5: turn jobs nobody in this process is running (a crashed
 * process's, once their lease ran out, and queued ones whose turn came while their own process missed the news),
 * deliveries, and the expiry sweep (idle sessions become expired, each batch in one transaction with its
 * `session.expired` webhook rows). Turns accepted by this process run without them. The sweep lives here, not in the
 * HTTP listener, so `svc start --role worker` expires sessions too; several workers sweep side by side (`SKIP LOCKED`).
 */
export function startWorkers(options: WorkerOptions): Workers {
  const owner = workerId();
  const onError = (error: unknown, failures = 1): void => options.logger.error({ err: error, failures }, 'worker round failed; backing off');
  const pollMs = options.pollMs ?? 250;
  const turns: PollLoop = startPollLoop({
    pollMs,
    onError,
    tick: () =>
      runQueuedTurns({
        work: options.work,
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
  const embedding: PollLoop | null = options.embed
    ? startEmbeddingLoop({ work: options.work, logger: options.logger, pollMs: options.embeddingPollMs ?? 10_000 })
    : null;
  const sources: PollLoop | null =
    options.syncSources === false ? null : startSourceLoop({ work: options.work, logger: options.logger, pollMs: options.sourcePollMs ?? 5_000 });
  const expiry: PollLoop = startPollLoop({
    pollMs: options.sweepIntervalMs ?? 60_000,
    onError: (error) => options.logger.error({ err: error }, 'expiry sweep failed'),
    tick: async () => {
      const count = await options.work.expireIdleSessions(options.sweepBatchSize ?? 200);
      if (count > 0) options.logger.info({ count }, 'expired idle sessions');
      // The sweep goes on until nothing is due, so the next round waits for the interval.
      return false;
    },
  });
  return {
    wake: (kind) =>
      kind === 'embedding' ? embedding?.wake() : kind === 'source' ? sources?.wake() : (kind === 'turn' ? turns : kind === 'delivery' ? deliveries : expiry).wake(),
    stop: async () => {
      await Promise.all([turns.stop(), deliveries.stop(), expiry.stop(), embedding?.stop(), sources?.stop()]);
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
      await within(Promise.all([turns.stop(), expiry.stop(), embedding?.stop(), sources?.stop()]));
      await within(deliveries.stop());
      // The replies of the turns that just finished are queued deliveries: send them while time remains.
      while (Date.now() < deadline) {
        const busy = await within(deliveryRound().catch((error: unknown) => (onError(error), false)));
        if (busy !== true) break;
      }
    },
  };
}
