import { expect, it } from 'vitest';
import type { Session } from '../../domain.js';
import type { TurnCommit, StoreSignal, TurnJob } from '../../store/turn-job-store.js';
import type { Store } from '../../store/store.js';
import { at, makeAccount, makeDelivery, makeIdempotencyRecord, makeLedgerEntry, makeMessage, makeSession, makeTurnJob } from '../fixtures.js';

const LEASE_MS = 30_000;
const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Collects the turn events a store tells its subscribers. */
function listen(store: Store): { events: StoreSignal[]; stop: () => void } {
  const events: StoreSignal[] = [];
  const stop = store.subscribeSignals((event) => events.push(event));
  return { events, stop };
}

/** Waits until `check` passes or `ms` runs out (events arrive asynchronously, across processes on PostgreSQL). */
async function eventually(check: () => void, ms = 2_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await pause(10);
    }
  }
}

/** The store side of the durable turn pipeline (DESIGN.md section 3a): row locks, per-session claims, events. */
export function turnPipelineContract(store: () => Store): void {
  const claim = { owner: 'wrk_a', now: at(100), leaseMs: LEASE_MS };

  it('serialises transactions that lock the same session row, so read-modify-write never loses an update', async () => {
    const session = makeSession();
    await store().insertSession(session);
    await Promise.all(
      Array.from({ length: 12 }, () =>
        store().transaction(async (tx) => {
          const locked = await tx.lockSession(session.widgetId, session.id);
          // Without the row lock every transaction would read the same count and the increments would be lost.
          await pause(2);
          await tx.updateSession(session.widgetId, session.id, { messageCount: locked!.messageCount + 1 });
        }),
      ),
    );
    expect((await store().getSession(session.widgetId, session.id))!.messageCount).toBe(12);
  });

  it('locks nothing and returns null for a session that does not exist, inside a transaction or not', async () => {
    expect(await store().transaction((tx) => tx.lockSession('wgt_none', 'sess_none'))).toBeNull();
    expect(await store().lockSession('wgt_none', 'sess_none')).toBeNull();
    const session = makeSession();
    await store().insertSession(session);
    expect(await store().lockSession(session.widgetId, session.id)).toEqual(session);
  });

  it('reads the locked session and the paying account at once', async () => {
    const account = makeAccount({ balance: 7 });
    const session = makeSession({ accountId: account.id });
    await store().insertAccount(account);
    await store().insertSession(session);
    expect(await store().lockSessionForTurn(session.widgetId, session.id, account.id)).toEqual({ session, account });
    expect(await store().transaction((tx) => tx.lockSessionForTurn(session.widgetId, session.id, account.id))).toEqual({ session, account });
    expect(await store().lockSessionForTurn(session.widgetId, session.id, 'acct_missing')).toEqual({ session, account: null });
    expect(await store().lockSessionForTurn(session.widgetId, 'sess_missing', account.id)).toBeNull();
    // Its lock serialises read-modify-write like lockSession's.
    let idle = 0;
    await Promise.all(
      Array.from({ length: 8 }, () =>
        store().transaction(async (tx) => {
          const locked = await tx.lockSessionForTurn(session.widgetId, session.id, account.id);
          // Jobs inserted by the transactions it waited for are visible to the statements after it.
          const busy = await tx.hasUnfinishedTurnJob(session.widgetId, session.id);
          await pause(2);
          await tx.updateSession(session.widgetId, session.id, { messageCount: locked!.session.messageCount + 1 });
          if (!busy) {
            idle++;
            await tx.insertTurnJob(makeTurnJob({ widgetId: session.widgetId, sessionId: session.id }));
          }
        }),
      ),
    );
    expect((await store().getSession(session.widgetId, session.id))!.messageCount).toBe(8);
    // Exactly one of the eight saw the session idle (the regression: a busy flag read within the locking statement
    // missed the job of the transaction it had waited for).
    expect(idle).toBe(1);
  });

  it("writes an acceptance at once: the job, the visitor's message when the turn starts now, the session's activity", async () => {
    const session = makeSession({ messageCount: 2, pendingFormId: 'callback' });
    await store().insertSession(session);
    const running = makeTurnJob({ widgetId: session.widgetId, sessionId: session.id, status: 'running', attempts: 1, leaseOwner: 'wrk_a', leaseExpiresAt: at(30) });
    const userMessage = makeMessage({
      id: running.userMessageId,
      widgetId: session.widgetId,
      sessionId: session.id,
      seq: 3,
      role: 'user',
      products: [],
      actions: [],
      credits: null,
      usage: null,
    });
    const activity = { lastActivityAt: at(5), expiresAt: at(86_405), messageCount: 3, pendingFormId: null };
    await store().acceptTurnJob({ job: running, userMessage, session: activity });
    expect(await store().getTurnJob(running.id)).toEqual(running);
    expect(await store().getMessage(session.widgetId, session.id, userMessage.id)).toEqual(userMessage);
    expect(await store().getSession(session.widgetId, session.id)).toEqual({ ...session, ...activity });

    // Queued behind it: no message yet.
    const queued = makeTurnJob({ widgetId: session.widgetId, sessionId: session.id, createdAt: at(6) });
    await store().acceptTurnJob({ job: queued, userMessage: null, session: { ...activity, lastActivityAt: at(6) } });
    expect(await store().getTurnJob(queued.id)).toEqual(queued);
    expect(await store().listMessages({ widgetId: session.widgetId, sessionId: session.id, limit: 10 })).toHaveLength(1);
    expect((await store().getSession(session.widgetId, session.id))?.lastActivityAt).toEqual(at(6));
  });

  it('writes nothing of an acceptance whose session is missing, or whose transaction rolls back', async () => {
    const orphan = makeTurnJob({ widgetId: 'wgt_gone', sessionId: 'sess_gone' });
    const activity = { lastActivityAt: at(5), expiresAt: at(10), messageCount: 1, pendingFormId: null };
    await expect(store().acceptTurnJob({ job: orphan, userMessage: null, session: activity })).rejects.toThrow();
    expect(await store().getTurnJob(orphan.id)).toBeNull();

    const session = makeSession();
    await store().insertSession(session);
    const job = makeTurnJob({ widgetId: session.widgetId, sessionId: session.id });
    await expect(
      store().transaction(async (tx) => {
        await tx.acceptTurnJob({ job, userMessage: null, session: activity });
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    expect(await store().getTurnJob(job.id)).toBeNull();
    expect(await store().getSession(session.widgetId, session.id)).toEqual(session);
  });

  it('tells whether a session has a queued or running job', async () => {
    const job = makeTurnJob({ widgetId: 'wgt_u', sessionId: 'sess_u' });
    expect(await store().hasUnfinishedTurnJob('wgt_u', 'sess_u')).toBe(false);
    await store().insertTurnJob(job);
    expect(await store().hasUnfinishedTurnJob('wgt_u', 'sess_u')).toBe(true);
    expect(await store().hasUnfinishedTurnJob('wgt_u', 'sess_other')).toBe(false);
    await store().finishTurnJob(job.id, { status: 'done', error: null, at: at(1) });
    expect(await store().hasUnfinishedTurnJob('wgt_u', 'sess_u')).toBe(false);
  });

  it("claims a session's head only: never the next job while an earlier one is unfinished", async () => {
    const first = makeTurnJob({ widgetId: 'wgt_h', sessionId: 'sess_h', createdAt: at(1) });
    const second = makeTurnJob({ widgetId: 'wgt_h', sessionId: 'sess_h', createdAt: at(2) });
    const other = makeTurnJob({ widgetId: 'wgt_h', sessionId: 'sess_other', createdAt: at(0) });
    for (const job of [first, second, other]) await store().insertTurnJob(job);

    const claimed = await store().claimSessionTurnJob('wgt_h', 'sess_h', claim);
    expect(claimed).toEqual({ ...first, status: 'running', attempts: 1, leaseOwner: 'wrk_a', leaseExpiresAt: at(130) });
    // The head runs: the second waits, for this claimer and any other.
    expect(await store().claimSessionTurnJob('wgt_h', 'sess_h', { ...claim, owner: 'wrk_b' })).toBeNull();
    await store().finishTurnJob(first.id, { status: 'done', error: null, at: at(101) });
    expect((await store().claimSessionTurnJob('wgt_h', 'sess_h', { ...claim, owner: 'wrk_b' }))?.id).toBe(second.id);
    expect(await store().claimSessionTurnJob('wgt_h', 'sess_none', claim)).toBeNull();
  });

  it("retakes a session's head whose lease ran out (its process crashed), ahead of the jobs behind it", async () => {
    const crashed = makeTurnJob({ sessionId: 'sess_r', status: 'running', attempts: 1, leaseOwner: 'wrk_dead', leaseExpiresAt: at(50) });
    const behind = makeTurnJob({ sessionId: 'sess_r', createdAt: at(1) });
    for (const job of [crashed, behind]) await store().insertTurnJob(job);
    expect(await store().claimSessionTurnJob(crashed.widgetId, 'sess_r', { ...claim, now: at(49) })).toBeNull();
    const retaken = await store().claimSessionTurnJob(crashed.widgetId, 'sess_r', claim);
    expect(retaken).toMatchObject({ id: crashed.id, attempts: 2, leaseOwner: 'wrk_a' });
  });

  it('hands a session head to one of several concurrent claimers only', async () => {
    const job = makeTurnJob({ sessionId: 'sess_race' });
    const next = makeTurnJob({ sessionId: 'sess_race', createdAt: at(1) });
    for (const j of [job, next]) await store().insertTurnJob(j);
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => store().claimSessionTurnJob(job.widgetId, 'sess_race', { ...claim, owner: `wrk_${i}` })),
    );
    expect(results.filter((r): r is TurnJob => r !== null).map((r) => r.id)).toEqual([job.id]);
  });

  it('finishes a job for its lease holder only, once', async () => {
    const job = makeTurnJob({ sessionId: 'sess_o' });
    await store().insertTurnJob(job);
    await store().claimSessionTurnJob(job.widgetId, 'sess_o', claim);
    expect(await store().finishTurnJob(job.id, { status: 'done', error: null, at: at(101), owner: 'wrk_b' })).toBe(false);
    expect((await store().getTurnJob(job.id))?.status).toBe('running');
    expect(await store().finishTurnJob(job.id, { status: 'done', error: null, at: at(101), owner: 'wrk_a' })).toBe(true);
    // A second finish by the same owner (a re-run that lost the race) is refused: the job is no longer running.
    expect(await store().finishTurnJob(job.id, { status: 'failed', error: 'x: y', at: at(102), owner: 'wrk_a' })).toBe(false);
    expect(await store().getTurnJob(job.id)).toMatchObject({ status: 'done', error: null, finishedAt: at(101) });
  });

  it('tells subscribers about a turn event once its transaction commits, and never about a rolled back one', async () => {
    const { events, stop } = listen(store());
    const event: StoreSignal = { type: 'finished', jobId: 'job_e1', widgetId: 'wgt_e', sessionId: 'sess_e' };
    let seenInside = -1;
    await store().transaction(async (tx) => {
      await tx.publishSignal(event);
      await pause(20);
      seenInside = events.length;
    });
    expect(seenInside).toBe(0);
    await eventually(() => expect(events).toEqual([event]));

    await expect(
      store().transaction(async (tx) => {
        await tx.publishSignal({ ...event, jobId: 'job_rolled_back' });
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    await store().publishSignal({ ...event, jobId: 'job_e2' });
    await eventually(() => expect(events.map((e) => ('jobId' in e ? e.jobId : e.type))).toEqual(['job_e1', 'job_e2']));
    stop();
    await store().publishSignal({ ...event, jobId: 'job_after_stop' });
    await pause(50);
    expect(events.map((e) => ('jobId' in e ? e.jobId : e.type))).toEqual(['job_e1', 'job_e2']);
  });

  /** A running job of `owner` on a session with `messages` messages, and a commit of its reply. */
  async function runningTurn(owner: string, sessionOverrides: Partial<Session> = {}) {
    const account = makeAccount({ balance: 50 });
    const session = makeSession({ accountId: account.id, messageCount: 1, ...sessionOverrides });
    const job = makeTurnJob({ accountId: account.id, widgetId: session.widgetId, sessionId: session.id, status: 'running', attempts: 1, leaseOwner: owner, leaseExpiresAt: at(130) });
    await store().insertAccount(account);
    await store().insertSession(session);
    await store().insertMessage(makeMessage({ widgetId: session.widgetId, sessionId: session.id, seq: 1, role: 'user' }));
    await store().insertTurnJob(job);
    const reply = makeMessage({ id: job.replyMessageId, widgetId: session.widgetId, sessionId: session.id, createdAt: at(120) });
    const { seq: _seq, ...unnumbered } = reply;
    const commit: TurnCommit = {
      jobId: job.id,
      owner,
      at: at(121),
      reply: unnumbered,
      session: { pendingFormId: 'callback', concludedAt: null },
      charge: makeLedgerEntry({ accountId: account.id, widgetId: session.widgetId, sessionId: session.id, messageId: reply.id, total: 4 }),
      deliveries: [makeDelivery({ accountId: account.id, widgetId: session.widgetId, sessionId: session.id, messageId: reply.id })],
    };
    return { account, session, job, reply: { ...reply, seq: 2 }, commit };
  }

  it('commits a turn at once: job done, reply numbered next, session, charge, delivery and event', async () => {
    const { account, session, job, reply, commit } = await runningTurn('wrk_a');
    const { events, stop } = listen(store());
    expect(await store().commitTurn(commit)).toEqual(reply);
    expect(await store().getMessage(session.widgetId, session.id, reply.id)).toEqual(reply);
    expect(await store().getTurnJob(job.id)).toMatchObject({ status: 'done', leaseOwner: null, identity: null, finishedAt: at(121), error: null });
    expect(await store().getSession(session.widgetId, session.id)).toMatchObject({ messageCount: 2, pendingFormId: 'callback', status: 'active' });
    expect((await store().getAccount(account.id))?.balance).toBe(46);
    expect(await store().listLedgerEntries(account.id, 5)).toEqual([commit.charge]);
    expect(await store().getDelivery(commit.deliveries[0]!.id)).toEqual(commit.deliveries[0]);
    await eventually(() => expect(events).toEqual([{ type: 'finished', jobId: job.id, widgetId: session.widgetId, sessionId: session.id }]));
    stop();
  });

  it('writes nothing for a worker that no longer holds the job', async () => {
    const { account, session, job, reply, commit } = await runningTurn('wrk_a');
    expect(await store().commitTurn({ ...commit, owner: 'wrk_b' })).toBeNull();
    expect(await store().getMessage(session.widgetId, session.id, reply.id)).toBeNull();
    expect(await store().getTurnJob(job.id)).toMatchObject({ status: 'running', leaseOwner: 'wrk_a' });
    expect((await store().getAccount(account.id))?.balance).toBe(50);
    expect(await store().getDelivery(commit.deliveries[0]!.id)).toBeNull();
    // Once committed, a second commit of the same job (a re-run that lost the race) writes nothing either.
    expect(await store().commitTurn(commit)).not.toBeNull();
    expect(await store().commitTurn({ ...commit, reply: { ...commit.reply, id: 'msg_second' } })).toBeNull();
    expect((await store().listMessages({ widgetId: session.widgetId, sessionId: session.id, limit: 10 })).map((m) => m.seq)).toEqual([1, 2]);
  });

  it('resolves an active session the agent concluded, and leaves one ended meanwhile as it was', async () => {
    const active = await runningTurn('wrk_a');
    await store().commitTurn({ ...active.commit, session: { pendingFormId: 'callback', concludedAt: at(121) }, charge: null, deliveries: [] });
    expect(await store().getSession(active.session.widgetId, active.session.id)).toMatchObject({
      status: 'resolved',
      resolvedAt: at(121),
      pendingFormId: null,
    });
    expect((await store().getAccount(active.account.id))?.balance).toBe(50);

    const ended = await runningTurn('wrk_a', { status: 'resolved', resolvedAt: at(100) });
    await store().commitTurn({ ...ended.commit, session: { pendingFormId: null, concludedAt: at(121) } });
    expect(await store().getSession(ended.session.widgetId, ended.session.id)).toMatchObject({ status: 'resolved', resolvedAt: at(100), messageCount: 2 });
  });

  it('commits with the enclosing transaction, or not at all', async () => {
    const { session, reply, commit } = await runningTurn('wrk_a');
    await expect(
      store().transaction(async (tx) => {
        await tx.commitTurn(commit);
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    expect(await store().getMessage(session.widgetId, session.id, reply.id)).toBeNull();
    expect(await store().commitTurn(commit)).toEqual(reply);
  });

  it('keeps the job an idempotency record points at', async () => {
    const record = makeIdempotencyRecord({ status: 0, body: '', jobId: 'job_idem_1' });
    expect(await store().putIdempotencyRecord(record)).toBe(true);
    expect(await store().getIdempotencyRecord(record.scope, record.key)).toEqual(record);
  });
}
