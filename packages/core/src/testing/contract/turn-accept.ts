import { expect, it } from 'vitest';
import type { Account, Session } from '../../domain.js';
import type { GuardedTurnAcceptance, TurnJob } from '../../store/turn-job-store.js';
import type { Store } from '../../store/store.js';
import { at, makeAccount, makeIdempotencyRecord, makeMessage, makeSession, makeTurnJob } from '../fixtures.js';

/** A message turn's acceptance as the engine sends it: the job claimed by `wrk_a`, accepted at `at(100)`. */
function acceptance(session: Session, overrides: Partial<GuardedTurnAcceptance> = {}): GuardedTurnAcceptance {
  const job: TurnJob = makeTurnJob({
    accountId: session.accountId,
    widgetId: session.widgetId,
    sessionId: session.id,
    mode: 'sync',
    status: 'running',
    attempts: 1,
    leaseOwner: 'wrk_a',
    leaseExpiresAt: at(130),
    createdAt: at(100),
  });
  return {
    job,
    userMessage: {
      id: job.userMessageId,
      widgetId: session.widgetId,
      sessionId: session.id,
      role: 'user',
      content: job.content,
      products: [],
      actions: [],
      forms: [],
      sessionEnded: false,
      credits: null,
      usage: null,
      createdAt: at(100),
    },
    guard: { accountId: session.accountId, publicCaller: false, identitySub: null, now: at(100) },
    activity: { lastActivityAt: at(100), expiresAt: at(86_500) },
    idempotency: null,
    visitorContext: null,
    historyLimit: 2,
    ...overrides,
  };
}

/** `TurnJobOps.acceptTurnAtOnce`: the common acceptance as one guarded write (DESIGN.md section 3a). */
export function turnAcceptContract(store: () => Store): void {
  async function seed(account: Partial<Account> = {}, session: Partial<Session> = {}): Promise<{ account: Account; session: Session }> {
    const paying = makeAccount(account);
    const open = makeSession({ accountId: paying.id, messageCount: 3, ...session });
    await store().insertAccount(paying);
    await store().insertSession(open);
    return { account: paying, session: open };
  }

  it('claims the turn of an idle session: job, visitor message, activity, idempotency record, visitor context and history', async () => {
    const { session } = await seed();
    const earlier = [1, 2, 3].map((seq) =>
      makeMessage({ widgetId: session.widgetId, sessionId: session.id, seq, role: seq % 2 ? 'user' : 'assistant', createdAt: at(seq) }),
    );
    for (const message of earlier) await store().insertMessage(message);
    await store().upsertVisitor(session.accountId, session.visitorId, { name: 'Ada', company: 'Acme' }, at(1));
    const record = makeIdempotencyRecord({ scope: 'key_a turn', status: 0, body: '', createdAt: at(100) });
    const request = acceptance(session, { idempotency: { ...record, jobId: 'set below' }, visitorContext: { company: 'Outdoor Co' } });
    request.idempotency = { ...record, jobId: request.job.id };

    const accepted = await store().acceptTurnAtOnce(request);

    const userMessage = { ...request.userMessage, seq: 4 };
    expect(accepted).toEqual({
      claimed: true,
      job: request.job,
      session: { ...session, messageCount: 4, lastActivityAt: at(100), expiresAt: at(86_500) },
      userMessage,
      history: earlier.slice(-2),
      visitorContext: { name: 'Ada', company: 'Outdoor Co' },
    });
    expect(await store().getTurnJob(request.job.id)).toEqual(request.job);
    expect(await store().getMessage(session.widgetId, session.id, userMessage.id)).toEqual(userMessage);
    expect(await store().getSession(session.widgetId, session.id)).toEqual(accepted!.session);
    expect(await store().getIdempotencyRecord(record.scope, record.key)).toEqual({ ...record, jobId: request.job.id });
    expect((await store().getVisitor(session.accountId, session.visitorId))?.context).toEqual({ name: 'Ada', company: 'Outdoor Co' });
  });

  it('queues a turn behind an unfinished one of its session, with no visitor message yet', async () => {
    const { session } = await seed();
    const first = acceptance(session);
    expect((await store().acceptTurnAtOnce(first))?.claimed).toBe(true);
    const second = acceptance(session, { job: { ...makeTurnJob(first.job), id: 'job_second', userMessageId: 'msg_second_user', replyMessageId: 'msg_second_reply' } });
    second.userMessage = { ...second.userMessage, id: 'msg_second_user' };
    const queued = { ...second.job, status: 'queued' as const, attempts: 0, leaseOwner: null, leaseExpiresAt: null };

    const accepted = await store().acceptTurnAtOnce(second);

    expect(accepted).toMatchObject({ claimed: false, job: queued, userMessage: null, session: { messageCount: 4, lastActivityAt: at(100) } });
    expect(await store().getTurnJob('job_second')).toEqual(queued);
    expect(await store().getMessage(session.widgetId, session.id, 'msg_second_user')).toBeNull();
  });

  it('writes nothing and answers null when any check of the full acceptance would refuse or replay', async () => {
    const cases: Array<[string, Partial<Account>, Partial<Session>, (request: GuardedTurnAcceptance) => GuardedTurnAcceptance]> = [
      ['expired', {}, { expiresAt: at(100) }, (r) => r],
      ['resolved', {}, { status: 'resolved', resolvedAt: at(50) }, (r) => r],
      ['balance exhausted', { balance: 0 }, {}, (r) => r],
      ['account overdue', { status: 'overdue' }, {}, (r) => r],
      ['another account', {}, {}, (r) => ({ ...r, guard: { ...r.guard, accountId: 'acct_other' } })],
      ['created by a server key, asked by a public key', {}, {}, (r) => ({ ...r, guard: { ...r.guard, publicCaller: true } })],
      [
        'bound to another visitor',
        {},
        { creatorKeyKind: 'public', identitySub: 'user-7' },
        (r) => ({ ...r, guard: { ...r.guard, publicCaller: true, identitySub: 'user-8' } }),
      ],
      ['bound, asked without a token', {}, { creatorKeyKind: 'public', identitySub: 'user-7' }, (r) => ({ ...r, guard: { ...r.guard, publicCaller: true } })],
      ['missing session', {}, {}, (r) => ({ ...r, job: { ...r.job, sessionId: 'sess_missing' } })],
    ];
    for (const [name, account, sessionFields, adjust] of cases) {
      const { session } = await seed(account, sessionFields);
      const request = adjust(acceptance(session));
      expect(await store().acceptTurnAtOnce(request), name).toBeNull();
      expect(await store().getTurnJob(request.job.id), name).toBeNull();
      expect(await store().getSession(session.widgetId, session.id), name).toEqual(session);
    }

    // A public key on a session a public key created, bound to its visitor: accepted.
    const { session } = await seed({}, { creatorKeyKind: 'public', identitySub: 'user-7' });
    const bound = acceptance(session, { guard: { accountId: session.accountId, publicCaller: true, identitySub: 'user-7', now: at(100) } });
    expect((await store().acceptTurnAtOnce(bound))?.claimed).toBe(true);

    // An idempotency record already there (a repeat): the full path replays it.
    const repeated = await seed();
    const record = makeIdempotencyRecord({ scope: 'key_a turn' });
    await store().putIdempotencyRecord(record);
    const again = acceptance(repeated.session, { idempotency: { ...record, requestHash: 'other', createdAt: at(100) } });
    expect(await store().acceptTurnAtOnce(again)).toBeNull();
    expect(await store().getTurnJob(again.job.id)).toBeNull();
    expect(await store().getIdempotencyRecord(record.scope, record.key)).toEqual(record);
  });

  it('claims exactly one of concurrent acceptances on one session; the others queue or are left to the full path', async () => {
    const { session } = await seed();
    const requests = Array.from({ length: 8 }, (_, i) => {
      const request = acceptance(session);
      const job = { ...request.job, id: `job_concurrent_${i}`, userMessageId: `msg_concurrent_${i}` };
      return { ...request, job, userMessage: { ...request.userMessage, id: job.userMessageId } };
    });
    const results = await Promise.all(requests.map((request) => store().acceptTurnAtOnce(request)));

    const accepted = results.filter((result) => result !== null);
    expect(accepted.filter((result) => result.claimed)).toHaveLength(1);
    // Every acceptance saw the jobs and activity of those before it; one that gave up wrote nothing.
    for (const [i, result] of results.entries()) {
      expect((await store().getTurnJob(`job_concurrent_${i}`))?.status ?? null).toBe(result === null ? null : result.claimed ? 'running' : 'queued');
    }
    expect((await store().getSession(session.widgetId, session.id))?.messageCount).toBe(4);
    expect(await store().listMessages({ widgetId: session.widgetId, sessionId: session.id, limit: 10 })).toHaveLength(1);
  });
}
