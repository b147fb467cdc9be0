import type { Clock, Engine, Store, TurnJob } from '@svc/core';
import type { Logger } from 'pino';

export interface TurnWorkerOptions {
  store: Store;
  engine: Engine;
  clock: Clock;
  logger: Logger;
  owner: string;
  concurrency: number;
  /** A job's lease; renewed every third of it while the turn runs, so a crashed worker's job is retaken soon. */
  leaseMs: number;
  /** Jobs being processed, by id: what a draining worker hands back if its deadline passes first. */
  inFlight?: Set<string>;
}

async function runWithHeartbeat(options: TurnWorkerOptions, job: TurnJob): Promise<void> {
  const beat = setInterval(() => {
    const until = new Date(options.clock.now().getTime() + options.leaseMs);
    options.store.extendTurnJobLease(job.id, options.owner, until).catch((error: unknown) => {
      options.logger.warn({ jobId: job.id, err: error }, 'could not extend a turn job lease');
    });
  }, Math.max(100, Math.floor(options.leaseMs / 3)));
  options.inFlight?.add(job.id);
  try {
    await options.engine.processTurnJob(job);
  } catch (error) {
    // Left running: the lease runs out and the job is claimed again (its reply id keeps it from answering twice).
    options.logger.error({ jobId: job.id, err: error }, 'turn job failed; it will be retried after its lease');
  } finally {
    clearInterval(beat);
    options.inFlight?.delete(job.id);
  }
}

/** One round: claim queued turn jobs and run them. Resolves true when there was work. */
export async function runQueuedTurns(options: TurnWorkerOptions): Promise<boolean> {
  const jobs = await options.store.claimTurnJobs({
    owner: options.owner,
    now: options.clock.now(),
    leaseMs: options.leaseMs,
    limit: options.concurrency,
  });
  await Promise.all(jobs.map((job) => runWithHeartbeat(options, job)));
  return jobs.length > 0;
}
