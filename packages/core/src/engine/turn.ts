import type { AgentReply, IdentityClaims } from '../agent.js';
import { priceTurn } from '../credits.js';
import type { Principal, Session, StoredMessage, SurfacedForm, VisitorContext, Widget } from '../domain.js';
import { SvcError, isSvcError } from '../errors.js';
import type { MessageReply, ProcessingReply } from '../schemas/message.js';
import { assertAcceptsMessages, resolveByAgent, touch } from '../session-machine.js';
import type { StoreOps } from '../store/store.js';
import { loadSession, requireCredits } from './access.js';
import { charge } from './billing.js';
import type { EngineContext, EngineResult } from './context.js';
import { sessionLock, turnLock } from './sessions.js';
import { replyView } from './views.js';
import { completedPayload, delivery } from './callback-turns.js';
import { safeObserver, type TurnObserver } from './observer.js';

export interface TurnInput {
  principal: Principal;
  widget: Widget;
  sessionId: string;
  /** The user history item stored for this turn. */
  userContent: string;
  visitorContext: VisitorContext | undefined;
  identity: IdentityClaims | null;
  timezone: string | undefined;
  /**
   * Runs under the session lock before anything is stored or billed; throws to refuse the turn. Form
   * submissions validate here and return the readable answers as the user history item, with the form answered.
   */
  precheck?: (session: Session) => { content: string; answers: SurfacedForm } | undefined;
}

export type TurnResult = EngineResult<MessageReply | ProcessingReply>;

/** How the caller of a turn run inline waits: `sync` answers 202 past the sync wait, `stream` waits to the end. */
export interface TurnAnswering {
  mode: 'sync' | 'stream';
  observer?: TurnObserver | undefined;
}

/** Writes added to the transaction that stores the visitor's message (callback mode queues its job there). */
export type WithUserMessage = (tx: StoreOps, userMessage: StoredMessage, session: Session) => Promise<void>;

/**
 * The first half of every turn, under the session's write lock: check the session and the balance, then store the
 * visitor's message (and whatever `extra` adds) in one transaction. A later failure never loses the message.
 */
export async function storeUserMessage(
  ctx: EngineContext,
  input: TurnInput,
  extra?: WithUserMessage,
): Promise<{ session: Session; userMessage: StoredMessage }> {
  const { principal, widget, sessionId } = input;
  const session = await loadSession(ctx, widget, sessionId, principal);
  assertAcceptsMessages(session);
  const submission = input.precheck?.(session);
  await requireCredits(ctx, principal.accountId);

  const now = ctx.clock.now();
  const userMessage: StoredMessage = {
    ...newMessage(ctx, session, { seq: session.messageCount + 1, role: 'user', content: submission?.content ?? input.userContent, createdAt: now }),
    // A user item that answers a form names it, so agents (now or in a later worker) know what it is.
    forms: submission ? [submission.answers] : [],
  };
  const touched = touch(
    { ...session, messageCount: userMessage.seq, pendingFormId: submission ? null : session.pendingFormId },
    now,
    widget.sessionTtlSeconds,
  );
  await ctx.store.transaction(async (tx) => {
    await tx.insertMessage(userMessage);
    await tx.updateSession(widget.id, sessionId, {
      messageCount: touched.messageCount,
      lastActivityAt: touched.lastActivityAt,
      expiresAt: touched.expiresAt,
      // An accepted submission answers the pending form: sending it again is refused (no form pending).
      pendingFormId: touched.pendingFormId,
    });
    if (input.visitorContext) await tx.upsertVisitor(principal.accountId, session.visitorId, input.visitorContext, now);
    await extra?.(tx, userMessage, touched);
  });
  return { session: touched, userMessage };
}

/**
 * A sync turn (DESIGN.md section 3). The caller is answered with the reply, or with 202 `processing` once the
 * sync wait runs out; the turn itself finishes either way and holds the session lock until it has, so turns
 * never overlap.
 */
export function runTurn(ctx: EngineContext, input: TurnInput, answering: TurnAnswering = { mode: 'sync' }): Promise<TurnResult> {
  const { principal, widget, sessionId } = input;
  const observer = safeObserver(answering.observer);
  return new Promise<TurnResult>((resolve, reject) => {
    let answered = false;
    const answer = (settle: () => void): boolean => {
      if (answered) return false;
      answered = true;
      settle();
      return true;
    };

    ctx.store
      .withLock(turnLock(widget.id, sessionId), async () => {
        const { session, userMessage } = await ctx.store.withLock(sessionLock(widget.id, sessionId), () => storeUserMessage(ctx, input));
        // The reply's id is fixed now so a 202 can name where the reply will land.
        const replyId = ctx.ids.sortable('msg', userMessage.createdAt);
        observer?.onAccepted({ messageId: replyId, sessionId });
        // A stream has no 202: its caller watches the reply being written, bounded by the agent timeout.
        const timer =
          answering.mode === 'sync'
            ? setTimeout(() => {
                answer(() => resolve({ status: 202, data: { messageId: replyId, status: 'processing' }, creditsConsumed: 0 }));
              }, ctx.syncTimeoutMs)
            : undefined;

        try {
          let streamed = false;
          const onDelta = observer
            ? (text: string): void => {
                streamed = true;
                observer.onDelta(text);
              }
            : undefined;
          const reply = await callAgent(ctx, {
            widget,
            session,
            userMessage,
            identity: input.identity ?? principal.identity,
            timezone: input.timezone,
            ...(onDelta ? { onDelta } : {}),
          });
          // An agent that does not stream: its whole content is the one delta.
          if (observer && !streamed && reply.content !== '') observer.onDelta(reply.content);
          const view = { format: principal.replyFormat, formatReply: ctx.formatReply };
          const { stored, creditsConsumed } = await ctx.store.withLock(sessionLock(widget.id, sessionId), () =>
            commitReply(ctx, {
              accountId: principal.accountId,
              session,
              replyId,
              reply,
              // DESIGN.md section 4: a reply that outlived the sync wait (the caller got 202) also goes to the
              // key's callback URL, when it has one.
              extra: async (tx, stored) => {
                if (!answered || !principal.callbackUrl) return;
                const target = { accountId: principal.accountId, keyId: principal.keyId, widgetId: widget.id, sessionId };
                const body = completedPayload(target, replyView(stored, view));
                await tx.insertDelivery(delivery(ctx, target, principal.callbackUrl, 'message.completed', body, stored.id));
              },
            }),
          );
          if (answered && principal.callbackUrl) ctx.onWork?.('delivery');
          const data = replyView(stored, view);
          answer(() => resolve({ status: 200, data, creditsConsumed }));
        } catch (error) {
          const failure = agentFailure(error);
          if (!answer(() => reject(failure))) {
            ctx.logger.error('turn failed after the caller was answered with 202', {
              widgetId: widget.id,
              sessionId,
              messageId: replyId,
              error: error instanceof Error ? error.message : String(error),
            });
          }
        } finally {
          clearTimeout(timer);
        }
      })
      .catch((error: unknown) => {
        answer(() => reject(error));
      });
  });
}

/** Anything an agent throws becomes `agent_unavailable`; its details stay in the log. */
export function agentFailure(error: unknown): SvcError {
  return isSvcError(error)
    ? error
    : new SvcError('agent_unavailable', 'The AI could not answer this message; your message was kept. Try again.', { cause: error });
}

export interface AgentCall {
  widget: Widget;
  session: Session;
  userMessage: StoredMessage;
  identity: IdentityClaims | null;
  timezone: string | undefined;
  /** Passed to the agent as `AgentRequest.onDelta` (streaming turns). */
  onDelta?: (text: string) => void;
}

export async function callAgent(ctx: EngineContext, call: AgentCall): Promise<AgentReply> {
  const { widget, session, userMessage } = call;
  const recent = await ctx.store.recentMessages({ widgetId: session.widgetId, sessionId: session.id, limit: ctx.historyWindow + 16 });
  const history = recent.filter((m) => m.seq < userMessage.seq).slice(-ctx.historyWindow);
  const visitor = await ctx.store.getVisitor(session.accountId, session.visitorId);
  const controller = new AbortController();
  const hardStop = setTimeout(() => {
    controller.abort(new SvcError('agent_unavailable', `The AI did not answer within ${ctx.agentTimeoutMs} ms; your message was kept.`));
  }, ctx.agentTimeoutMs);
  try {
    return await ctx.agent.reply({
      widget,
      session,
      history,
      message: userMessage.content,
      visitorContext: visitor?.context ?? {},
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

export interface ReplyCommit {
  accountId: string;
  session: Session;
  replyId: string;
  reply: AgentReply;
  /** More writes for the same transaction (callback mode: the delivery and the job's end). */
  extra?: (tx: StoreOps, stored: StoredMessage) => Promise<void>;
}

/** The second half of a turn, under the session's write lock: reply, session update, debit and ledger row in one transaction. */
export async function commitReply(ctx: EngineContext, commit: ReplyCommit): Promise<{ stored: StoredMessage; creditsConsumed: number }> {
  const { session, replyId, reply } = commit;
  const at = ctx.clock.now();
  // Read again under the lock: other turns may have added messages since this one's visitor message.
  const current = (await ctx.store.getSession(session.widgetId, session.id)) ?? session;
  const credits = priceTurn(ctx.pricing, reply.usage, reply.meters);
  const stored: StoredMessage = {
    ...newMessage(ctx, current, { seq: current.messageCount + 1, role: 'assistant', content: reply.content, createdAt: at }),
    id: replyId,
    products: reply.products,
    actions: reply.actions,
    forms: reply.forms,
    sessionEnded: reply.sessionEnded,
    credits,
    usage: reply.usage,
  };
  let next: Session = { ...current, messageCount: stored.seq, pendingFormId: reply.forms[0]?.formId ?? null };
  if (reply.sessionEnded) next = resolveByAgent(next, at);

  const creditsConsumed = await ctx.store.transaction(async (tx) => {
    await tx.insertMessage(stored);
    await tx.updateSession(session.widgetId, session.id, {
      messageCount: next.messageCount,
      pendingFormId: next.pendingFormId,
      status: next.status,
      resolvedAt: next.resolvedAt,
    });
    const total = await charge(ctx, tx, {
      accountId: commit.accountId,
      operation: 'message.turn',
      credits,
      widgetId: session.widgetId,
      sessionId: session.id,
      messageId: replyId,
    });
    await commit.extra?.(tx, stored);
    return total;
  });
  return { stored, creditsConsumed };
}

export function newMessage(
  ctx: EngineContext,
  session: Session,
  fields: Pick<StoredMessage, 'seq' | 'role' | 'content' | 'createdAt'>,
): StoredMessage {
  return {
    id: ctx.ids.sortable('msg', fields.createdAt),
    widgetId: session.widgetId,
    sessionId: session.id,
    products: [],
    actions: [],
    forms: [],
    sessionEnded: false,
    credits: null,
    usage: null,
    ...fields,
  };
}
