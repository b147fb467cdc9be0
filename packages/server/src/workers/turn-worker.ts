import type { TurnWork } from '@svc/core';

export interface TurnWorkerOptions {
  work: TurnWork;
  concurrency: number;
}

/**
 * One round of the turn worker: claim turn jobs that are claimable (queued, or abandoned by a crashed process once
 * their lease ran out) and run them to their end. Resolves true when there was work. Turns accepted by this process
 * run without it; the worker is recovery and the polling fallback (DESIGN.md section 3a).
 */
export async function runQueuedTurns(options: TurnWorkerOptions): Promise<boolean> {
  return (await options.work.runQueuedTurns(options.concurrency)) > 0;
}
