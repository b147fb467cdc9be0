import type { MessageFeedback, Principal, Session, StoredMessage } from '../domain.js';
import { SvcError } from '../errors.js';
import { isEvaluation, recordQuestion } from '../question-groups.js';
import { messageFeedbackRequestSchema, type MessageFeedbackReply } from '../schemas/message.js';
import { parseInput } from '../schemas/validate.js';
import type { StoreOps } from '../store/store.js';
import type { Delivery } from '../store/turn-job-store.js';
import type { EngineContext } from '../context.js';
import { loadSession, loadWidget, requireScope } from './access.js';
import type { EngineResult } from './context.js';
import { wakeDeliveries, writeLifecycleEvent } from './lifecycle.js';
import { feedbackView, isRateable } from './views.js';

/** The message a feedback call names. */
export interface MessageTarget {
  widgetId: string;
  sessionId: string;
  messageId: string;
}

/**
 * POST …/messages/{messageId}/feedback (DESIGN.md section 12): the visitor's thumbs on one AI reply, free, one per
 * message (a new one replaces it), on a session of any status. The same ownership rules as every session route: a
 * public key reaches only the sessions a public key created. A thumbs-down files the visitor's question before the
 * reply into the questions page; every change is a `message.feedback` lifecycle event.
 */
export async function messageFeedback(
  ctx: EngineContext,
  principal: Principal,
  call: { target: MessageTarget; body: unknown },
): Promise<EngineResult<MessageFeedbackReply>> {
  const { target } = call;
  requireScope(principal, 'conversations:chat');
  const input = parseInput(messageFeedbackRequestSchema, call.body);
  const widget = await loadWidget(ctx, principal, target.widgetId);
  const written: Delivery[] = [];
  const result = await ctx.store.transaction(async (tx) => {
    const session = await loadSession(ctx, widget, target.sessionId, principal, tx, true);
    const message = await tx.getMessage(widget.id, session.id, target.messageId);
    if (!message) throw new SvcError('message_not_found', `Message ${target.messageId} was not found in session ${session.id}.`);
    if (!isRateable(message)) {
      throw new SvcError('message_not_rateable', 'Only replies the AI wrote can be rated; this message is the visitor\'s or a person\'s.');
    }
    const comment = input.comment?.trim() ?? '';
    const feedback: MessageFeedback = { rating: input.rating, reason: input.reason ?? null, comment: comment === '' ? null : comment, updatedAt: ctx.clock.now() };
    await tx.setMessageFeedback({ widgetId: widget.id, sessionId: session.id, messageId: message.id, feedback });
    if (feedback.rating === 'down' && message.feedback?.rating !== 'down' && !isEvaluation(session)) await fileThumbsDown(ctx, tx, { session, reply: message });
    const view = feedbackView(feedback);
    written.push(...(await writeLifecycleEvent(ctx, tx, 'message.feedback', session, { feedback: { messageId: message.id, ...view } })));
    return { status: 200 as const, data: { messageId: message.id, feedback: view }, creditsConsumed: 0 };
  });
  wakeDeliveries(ctx, written);
  return result;
}

/** The visitor message a rated-down reply answered joins the thumbs-down questions (the first time it is rated down). */
async function fileThumbsDown(ctx: EngineContext, tx: StoreOps, rated: { session: Session; reply: StoredMessage }): Promise<void> {
  const { session, reply } = rated;
  const before = await tx.listMessages({ widgetId: session.widgetId, sessionId: session.id, afterSeq: Math.max(0, reply.seq - 6), limit: 5 });
  const question = before.filter((message) => message.seq < reply.seq && message.role === 'user' && message.content.trim() !== '').at(-1);
  if (!question) return;
  await recordQuestion(ctx, tx, { accountId: session.accountId, widgetId: session.widgetId, sessionId: session.id, kind: 'thumbs_down', question: question.content });
}
