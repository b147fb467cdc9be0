import type { MessageFeedback, ReplyFormat, Session, StoredMessage } from '../domain.js';
import type { ReplyFormatter } from './context.js';
import type { MessageReply, HistoryItem, MessageFeedbackView } from '../schemas/message.js';
import type { CreatedSession, SessionView } from '../schemas/session.js';
import { zeroCredits } from '../credits.js';

/** Turns stored entities into the response shapes of spec section 2. */

export function createdSessionView(session: Session, resumed: boolean): CreatedSession {
  return {
    sessionId: session.id,
    widgetId: session.widgetId,
    visitorId: session.visitorId,
    status: session.status,
    createdAt: session.createdAt.toISOString(),
    resumed,
  };
}

export function sessionView(session: Session): SessionView {
  return {
    sessionId: session.id,
    widgetId: session.widgetId,
    visitorId: session.visitorId,
    status: session.status,
    messageCount: session.messageCount,
    rating: session.rating,
    createdAt: session.createdAt.toISOString(),
    resolvedAt: session.resolvedAt?.toISOString() ?? null,
    handoff: session.handoff
      ? { state: session.handoff.state, since: session.handoff.since.toISOString(), operator: session.handoff.operator ? { ...session.handoff.operator } : null }
      : null,
  };
}

/** How a caller sees assistant content: in its key's reply format. Stored content stays Markdown. */
export interface ContentView {
  format: ReplyFormat;
  formatReply: ReplyFormatter;
}

export function replyView(message: StoredMessage, view: ContentView): MessageReply {
  const reply: MessageReply = {
    messageId: message.id,
    content: view.formatReply(message.content, view.format),
    products: message.products,
    actions: message.actions,
    sources: message.sources ?? [],
    sessionEnded: message.sessionEnded,
    credits: message.credits ?? zeroCredits(),
    usage: message.usage ?? { inputTokens: 0, outputTokens: 0 },
  };
  // Spec 2.4: `forms` is present only when the AI surfaces a form, and non-empty then.
  if (message.forms.length > 0) reply.forms = message.forms;
  return reply;
}

export function historyItemView(message: StoredMessage, view: ContentView): HistoryItem {
  const item: HistoryItem = {
    messageId: message.id,
    role: message.role,
    content: message.role === 'assistant' ? view.formatReply(message.content, view.format) : message.content,
    createdAt: message.createdAt.toISOString(),
  };
  if (message.role === 'assistant' && message.products.length > 0) item.products = message.products;
  if (message.author) item.author = { type: message.author.type, name: message.author.name };
  if (isRateable(message)) item.feedback = message.feedback ? feedbackView(message.feedback) : null;
  return item;
}

/** Replies the AI wrote can be rated (DESIGN.md section 12); visitor messages and a person's replies cannot. */
export const isRateable = (message: StoredMessage): boolean => message.role === 'assistant' && !message.author;

export function feedbackView(feedback: MessageFeedback): MessageFeedbackView {
  return { rating: feedback.rating, reason: feedback.reason, comment: feedback.comment, updatedAt: feedback.updatedAt.toISOString() };
}
