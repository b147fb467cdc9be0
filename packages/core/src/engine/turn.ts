import type { AgentReply, IdentityClaims } from '../agent.js';
import { priceTurn } from '../credits.js';
import type { Principal, Session, StoredMessage, VisitorContext, Widget } from '../domain.js';
import { SvcError, isSvcError } from '../errors.js';
import type { MessageReply, ProcessingReply } from '../schemas/message.js';
import { assertAcceptsMessages, resolveByAgent, touch } from '../session-machine.js';
import { loadSession, requireCredits } from './access.js';
import { charge } from './billing.js';
import type { EngineContext, EngineResult } from './context.js';
import { sessionLock } from './sessions.js';
import { replyView } from './views.js';

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
   * submissions validate here and return the readable answers as the user history item.
   */
  precheck?: (session: Session) => string | undefined;
}

export type TurnResult = EngineResult<MessageReply | ProcessingReply>;

/**
 * One turn (DESIGN.md section 3): under the session lock, check the session and balance, store the user message,
 * run the agent, then store the reply, update the session and debit credits in one transaction.
 *
 * The caller is answered with the reply, or with 202 `processing` once the sync wait runs out; the turn itself
 * finishes either way and keeps the session locked until it has, so turns never overlap.
 */
export function runTurn(ctx: EngineContext, input: TurnInput): Promise<TurnResult> {
  const { principal, widget, sessionId } = input;
  return new Promise<TurnResult>((resolve, reject) => {
    let answered = false;
    const answer = (settle: () => void): boolean => {
      if (answered) return false;
      answered = true;
      settle();
      return true;
    };

    ctx.store
      .withLock(sessionLock(widget.id, sessionId), async () => {
        const session = await loadSession(ctx, widget, sessionId);
        assertAcceptsMessages(session);
        const userContent = input.precheck?.(session) ?? input.userContent;
        await requireCredits(ctx, principal.accountId);

        const started = ctx.clock.now();
        const userMessage = message(ctx, session, {
          seq: session.messageCount + 1,
          role: 'user',
          content: userContent,
          createdAt: started,
        });
        const touched = touch({ ...session, messageCount: userMessage.seq }, started, widget.sessionTtlSeconds);
        await ctx.store.transaction(async (tx) => {
          await tx.insertMessage(userMessage);
          await tx.updateSession(widget.id, sessionId, {
            messageCount: touched.messageCount,
            lastActivityAt: touched.lastActivityAt,
            expiresAt: touched.expiresAt,
          });
          if (input.visitorContext) await tx.upsertVisitor(principal.accountId, session.visitorId, input.visitorContext, started);
        });

        // The reply's id is fixed now so a 202 can name where the reply will land.
        const replyId = ctx.ids.sortable('msg', started);
        const timer = setTimeout(() => {
          answer(() => resolve({ status: 202, data: { messageId: replyId, status: 'processing' }, creditsConsumed: 0 }));
        }, ctx.syncTimeoutMs);

        try {
          const reply = await callAgent(ctx, input, touched, userMessage);
          const { stored, creditsConsumed } = await commitReply(ctx, input, touched, replyId, reply);
          answer(() =>
            resolve({ status: 200, data: replyView(stored, { format: principal.replyFormat, formatReply: ctx.formatReply }), creditsConsumed }),
          );
        } catch (error) {
          const failure = isSvcError(error) ? error : new SvcError('agent_unavailable', 'The AI could not answer this message; your message was kept. Try again.', { cause: error });
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

async function callAgent(ctx: EngineContext, input: TurnInput, session: Session, userMessage: StoredMessage): Promise<AgentReply> {
  const history = (await ctx.store.recentMessages({ widgetId: session.widgetId, sessionId: session.id, limit: ctx.historyWindow + 1 })).filter(
    (m) => m.id !== userMessage.id,
  );
  const visitor = await ctx.store.getVisitor(session.accountId, session.visitorId);
  const controller = new AbortController();
  const hardStop = setTimeout(() => {
    controller.abort(new SvcError('agent_unavailable', `The AI did not answer within ${ctx.agentTimeoutMs} ms; your message was kept.`));
  }, ctx.agentTimeoutMs);
  try {
    return await ctx.agent.reply({
      widget: input.widget,
      session,
      history: history.slice(-ctx.historyWindow),
      message: userMessage.content,
      visitorContext: visitor?.context ?? input.visitorContext ?? {},
      identity: input.identity,
      language: session.language ?? input.widget.language,
      timezone: input.timezone ?? session.timezone ?? input.widget.timezone,
      now: ctx.clock.now(),
      signal: controller.signal,
    });
  } catch (error) {
    if (controller.signal.aborted) throw controller.signal.reason;
    throw error;
  } finally {
    clearTimeout(hardStop);
  }
}

async function commitReply(
  ctx: EngineContext,
  input: TurnInput,
  session: Session,
  replyId: string,
  reply: AgentReply,
): Promise<{ stored: StoredMessage; creditsConsumed: number }> {
  const at = ctx.clock.now();
  const credits = priceTurn(ctx.pricing, reply.usage, reply.meters);
  const stored: StoredMessage = {
    ...message(ctx, session, { seq: session.messageCount + 1, role: 'assistant', content: reply.content, createdAt: at }),
    id: replyId,
    products: reply.products,
    actions: reply.actions,
    forms: reply.forms,
    sessionEnded: reply.sessionEnded,
    credits,
    usage: reply.usage,
  };
  let next: Session = { ...session, messageCount: stored.seq, pendingFormId: reply.forms[0]?.formId ?? null };
  if (reply.sessionEnded) next = resolveByAgent(next, at);

  const creditsConsumed = await ctx.store.transaction(async (tx) => {
    await tx.insertMessage(stored);
    await tx.updateSession(session.widgetId, session.id, {
      messageCount: next.messageCount,
      pendingFormId: next.pendingFormId,
      status: next.status,
      resolvedAt: next.resolvedAt,
    });
    return charge(ctx, tx, {
      accountId: input.principal.accountId,
      operation: 'message.turn',
      credits,
      widgetId: session.widgetId,
      sessionId: session.id,
      messageId: replyId,
    });
  });
  return { stored, creditsConsumed };
}

function message(
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
