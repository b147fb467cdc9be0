import type { StoreSignal, TurnJob } from '../../store/turn-job-store.js';
import type { EngineContext } from '../../context.js';
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
  /**
   * Graceful shutdown (DESIGN.md section 9): accepts and claims nothing more and waits up to `deadlineMs` for the
   * turns running here; those still running then are handed back (their lease ends now) so another process takes
   * them over at once, and their fixed reply ids keep a retaken turn from answering twice.
   */
  drain(deadlineMs: number): Promise<{ released: number }>;
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
  /** Text received so far from the process running the job elsewhere; a piece that does not start here is dropped. */
  received: number;
}

/** Text of one cross-process delta at most (`NOTIFY` payloads are limited to 8000 bytes). */
const REMOTE_DELTA_CHARS = 1_000;

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

  const unsubscribe = ctx.store.subscribeSignals(onEvent);
  const poll = setInterval(() => void pollFallback(), options.pollMs);
  (poll as { unref?: () => void }).unref?.();

  function watch(jobId: string): Watch {
    let existing = watches.get(jobId);
    if (!existing) {
      let resolve!: (outcome: TurnOutcome) => void;
      const promise = new Promise<TurnOutcome>((r) => (resolve = r));
      const created: Watch = { promise, resolve, settled: false, inline: new Set(), deltas: new Set(), received: 0 };
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
    const remote = remoteDeltas(job);
    let written = 0;
    try {
      const outcome = await runTurnJob(ctx, job, {
        owner,
        setting,
        started,
        onDelta: (text) => {
          const local = watches.get(job.id)?.deltas;
          if (local?.size) for (const listener of local) listener(text);
          else remote(text, written);
          written += text.length;
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

  /**
   * A streamed job with no caller here (accepted by another process, or recovered after a crash): its pieces go out as
   * `delta` turn events, one at a time and in order, coalesced while one is on its way. Offsets count every piece of
   * the job, so a receiver that missed some (or whose caller was fed locally first) sees the gap and drops the rest;
   * it gets the remainder with the final reply.
   */
  function remoteDeltas(job: TurnJob): (text: string, at: number) => void {
    const queue: Array<{ text: string; at: number }> = [];
    let sending = false;
    const send = async (): Promise<void> => {
      sending = true;
      for (let piece = queue.shift(); piece; piece = queue.shift()) {
        const text = piece.text.slice(0, REMOTE_DELTA_CHARS);
        if (text.length < piece.text.length) queue.unshift({ text: piece.text.slice(text.length), at: piece.at + text.length });
        await ctx.store
          .publishSignal({ type: 'delta', jobId: job.id, widgetId: job.widgetId, sessionId: job.sessionId, delta: { text, at: piece.at } })
          .catch((error: unknown) => ctx.logger.error('could not publish a streamed piece of a turn', { jobId: job.id, error: String(error) }));
      }
      sending = false;
    };
    return (text, at) => {
      if (job.mode !== 'stream' || text === '') return;
      const last = queue.at(-1);
      if (last && last.at + last.text.length === at) last.text += text;
      else queue.push({ text, at });
      if (!sending) void send();
    };
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

  function onEvent(event: StoreSignal): void {
    if (event.type === 'delta') {
      const target = event.delta && !running.has(event.jobId) ? watches.get(event.jobId) : undefined;
      if (!target || !event.delta || event.delta.at !== target.received) return;
      target.received += event.delta.text.length;
      for (const listener of target.deltas) listener(event.delta.text);
      return;
    }
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
    async drain(deadlineMs) {
      closed = true;
      unsubscribe();
      clearInterval(poll);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const finished = await Promise.race([
        Promise.allSettled([...running.values()]).then(() => true),
        new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), deadlineMs))),
      ]);
      clearTimeout(timer);
      if (finished) return { released: 0 };
      const now = ctx.clock.now();
      const released = await Promise.all([...running.keys()].map((id) => ctx.store.extendTurnJobLease(id, owner, now).catch(() => false)));
      return { released: released.filter(Boolean).length };
    },
  };
}
