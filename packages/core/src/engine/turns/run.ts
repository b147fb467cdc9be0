import type { AgentReply, IdentityClaims } from '../../agent.js';
import { priceTurn, totalCredits, zeroCredits } from '../../credits.js';
import type { MessageOutcome, ReplyFormat, Session, StoredMessage, Visitor, VisitorContext, Widget } from '../../domain.js';
import { ERROR_STATUS, SvcError, isSvcError, type ErrorCode } from '../../errors.js';
import type { Delivery, TurnCommit, TurnJob } from '../../store/turn-job-store.js';
import type { StoreOps } from '../../store/store.js';
import { ledgerEntry } from '../billing.js';
import type { EngineContext } from '../../context.js';
import { replyView } from '../views.js';
import { wakeDeliveries, writeLifecycleEvent } from '../lifecycle.js';
import { completedPayload, delivery, failedPayload } from './payloads.js';
import { appendMessageEvent } from '../session-events.js';
import { isEvaluation, recordQuestion } from '../../question-groups.js';

/** Claims after which a job that keeps crashing its worker is given up (and reported as failed). */
export const MAX_TURN_ATTEMPTS = 3;

/**
 * How a turn ended: the stored reply and what it cost, or the error its caller is told. `reply` is null when the
 * AI stayed silent because a person has the conversation (a handoff): the visitor's message is stored, nothing billed.
 */
export type TurnOutcome = { ok: true; reply: StoredMessage | null; creditsConsumed: number } | { ok: false; error: SvcError };

/** What the process running a job knows beyond the job row (the accepting request's widget and key settings). */
export interface TurnSetting {
  widget: Widget;
  replyFormat: ReplyFormat;
  callbackUrl: string | null;
  /** The session is an evaluation (an eval run's): the turn is priced at nothing, with no ledger row. */
  evaluation?: boolean;
}

export interface RunHooks {
  /** The lease holder: the commit only counts while it still holds the job. */
  owner: string;
  /** Pieces of reply text as the agent writes them. */
  onDelta?: (text: string) => void;
  /**
   * Asked inside the commit: true when a caller of this process is still waiting and now gets the outcome inline.
   * Otherwise a sync or stream turn's outcome also goes to the key's callback URL (the caller got 202, or is gone).
   */
  takeInline: () => boolean;
  /** Settings known from the accepting request; read from the store when absent (a recovered job). */
  setting?: TurnSetting | undefined;
  /** The turn already started in the transaction that accepted it (the session had nothing queued). */
  started?: StartedTurn | undefined;
}

/** A turn whose visitor message is in the history: the session as of then, the message, and what the agent sees. */
export interface StartedTurn {
  session: Session;
  userMessage: StoredMessage;
  /** The messages before it, oldest first, at most the history window. */
  history: StoredMessage[];
  visitorContext: VisitorContext;
}

/**
 * What the agent sees of a starting turn, read in the transaction that starts it (so with the session row locked):
 * the history before its message and the visitor's context (`visitor` when the transaction just upserted it).
 */
export async function turnContext(
  ctx: EngineContext,
  tx: StoreOps,
  session: Session,
  before: number,
  visitor?: Visitor,
): Promise<Pick<StartedTurn, 'history' | 'visitorContext'>> {
  const recent = await tx.recentMessages({ widgetId: session.widgetId, sessionId: session.id, limit: ctx.historyWindow + 1 });
  const known = visitor ?? (await tx.getVisitor(session.accountId, session.visitorId));
  return { history: recent.filter((m) => m.seq < before).slice(-ctx.historyWindow), visitorContext: known?.context ?? {} };
}

/** The run's lease was taken over by another process (ours ran out): that one finishes the turn. */
export class LeaseLostError extends Error {
  constructor(jobId: string) {
    super(`Turn job ${jobId} was taken over by another worker after its lease ran out`);
  }
}

/**
 * Steps 2 and 3 of the turn pipeline (DESIGN.md section 3a) for a job this process holds: the visitor's message
 * enters the history (a short transaction), the agent runs with no transaction or connection held, and the reply,
 * session update, debit, job end and outbox rows commit together. A crash anywhere before that commit leaves the job
 * to be run again after its lease; the commit only counts while this run still holds the job, and the reply's fixed
 * id is unique, so a turn is answered once.
 */
export async function runTurnJob(ctx: EngineContext, job: TurnJob, hooks: RunHooks): Promise<TurnOutcome> {
  const setting = hooks.setting ?? (await loadSetting(ctx, job));
  if (!setting) return fail(ctx, job, hooks, null, new SvcError('widget_not_found', 'The widget or API key of this turn no longer exists.'));
  if (job.attempts > MAX_TURN_ATTEMPTS) {
    return fail(ctx, job, hooks, setting, new SvcError('agent_unavailable', `The turn failed ${MAX_TURN_ATTEMPTS} times; your message was kept.`));
  }

  const started = hooks.started ? { ok: true as const, ...hooks.started } : await startTurn(ctx, job);
  if (!started.ok) return fail(ctx, job, hooks, setting, started.error);
  const { session, userMessage } = started;
  // DESIGN.md section 6: while a handoff is requested or active the AI does not answer; a person will.
  if (session.handoff !== null) return finishSilently(ctx, job, hooks, userMessage);

  let reply: AgentReply;
  try {
    reply = await callAgent(ctx, {
      widget: setting.widget,
      session,
      userMessage,
      history: started.history,
      visitorContext: started.visitorContext,
      identity: job.identity,
      timezone: job.timezone ?? undefined,
      ...(hooks.onDelta ? { onDelta: hooks.onDelta } : {}),
    });
  } catch (error) {
    return fail(ctx, job, hooks, setting, agentFailure(error));
  }
  // An eval run's conversation is never billed (DESIGN.md section 12).
  const outcome = await commitTurn(ctx, job, hooks, { ...setting, evaluation: session.purpose === 'evaluation' }, reply);
  if (outcome.ok && outcome.reply?.outcome === 'unanswered' && !isEvaluation(session)) await fileUnanswered(ctx, { job, question: userMessage.content });
  return outcome;
}

/**
 * An unanswered turn's question joins the questions page (DESIGN.md section 12), in its own short transaction after
 * the reply committed: a failure here is logged and costs the visitor nothing (the one question is not filed).
 */
async function fileUnanswered(ctx: EngineContext, turn: { job: TurnJob; question: string }): Promise<void> {
  const { job, question } = turn;
  if (question.trim() === '') return;
  try {
    await ctx.store.transaction((tx) =>
      recordQuestion(ctx, tx, { accountId: job.accountId, widgetId: job.widgetId, sessionId: job.sessionId, kind: 'unanswered', question }),
    );
  } catch (error) {
    ctx.logger.error('could not file an unanswered question', { jobId: job.id, error: String(error) });
  }
}

async function loadSetting(ctx: EngineContext, job: TurnJob): Promise<TurnSetting | null> {
  const [widget, key] = await Promise.all([ctx.store.getWidget(job.widgetId), ctx.store.getApiKey(job.keyId)]);
  if (!widget || !key) return null;
  return { widget, replyFormat: key.replyFormat, callbackUrl: key.revokedAt === null ? key.callbackUrl : null };
}

type Started = ({ ok: true } & StartedTurn) | { ok: false; error: SvcError };

/**
 * The visitor's message enters the history when its turn starts, not when it is accepted: turns of a session run
 * one at a time, so each reply lands right after the message it answers. A re-run finds the message already there.
 */
async function startTurn(ctx: EngineContext, job: TurnJob): Promise<Started> {
  return ctx.store.transaction(async (tx): Promise<Started> => {
    const session = await tx.lockSession(job.widgetId, job.sessionId);
    if (!session) return { ok: false, error: new SvcError('session_not_found', `Session ${job.sessionId} no longer exists.`) };
    // Only a job that ran before (or was queued by version 2, which stored the message at once) can find it there.
    const existing = job.attempts > 1 || job.content === '' ? await tx.getMessage(job.widgetId, job.sessionId, job.userMessageId) : null;
    let userMessage = existing;
    let current = session;
    if (!userMessage) {
      userMessage = visitorMessage(job, session.messageCount + 1, ctx.clock.now());
      await tx.insertMessage(userMessage);
      await tx.updateSession(job.widgetId, job.sessionId, { messageCount: userMessage.seq });
      current = { ...session, messageCount: userMessage.seq };
    }
    if (current.status !== 'active') {
      // Ended (by the agent's previous reply, or by a call to end) after this message was accepted: it is kept, unanswered.
      return {
        ok: false,
        error: new SvcError('session_not_active', `Session ${job.sessionId} is ${current.status}; the message was kept but not answered.`),
      };
    }
    return { ok: true, session: current, userMessage, ...(await turnContext(ctx, tx, current, userMessage.seq)) };
  });
}

/** The visitor's history item of a job, numbered `seq`. */
export function visitorMessage(job: TurnJob, seq: number, createdAt: Date): StoredMessage {
  return {
    id: job.userMessageId,
    widgetId: job.widgetId,
    sessionId: job.sessionId,
    seq,
    role: 'user',
    content: job.content,
    products: [],
    actions: [],
    // A visitor item that answers a form names it, so agents know what it is.
    forms: job.answers ? [job.answers] : [],
    sessionEnded: false,
    credits: null,
    usage: null,
    createdAt,
  };
}

/** Anything an agent throws becomes `agent_unavailable`; its details stay in the log. */
export function agentFailure(error: unknown): SvcError {
  return isSvcError(error)
    ? error
    : new SvcError('agent_unavailable', 'The AI could not answer this message; your message was kept. Try again.', { cause: error });
}

interface AgentCall {
  widget: Widget;
  session: Session;
  userMessage: StoredMessage;
  history: StoredMessage[];
  visitorContext: VisitorContext;
  identity: IdentityClaims | null;
  timezone: string | undefined;
  onDelta?: (text: string) => void;
}

async function callAgent(ctx: EngineContext, call: AgentCall): Promise<AgentReply> {
  const { widget, session, userMessage } = call;
  const controller = new AbortController();
  const hardStop = setTimeout(() => {
    controller.abort(new SvcError('agent_unavailable', `The AI did not answer within ${ctx.agentTimeoutMs} ms; your message was kept.`));
  }, ctx.agentTimeoutMs);
  try {
    return await ctx.agent.reply({
      widget,
      session,
      history: call.history,
      message: userMessage.content,
      visitorContext: call.visitorContext,
      identity: call.identity,
      language: session.language ?? widget.language,
      timezone: call.timezone ?? session.timezone ?? widget.timezone,
      now: ctx.clock.now(),
      signal: controller.signal,
      ...(call.onDelta ? { onDelta: call.onDelta } : {}),
      ...(userMessage.forms[0] ? { formSubmission: { formId: userMessage.forms[0].formId, title: userMessage.forms[0].title } } : {}),
    });
  } catch (error) {
    if (controller.signal.aborted) throw controller.signal.reason;
    throw error;
  } finally {
    clearTimeout(hardStop);
  }
}

/** The delivery target of a job's outcome, if any: callback turns always, others when nobody got it inline. */
function callbackUrl(job: TurnJob, hooks: RunHooks, setting: TurnSetting | null): string | null {
  const url = setting?.callbackUrl ?? null;
  if (!url) return null;
  if (job.mode === 'callback') return url;
  return hooks.takeInline() ? null : url;
}

/** What a turn came to (DESIGN.md section 12), as the agent says or as its reply shows. */
function outcomeOf(reply: AgentReply): MessageOutcome {
  if (reply.outcome !== undefined) return reply.outcome;
  if (reply.handoff) return 'handed_off';
  if (reply.forms.length > 0) return 'form';
  if (reply.sessionEnded) return 'ended';
  return 'answered';
}

/** Step 3: one atomic write through the store (DESIGN.md section 3a); null from the store means our lease was lost. */
async function commitTurn(ctx: EngineContext, job: TurnJob, hooks: RunHooks, setting: TurnSetting, reply: AgentReply): Promise<TurnOutcome> {
  const credits = setting.evaluation ? zeroCredits() : priceTurn(ctx.pricing, reply.usage, reply.meters);
  const at = ctx.clock.now();
  const message: Omit<StoredMessage, 'seq'> = {
    id: job.replyMessageId,
    widgetId: job.widgetId,
    sessionId: job.sessionId,
    role: 'assistant',
    content: reply.content,
    products: reply.products,
    actions: reply.actions,
    forms: reply.forms,
    sessionEnded: reply.sessionEnded,
    credits,
    usage: reply.usage,
    createdAt: at,
    sources: reply.sources ?? [],
    outcome: outcomeOf(reply),
    confidence: reply.confidence ?? null,
  };
  const url = callbackUrl(job, hooks, setting);
  const view = replyView({ ...message, seq: 0 }, { format: setting.replyFormat, formatReply: ctx.formatReply });
  const charge = ledgerEntry(ctx, {
    accountId: job.accountId,
    operation: 'message.turn',
    credits,
    widgetId: job.widgetId,
    sessionId: job.sessionId,
    messageId: message.id,
  });
  const commit: TurnCommit = {
    jobId: job.id,
    owner: hooks.owner,
    at,
    reply: message,
    session: { pendingFormId: reply.forms[0]?.formId ?? null, concludedAt: reply.sessionEnded ? at : null },
    charge,
    deliveries: url ? [delivery(ctx, job, url, 'message.completed', completedPayload(job, view), message.id)] : [],
  };
  // The common turn is one round trip. A turn whose agent ends the session also writes `session.resolved`, and one
  // whose agent asked for a person sets the handoff and writes `session.handoff`, in the same transaction, when (and
  // only when) the commit is what changed the session: the session is locked first to know.
  let lifecycle: Delivery[] = [];
  const stored =
    !reply.sessionEnded && !reply.handoff
      ? await ctx.store.commitTurn(commit)
      : await ctx.store.transaction(async (tx) => {
          const before = await tx.lockSession(job.widgetId, job.sessionId);
          const committed = await tx.commitTurn(commit);
          if (!committed || before?.status !== 'active') return committed;
          let after = await tx.getSession(job.widgetId, job.sessionId);
          if (after && after.status === 'resolved') {
            lifecycle = await writeLifecycleEvent(ctx, tx, 'session.resolved', after, { reason: 'agent' });
          } else if (after && reply.handoff && after.handoff === null) {
            after = await tx.updateSession(job.widgetId, job.sessionId, { handoff: { state: 'requested', since: at, operator: null }, handedOff: true });
            if (after) lifecycle = await writeLifecycleEvent(ctx, tx, 'session.handoff', after, { state: 'requested' });
          }
          return committed;
        });
  if (!stored) throw new LeaseLostError(job.id);
  if (url) ctx.onWork?.('delivery');
  wakeDeliveries(ctx, lifecycle);
  return { ok: true, reply: stored, creditsConsumed: charge?.total ?? 0 };
}

/**
 * A turn during a handoff: the job ends with no reply and no charge, and the visitor's message enters the session's
 * event log, so the operator's console sees it live.
 */
async function finishSilently(ctx: EngineContext, job: TurnJob, hooks: RunHooks, userMessage: StoredMessage): Promise<TurnOutcome> {
  await ctx.store.transaction(async (tx) => {
    await tx.lockSession(job.widgetId, job.sessionId);
    if (!(await tx.finishTurnJob(job.id, { status: 'done', error: null, at: ctx.clock.now(), owner: hooks.owner }))) {
      throw new LeaseLostError(job.id);
    }
    await appendMessageEvent(ctx, tx, job.accountId, userMessage);
    await finished(tx, job);
  });
  return { ok: true, reply: null, creditsConsumed: 0 };
}

/** A turn that cannot be answered: the job fails (its message stays in the history), callers hear why. */
async function fail(ctx: EngineContext, job: TurnJob, hooks: RunHooks, setting: TurnSetting | null, error: SvcError): Promise<TurnOutcome> {
  const delivered = await ctx.store.transaction(async (tx) => {
    // On the locked row, like every change to a session's jobs, so acceptance sees either this job or its end.
    await tx.lockSession(job.widgetId, job.sessionId);
    const at = ctx.clock.now();
    if (!(await tx.finishTurnJob(job.id, { status: 'failed', error: `${error.code}: ${error.message}`, at, owner: hooks.owner }))) {
      throw new LeaseLostError(job.id);
    }
    const url = callbackUrl(job, hooks, setting);
    if (url) await tx.insertDelivery(delivery(ctx, job, url, 'message.failed', failedPayload(job, error), null));
    await finished(tx, job);
    return url !== null;
  });
  if (delivered) ctx.onWork?.('delivery');
  return { ok: false, error };
}

function finished(tx: StoreOps, job: TurnJob): Promise<void> {
  return tx.publishSignal({ type: 'finished', jobId: job.id, widgetId: job.widgetId, sessionId: job.sessionId });
}

/** The outcome of a job that finished in another process (or earlier), read back from the store. */
export async function storedOutcome(ctx: EngineContext, job: TurnJob): Promise<TurnOutcome | null> {
  if (job.status === 'done') {
    // Committed turns store their reply with the job's end; a done job without one was silent (a handoff).
    const reply = await ctx.store.getMessage(job.widgetId, job.sessionId, job.replyMessageId);
    return { ok: true, reply, creditsConsumed: reply?.credits ? totalCredits(reply.credits) : 0 };
  }
  if (job.status === 'failed') return { ok: false, error: parseJobError(job.error) };
  return null;
}

/** Job errors are stored as `code: message`. */
function parseJobError(stored: string | null): SvcError {
  const match = stored === null ? null : /^([a-z_]+): ([\s\S]*)$/.exec(stored);
  const code = match?.[1];
  if (match && code && isKnownCode(code)) return new SvcError(code, match[2] ?? '');
  return new SvcError('agent_unavailable', 'The AI could not answer this message; your message was kept. Try again.');
}

function isKnownCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERROR_STATUS, code);
}
