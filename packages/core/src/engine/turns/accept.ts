import type { IdentityClaims } from '../../agent.js';
import type { Principal, Session, SurfacedForm, VisitorContext, Widget } from '../../domain.js';
import { SvcError } from '../../errors.js';
import { assertAcceptsMessages, touch } from '../../session-machine.js';
import type { TurnJob, TurnMode } from '../../store/turn-job-store.js';
import type { StoreOps } from '../../store/store.js';
import { assertCredits, checkSession } from '../access.js';
import type { EngineContext } from '../../context.js';
import { turnContext, visitorMessage, type StartedTurn } from './run.js';

/** DESIGN.md section 4: a repeat within 24 h replays the first response, runs nothing twice, bills once. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

/** A turn as its endpoint hands it over: validated, with the widget loaded. */
export interface TurnRequest {
  principal: Principal;
  widget: Widget;
  sessionId: string;
  kind: TurnJob['kind'];
  mode: TurnMode;
  /** The visitor's message (form submissions: replaced by the precheck's readable answers). */
  content: string;
  visitorContext: VisitorContext | undefined;
  /** A server key's `identity` object; public keys' token claims come with the principal. */
  identity: IdentityClaims | null;
  timezone: string | undefined;
  /**
   * Runs on the locked session before anything is stored or billed; throws to refuse the turn. Form submissions
   * validate here and return the readable answers as the visitor's message, with the form answered.
   */
  precheck?: (session: Session) => { content: string; answers: SurfacedForm };
  /** `Idempotency-Key` and the hash of the request body. */
  idempotency?: { key: string; requestHash: string } | undefined;
}

/** A new job (claimed by `owner` when the session had no unfinished one), or the job a repeated request replays. */
export type Acceptance =
  | { replay: false; job: TurnJob; claimed: false }
  | { replay: false; job: TurnJob; claimed: true; started: StartedTurn }
  | { replay: true; job: TurnJob };

/**
 * Idempotency records of turns are scoped to the key *and* the identity it was used with (DESIGN.md section 3a): a
 * caller without the session's identity token must not be handed a bound session's reply by replaying a key.
 */
export function turnIdempotencyScope(request: Pick<TurnRequest, 'principal' | 'widget' | 'sessionId' | 'kind'>): string {
  const sub = request.principal.identity?.sub;
  const identity = sub === undefined ? '-' : `sub:${JSON.stringify(sub)}`;
  return `${request.principal.keyId} ${identity} turn:${request.kind} ${request.widget.id}/${request.sessionId}`;
}

/**
 * Step 1 of the turn pipeline (DESIGN.md section 3a), in one short transaction on the locked session row: the
 * checks, then the job holding the visitor's message, its idempotency record, the session's activity and the visitor
 * upsert. The job is claimed here, by `claim.owner`, when no earlier job of the session is unfinished, and then its
 * turn starts here too: the visitor's message enters the history in the same transaction. From the commit on nothing
 * is lost: a crash leaves a job that any worker runs again.
 */
export async function acceptTurn(
  ctx: EngineContext,
  request: TurnRequest,
  claim: { owner: string; leaseMs: number },
): Promise<Acceptance> {
  const { principal, widget, sessionId } = request;
  const atOnce = await acceptAtOnce(ctx, request, claim);
  if (atOnce) return atOnce;
  return ctx.store.transaction(async (tx) => {
    const locked = await tx.lockSessionForTurn(widget.id, sessionId, principal.accountId);
    const session = await checkSession(ctx, { widget, sessionId, stored: locked?.session ?? null, principal }, tx);
    const now = ctx.clock.now();

    const scope = turnIdempotencyScope(request);
    const previous = request.idempotency ? await replayable(ctx, tx, scope, request.idempotency, now) : null;
    if (previous) return { replay: true, job: previous };

    assertAcceptsMessages(session);
    const submission = request.precheck?.(session);
    assertCredits(locked?.account ?? null);

    // A statement of its own, after the lock: it must see a job that an acceptance we waited for just committed.
    const claimNow = !(await tx.hasUnfinishedTurnJob(widget.id, sessionId));
    const job = newTurnJob(ctx, request, now, claimNow ? claim : null, { content: submission?.content ?? request.content, answers: submission?.answers ?? null });
    if (request.idempotency) {
      await tx.putIdempotencyRecord({ scope, ...request.idempotency, status: 0, body: '', jobId: job.id, createdAt: now });
    }
    const userMessage = claimNow ? visitorMessage(job, session.messageCount + 1, now) : null;
    const touched = touch(
      {
        ...session,
        messageCount: userMessage?.seq ?? session.messageCount,
        // An accepted submission answers the pending form: sending it again is refused (no form pending).
        pendingFormId: submission ? null : session.pendingFormId,
      },
      now,
      widget.sessionTtlSeconds,
    );
    await tx.acceptTurnJob({
      job,
      userMessage,
      session: {
        lastActivityAt: touched.lastActivityAt,
        expiresAt: touched.expiresAt,
        messageCount: touched.messageCount,
        pendingFormId: touched.pendingFormId,
      },
    });
    const visitor = request.visitorContext
      ? await tx.upsertVisitor(principal.accountId, session.visitorId, request.visitorContext, now)
      : undefined;
    if (userMessage) {
      const context = await turnContext(ctx, tx, touched, userMessage.seq, visitor);
      return { replay: false, job, claimed: true, started: { session: touched, userMessage, ...context } };
    }
    return { replay: false, job, claimed: false };
  });
}

/**
 * The common acceptance in one guarded write (one round trip on SQL stores): a message turn whose session, account
 * and key pass every check of the full path, with a new idempotency key if any. Null when any check fails (nothing
 * is written): the full path then runs and answers as it always does (the refusal, the replay, the expiry).
 */
async function acceptAtOnce(ctx: EngineContext, request: TurnRequest, claim: { owner: string; leaseMs: number }): Promise<Acceptance | null> {
  const { principal, widget } = request;
  if (request.precheck) return null;
  const now = ctx.clock.now();
  const job = newTurnJob(ctx, request, now, claim, { content: request.content, answers: null });
  const { seq: _unnumbered, ...userMessage } = visitorMessage(job, 0, now);
  const activity = touch({ lastActivityAt: now, expiresAt: now }, now, widget.sessionTtlSeconds);
  const accepted = await ctx.store.acceptTurnAtOnce({
    job,
    userMessage,
    guard: {
      accountId: widget.accountId,
      publicCaller: principal.kind === 'public',
      identitySub: principal.identity?.sub ?? null,
      now,
    },
    activity: { lastActivityAt: activity.lastActivityAt, expiresAt: activity.expiresAt },
    idempotency: request.idempotency
      ? { scope: turnIdempotencyScope(request), ...request.idempotency, status: 0, body: '', jobId: job.id, createdAt: now }
      : null,
    visitorContext: request.visitorContext ?? null,
    historyLimit: ctx.historyWindow,
  });
  if (!accepted) return null;
  if (!accepted.claimed || !accepted.userMessage) return { replay: false, job: accepted.job, claimed: false };
  const { session, userMessage: stored, history, visitorContext } = accepted;
  return { replay: false, job: accepted.job, claimed: true, started: { session, userMessage: stored, history, visitorContext } };
}

/**
 * The job an earlier request with this key started, when it is a true repeat; 422 for the same key with another
 * body. A record past the window is dropped so the key can start a new turn.
 */
async function replayable(
  ctx: EngineContext,
  tx: StoreOps,
  scope: string,
  idempotency: { key: string; requestHash: string },
  now: Date,
): Promise<TurnJob | null> {
  const record = await tx.getIdempotencyRecord(scope, idempotency.key);
  if (!record) return null;
  if (now.getTime() - record.createdAt.getTime() >= IDEMPOTENCY_WINDOW_MS) {
    await tx.deleteIdempotencyRecordsBefore(new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS));
    return null;
  }
  if (record.requestHash !== idempotency.requestHash) {
    throw new SvcError('idempotency_key_reused', 'This Idempotency-Key was used with a different request body; use a new key.', {
      field: 'Idempotency-Key',
    });
  }
  const job = record.jobId === null ? null : await tx.getTurnJob(record.jobId);
  if (!job) throw new SvcError('internal_error', 'The turn this Idempotency-Key started can no longer be found.');
  return job;
}

/**
 * The job a turn is accepted as, claimed by `claim` (running) or queued behind an unfinished one (null). Both ways of
 * accepting build it here, so they cannot drift apart.
 */
function newTurnJob(
  ctx: EngineContext,
  request: TurnRequest,
  now: Date,
  claim: { owner: string; leaseMs: number } | null,
  input: Pick<TurnJob, 'content' | 'answers'>,
): TurnJob {
  const { principal, widget, sessionId } = request;
  return {
    id: ctx.ids.sortable('job', now),
    accountId: principal.accountId,
    keyId: principal.keyId,
    widgetId: widget.id,
    sessionId,
    userMessageId: ctx.ids.sortable('msg', now),
    // Fixed now: a 202 can name where the reply will land, and a re-run after a crash cannot answer twice.
    replyMessageId: ctx.ids.sortable('msg', new Date(now.getTime() + 1)),
    kind: request.kind,
    mode: request.mode,
    ...input,
    identity: request.identity ?? principal.identity,
    timezone: request.timezone ?? null,
    status: claim ? 'running' : 'queued',
    attempts: claim ? 1 : 0,
    leaseOwner: claim ? claim.owner : null,
    leaseExpiresAt: claim ? new Date(now.getTime() + claim.leaseMs) : null,
    createdAt: now,
    finishedAt: null,
    error: null,
  };
}
