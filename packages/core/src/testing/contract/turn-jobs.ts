import { expect, it } from 'vitest';
import type { TurnJob } from '../../store/turn-job-store.js';
import type { Store } from '../../store/store.js';
import { at, makeTurnJob } from '../fixtures.js';

const LEASE_MS = 30_000;

const ids = (jobs: TurnJob[]): string[] => jobs.map((job) => job.id);

/** What a claim at `now` by `owner` makes of a queued (or expired) job. */
function claimedBy(job: TurnJob, owner: string, now: Date, attempts = job.attempts + 1): TurnJob {
  return { ...job, status: 'running', leaseOwner: owner, leaseExpiresAt: new Date(now.getTime() + LEASE_MS), attempts };
}

export function turnJobContract(store: () => Store): void {
  const claim = (owner: string, now: Date, limit = 10): Promise<TurnJob[]> =>
    store().claimTurnJobs({ owner, now, leaseMs: LEASE_MS, limit });

  it('round-trips queued, running and finished jobs with every field', async () => {
    const queued = makeTurnJob();
    const running = makeTurnJob({ sessionId: 'sess_running', status: 'running', attempts: 2, leaseOwner: 'wrk_a', leaseExpiresAt: at(30) });
    const failed = makeTurnJob({
      sessionId: 'sess_failed',
      kind: 'form',
      mode: 'sync',
      content: 'Name: Ada\nWhen?: morning',
      answers: { formId: 'callback', title: 'Request a call back', questions: [{ id: 'name', label: 'Your name', kind: 'text', required: true }] },
      identity: null,
      timezone: null,
      status: 'failed',
      attempts: 4,
      createdAt: at(1),
      finishedAt: at(9),
      error: 'agent_unavailable: The turn failed 3 times; your message was kept.',
    });
    for (const job of [queued, running, failed]) await store().insertTurnJob(job);
    for (const job of [queued, running, failed]) expect(await store().getTurnJob(job.id)).toEqual(job);
    expect((await store().getTurnJob(running.id))?.leaseExpiresAt).toBeInstanceOf(Date);
    expect(await store().getTurnJob('job_missing')).toBeNull();
    await expect(store().insertTurnJob({ ...queued, sessionId: 'sess_other' })).rejects.toThrow();
  });

  it('claims queued jobs oldest first up to the limit: running, leased to the claimer, attempts + 1', async () => {
    const jobs = [3, 1, 4, 2].map((n) => makeTurnJob({ sessionId: `sess_${n}`, createdAt: at(n) }));
    for (const job of jobs) await store().insertTurnJob(job);
    const [third, first, fourth, second] = jobs as [TurnJob, TurnJob, TurnJob, TurnJob];
    const now = at(100);

    const claimed = await claim('wrk_a', now, 3);
    expect(claimed).toEqual([first, second, third].map((job) => claimedBy(job, 'wrk_a', now)));
    for (const job of claimed) expect(await store().getTurnJob(job.id)).toEqual(job);
    expect(await claim('wrk_b', now)).toEqual([claimedBy(fourth, 'wrk_b', now)]);
    expect(await claim('wrk_c', now)).toEqual([]);
  });

  it('leaves a running job alone while its lease lasts, then lets another worker retake it', async () => {
    const job = makeTurnJob();
    await store().insertTurnJob(job);
    expect(await claim('wrk_a', at(0))).toEqual([claimedBy(job, 'wrk_a', at(0))]);
    expect(await claim('wrk_b', at(29.999))).toEqual([]);
    // The lease ends at at(30): expired at that very instant.
    const retaken = claimedBy(job, 'wrk_b', at(30), 2);
    expect(await claim('wrk_b', at(30))).toEqual([retaken]);
    expect(await store().getTurnJob(job.id)).toEqual(retaken);
    // The first worker lost it: its heartbeat is refused.
    expect(await store().extendTurnJobLease(job.id, 'wrk_a', at(90))).toBe(false);
  });

  it("runs a session's jobs one at a time: the next becomes claimable once the one before is done", async () => {
    const first = makeTurnJob({ widgetId: 'wgt_s', sessionId: 'sess_s', createdAt: at(1) });
    const second = makeTurnJob({ widgetId: 'wgt_s', sessionId: 'sess_s', createdAt: at(2) });
    const third = makeTurnJob({ widgetId: 'wgt_s', sessionId: 'sess_s', createdAt: at(3) });
    // Same session id on another widget: another session, not held up.
    const elsewhere = makeTurnJob({ widgetId: 'wgt_other', sessionId: 'sess_s', createdAt: at(4) });
    for (const job of [first, second, third, elsewhere]) await store().insertTurnJob(job);

    // While the first is queued, the second is not claimable, whatever the limit.
    expect(ids(await claim('wrk_a', at(10)))).toEqual([first.id, elsewhere.id]);
    // While it runs, neither.
    expect(await claim('wrk_b', at(10))).toEqual([]);
    await store().finishTurnJob(first.id, { status: 'done', error: null, at: at(11) });
    expect(ids(await claim('wrk_b', at(12)))).toEqual([second.id]);
    await store().finishTurnJob(second.id, { status: 'failed', error: 'agent_unavailable: down', at: at(13) });
    expect(ids(await claim('wrk_b', at(14)))).toEqual([third.id]);
  });

  it('holds back the next job of a session while the one before waits for its lease to expire', async () => {
    const first = makeTurnJob({ sessionId: 'sess_crash', createdAt: at(1) });
    const second = makeTurnJob({ sessionId: 'sess_crash', createdAt: at(2) });
    for (const job of [first, second]) await store().insertTurnJob(job);
    await claim('wrk_crashed', at(5));
    expect(await claim('wrk_b', at(6))).toEqual([]);
    // After the lease the first is retaken, still ahead of the second.
    expect(ids(await claim('wrk_b', at(35)))).toEqual([first.id]);
  });

  it("orders a session's jobs by arrival even when they share a millisecond or a later one has an earlier clock", async () => {
    // Ids of one millisecond sort randomly (ULIDs), and instances' clocks may disagree: insertion order decides.
    const sameTimeFirst = makeTurnJob({ id: 'job_zzz_same_ms', sessionId: 'sess_tie', createdAt: at(5) });
    const sameTimeSecond = makeTurnJob({ id: 'job_aaa_same_ms', sessionId: 'sess_tie', createdAt: at(5) });
    const skewedFirst = makeTurnJob({ sessionId: 'sess_skew', createdAt: at(7) });
    const skewedSecond = makeTurnJob({ sessionId: 'sess_skew', createdAt: at(6) });
    for (const job of [sameTimeFirst, sameTimeSecond, skewedFirst, skewedSecond]) await store().insertTurnJob(job);

    expect(ids(await claim('wrk_a', at(10)))).toEqual([sameTimeFirst.id, skewedFirst.id]);
    await store().finishTurnJob(sameTimeFirst.id, { status: 'done', error: null, at: at(11) });
    await store().finishTurnJob(skewedFirst.id, { status: 'done', error: null, at: at(11) });
    expect(ids(await claim('wrk_a', at(12)))).toEqual([sameTimeSecond.id, skewedSecond.id]);
  });

  it('extends a lease only for the worker holding it, while the job runs', async () => {
    const job = makeTurnJob();
    const queued = makeTurnJob({ sessionId: 'sess_queued', createdAt: at(1) });
    await store().insertTurnJob(job);
    await claim('wrk_a', at(0), 1);
    await store().insertTurnJob(queued);

    expect(await store().extendTurnJobLease(job.id, 'wrk_b', at(600))).toBe(false);
    expect((await store().getTurnJob(job.id))?.leaseExpiresAt).toEqual(at(30));
    expect(await store().extendTurnJobLease(job.id, 'wrk_a', at(90))).toBe(true);
    expect(await store().getTurnJob(job.id)).toEqual(claimedBy(job, 'wrk_a', at(60)));
    expect(ids(await claim('wrk_b', at(60)))).toEqual([queued.id]);

    expect(await store().extendTurnJobLease(queued.id, 'wrk_a', at(90))).toBe(false);
    await store().finishTurnJob(job.id, { status: 'done', error: null, at: at(61) });
    expect(await store().extendTurnJobLease(job.id, 'wrk_a', at(120))).toBe(false);
    expect(await store().extendTurnJobLease('job_missing', 'wrk_a', at(120))).toBe(false);
  });

  it('finishes a job: status, error and time set, lease released, identity claims erased', async () => {
    const failed = makeTurnJob({ sessionId: 'sess_f' });
    const done = makeTurnJob({ sessionId: 'sess_d' });
    for (const job of [failed, done]) await store().insertTurnJob(job);
    await claim('wrk_a', at(0));
    await store().finishTurnJob(failed.id, { status: 'failed', error: 'session_not_active: expired', at: at(12) });
    await store().finishTurnJob(done.id, { status: 'done', error: null, at: at(13) });

    const released = { attempts: 1, leaseOwner: null, leaseExpiresAt: null, identity: null };
    expect(await store().getTurnJob(failed.id)).toEqual({
      ...failed,
      ...released,
      status: 'failed',
      error: 'session_not_active: expired',
      finishedAt: at(12),
    });
    expect(await store().getTurnJob(done.id)).toEqual({ ...done, ...released, status: 'done', error: null, finishedAt: at(13) });
    expect(JSON.stringify(await store().getTurnJob(done.id))).not.toContain('user-7');
    // Finished jobs are never claimed again, however late.
    expect(await claim('wrk_b', at(10 ** 7))).toEqual([]);
    await expect(store().finishTurnJob('job_missing', { status: 'done', error: null, at: at(1) })).resolves.toBe(false);
  });

  it('never hands one job to two concurrent claimers', async () => {
    const jobs = Array.from({ length: 30 }, (_, i) => makeTurnJob({ sessionId: `sess_c${i}`, createdAt: at(i) }));
    for (const job of jobs) await store().insertTurnJob(job);
    const rounds = await Promise.all(Array.from({ length: 4 }, (_, i) => claim(`wrk_${i}`, at(100), 10)));
    const rest = await claim('wrk_last', at(100), 100);
    const claimed = [...rounds.flat(), ...rest];
    expect(claimed).toHaveLength(jobs.length);
    expect(new Set(ids(claimed))).toEqual(new Set(ids(jobs)));
    for (const job of claimed) expect(await store().getTurnJob(job.id)).toMatchObject({ attempts: 1, leaseOwner: job.leaseOwner });
  });

  it('claims nothing with a limit of 0', async () => {
    await store().insertTurnJob(makeTurnJob());
    expect(await claim('wrk_a', at(1), 0)).toEqual([]);
  });
}
