import type { TurnEvent, TurnJob } from '../../store/callback-store.js';
import type { EngineContext } from '../context.js';
import { LeaseLostError, runTurnJob, storedOutcome, type StartedTurn, type TurnOutcome, type TurnSetting } from './run.js';

export interface TurnRunnerOptions {
  /** This process's lease owner id. */
  owner: string;
  /** A job's lease; renewed every third of it while the turn runs, so a crashed process's job is retaken soon. */
  leaseMs: number;
  /** Fallback for lost notifications: how often waiters and queued jobs of this process look at the store. */
  pollMs: number;
}

export interface WaitOptions {
  /** After this long the wait ends with 'timeout' (the turn goes on). */
  deadlineMs: number;
  /** Pieces of reply text, when this process runs the turn. */
  onDelta?: ((text: string) => void) | undefined;
  /** The job was just accepted here, so its outcome cannot be in the store yet: skip looking. */
  fresh?: boolean;
}

/**
 * Runs turn jobs in this process and lets callers wait for them (DESIGN.md section 3a, steps 1-5).
 *
 * - A job claimed at acceptance runs at once; one queued behind an earlier job of its session is claimed the moment
 *   that job's end is published (in-process, or `NOTIFY` from another process), with polling as the fallback.
 * - Callers wait for a job's outcome with a deadline; the outcome comes from the local run, or from the store when
 *   another process ran it.
 * - `runQueued` is the worker's part: it claims whatever is claimable, crashed processes' jobs included.
 */
export interface TurnRunner {
  readonly owner: string;
  readonly leaseMs: number;
  /** Runs a job this process has just claimed, in the background (`started`: its turn began at acceptance). */
  run(job: TurnJob, setting?: TurnSetting, started?: StartedTurn): void;
  /** A job accepted here but queued behind an earlier one of its session: claim and run it when its turn comes. */
  expect(job: TurnJob, setting?: TurnSetting): void;
  /** The job's outcome, or 'timeout' when the deadline passes first (the turn goes on regardless). */
  wait(jobId: string, options: WaitOptions): Promise<TurnOutcome | 'timeout'>;
  /** Claims up to `limit` claimable jobs (queued, or abandoned by a crashed process) and runs them to their end. */
  runQueued(limit: number): Promise<number>;
  /** Stops listening and polling, and waits for the turns running here. */
  close(): Promise<void>;
}

/** One caller waiting inline: 'taken' once a commit has chosen to answer it, so its deadline no longer applies. */
interface InlineWaiter {
  state: 'waiting' | 'taken' | 'gone';
}

interface Watch {
  promise: Promise<TurnOutcome>;
  resolve: (outcome: TurnOutcome) => void;
  settled: boolean;
  inline: Set<InlineWaiter>;
  deltas: Set<(text: string) => void>;
}

interface Pending {
  job: TurnJob;
  setting: TurnSetting | undefined;
}

const sessionKey = (widgetId: string, sessionId: string): string => `${widgetId}\u0000${sessionId}`;

export function createTurnRunner(ctx: EngineContext, options: TurnRunnerOptions): TurnRunner {
  const { owner, leaseMs } = options;
  const watches = new Map<string, Watch>();
  /** Jobs accepted here and waiting for an earlier job of their session, by session. */
  const pending = new Map<string, Map<string, Pending>>();
  const running = new Map<string, Promise<void>>();
  let closed = false;

  const unsubscribe = ctx.store.subscribeTurnEvents(onEvent);
  const poll = setInterval(() => void pollFallback(), options.pollMs);
  (poll as { unref?: () => void }).unref?.();

  function watch(jobId: string): Watch {
    let existing = watches.get(jobId);
    if (!existing) {
      let resolve!: (outcome: TurnOutcome) => void;
      const promise = new Promise<TurnOutcome>((r) => (resolve = r));
      const created: Watch = { promise, resolve, settled: false, inline: new Set(), deltas: new Set() };
      created.resolve = (outcome) => {
        if (created.settled) return;
        created.settled = true;
        watches.delete(jobId);
        resolve(outcome);
      };
      watches.set(jobId, created);
      existing = created;
    }
    return existing;
  }

  function run(job: TurnJob, setting?: TurnSetting, started?: StartedTurn): void {
    if (closed || running.has(job.id)) return;
    const work = execute(job, setting, started).finally(() => running.delete(job.id));
    running.set(job.id, work);
  }

  async function execute(job: TurnJob, setting: TurnSetting | undefined, started: StartedTurn | undefined): Promise<void> {
    const beat = setInterval(() => {
      ctx.store.extendTurnJobLease(job.id, owner, new Date(ctx.clock.now().getTime() + leaseMs)).catch((error: unknown) => {
        ctx.logger.error('could not extend a turn job lease', { jobId: job.id, error: String(error) });
      });
    }, Math.max(50, Math.floor(leaseMs / 3)));
    try {
      const outcome = await runTurnJob(ctx, job, {
        owner,
        setting,
        started,
        onDelta: (text) => {
          for (const listener of watches.get(job.id)?.deltas ?? []) listener(text);
        },
        takeInline: () => {
          let taken = false;
          for (const waiter of watches.get(job.id)?.inline ?? []) {
            if (waiter.state === 'waiting') {
              waiter.state = 'taken';
              taken = true;
            }
          }
          return taken;
        },
      });
      watches.get(job.id)?.resolve(outcome);
    } catch (error) {
      // Callers the failed commit meant to answer inline wait again, under their deadline.
      for (const waiter of watches.get(job.id)?.inline ?? []) if (waiter.state === 'taken') waiter.state = 'waiting';
      // Lost lease: the process that took the job over finishes it, and its end reaches waiters as an event. Any
      // other failure (the database went away mid-commit) leaves the job to be retaken after its lease.
      if (error instanceof LeaseLostError) {
        // Its end may already have been published while we still ran: read it now rather than at the next poll.
        running.delete(job.id);
        void settleFromStore(job.id);
      } else {
        ctx.logger.error('turn job failed; it will be run again after its lease', { jobId: job.id, error: String(error) });
      }
    } finally {
      clearInterval(beat);
    }
  }

  function expect(job: TurnJob, setting?: TurnSetting): void {
    const key = sessionKey(job.widgetId, job.sessionId);
    let jobs = pending.get(key);
    if (!jobs) pending.set(key, (jobs = new Map()));
    jobs.set(job.id, { job, setting });
    // The earlier job may have ended between our acceptance and now, its event already gone by.
    void claimNext(job.widgetId, job.sessionId);
  }

  /** Claims the session's next job when it is claimable, and runs it here. */
  async function claimNext(widgetId: string, sessionId: string): Promise<void> {
    const key = sessionKey(widgetId, sessionId);
    if (closed || !pending.has(key)) return;
    try {
      const claimed = await ctx.store.claimSessionTurnJob(widgetId, sessionId, { owner, now: ctx.clock.now(), leaseMs });
      if (!claimed) return;
      const jobs = pending.get(key);
      const known = jobs?.get(claimed.id);
      jobs?.delete(claimed.id);
      if (jobs?.size === 0) pending.delete(key);
      // Possibly not ours: an earlier job abandoned by a crashed process. Run it all the same; ours comes next.
      run(claimed, known?.setting);
    } catch (error) {
      ctx.logger.error('could not claim the next turn of a session', { widgetId, sessionId, error: String(error) });
    }
  }

  function onEvent(event: TurnEvent): void {
    if (event.type !== 'finished') return;
    const waiting = watches.get(event.jobId);
    if (waiting && !running.has(event.jobId)) void settleFromStore(event.jobId);
    void claimNext(event.widgetId, event.sessionId);
  }

  async function settleFromStore(jobId: string): Promise<void> {
    try {
      const job = await ctx.store.getTurnJob(jobId);
      const outcome = job ? await storedOutcome(ctx, job) : null;
      if (outcome) watches.get(jobId)?.resolve(outcome);
    } catch (error) {
      ctx.logger.error('could not read the outcome of a turn job', { jobId, error: String(error) });
    }
  }

  async function pollFallback(): Promise<void> {
    for (const jobs of [...pending.values()]) {
      const first = jobs.values().next().value;
      if (first) await claimNext(first.job.widgetId, first.job.sessionId);
    }
    for (const jobId of [...watches.keys()]) {
      if (!running.has(jobId)) await settleFromStore(jobId);
    }
  }

  async function wait(jobId: string, waitOptions: WaitOptions): Promise<TurnOutcome | 'timeout'> {
    const target = watch(jobId);
    const waiter: InlineWaiter = { state: 'waiting' };
    target.inline.add(waiter);
    if (waitOptions.onDelta) target.deltas.add(waitOptions.onDelta);
    // A job run elsewhere, or finished long ago (a replay), has its outcome in the store already.
    if (!waitOptions.fresh && !running.has(jobId)) void settleFromStore(jobId);
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      return await new Promise<TurnOutcome | 'timeout'>((resolve) => {
        target.promise.then(resolve, () => undefined);
        const expire = (): void => {
          // A commit that already chose to answer this caller inline is moments from done: look again shortly (a
          // failed commit puts the caller back to waiting).
          if (waiter.state === 'waiting') resolve('timeout');
          else timer = setTimeout(expire, 100);
        };
        timer = setTimeout(expire, waitOptions.deadlineMs);
      });
    } finally {
      clearTimeout(timer);
      waiter.state = 'gone';
      target.inline.delete(waiter);
      if (waitOptions.onDelta) target.deltas.delete(waitOptions.onDelta);
    }
  }

  async function runQueued(limit: number): Promise<number> {
    if (closed) return 0;
    const jobs = await ctx.store.claimTurnJobs({ owner, now: ctx.clock.now(), leaseMs, limit });
    for (const job of jobs) {
      const key = sessionKey(job.widgetId, job.sessionId);
      const known = pending.get(key)?.get(job.id);
      pending.get(key)?.delete(job.id);
      run(job, known?.setting);
    }
    await Promise.all(jobs.map((job) => running.get(job.id)));
    return jobs.length;
  }

  return {
    owner,
    leaseMs,
    run,
    expect,
    wait,
    runQueued,
    async close() {
      closed = true;
      unsubscribe();
      clearInterval(poll);
      await Promise.allSettled([...running.values()]);
    },
  };
}
