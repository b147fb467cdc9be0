import { z } from 'zod';
import type { Credits } from '../credits.js';
import type { MessageAuthor, OperatorRef, Product, ReplyFormat, Session, StoredMessage, SurfacedForm } from '../domain.js';
import { SvcError } from '../errors.js';
import { fromBase64url, base64url } from '../cursor.js';
import { applyExpiry, touch } from '../session-machine.js';
import { contentSchema, type MessageFeedbackView } from '../schemas/message.js';
import { ratingSchema, sessionStatusSchema, type SessionView } from '../schemas/session.js';
import { parseInput } from '../schemas/validate.js';
import { recordExpiry, wakeDeliveries, writeLifecycleEvent, type HandoffChange } from '../engine/lifecycle.js';
import { appendMessageEvent } from '../engine/session-events.js';
import { completedPayload, delivery } from '../engine/turns/payloads.js';
import { feedbackView, replyView, sessionView } from '../engine/views.js';
import type { Delivery } from '../store/turn-job-store.js';
import type { SessionEvent } from '../store/session-event-store.js';
import { EVENT_ID_PATTERN } from '../store/session-event-store.js';
import type { StoreOps } from '../store/store.js';

export type { ConversationPorts } from '../context.js';
import type { ConversationPorts } from '../context.js';

export const conversationFiltersSchema = z.strictObject({
  widgetId: z.string().min(1).max(100).optional(),
  status: sessionStatusSchema.optional(),
  handoff: z.enum(['requested', 'active', 'none'], { error: 'handoff must be "requested", "active" or "none"' }).optional(),
  rating: ratingSchema.optional(),
  from: z.iso.datetime({ offset: true, error: 'from must be an ISO 8601 date-time' }).optional(),
  to: z.iso.datetime({ offset: true, error: 'to must be an ISO 8601 date-time' }).optional(),
  cursor: z.string().max(512).optional(),
  limit: z.coerce.number({ error: 'limit must be an integer from 1 to 100' }).int().min(1).max(100).optional(),
  /** Evaluation sessions (DESIGN.md section 12) are listed only when asked for. */
  purpose: z.enum(['visitor', 'evaluation'], { error: 'purpose must be "visitor" or "evaluation"' }).optional(),
});
export type ConversationFilters = z.input<typeof conversationFiltersSchema>;

/** The last message of a conversation, as the inbox previews it. */
export interface MessagePreview {
  role: StoredMessage['role'];
  /** At most 200 characters. */
  content: string;
  createdAt: string;
  author?: MessageAuthor;
}

export type ConversationSummary = SessionView & { lastMessage: MessagePreview | null };

/** A history item as an operator sees it: everything the visitor saw, and what each reply cost. */
export interface ConversationMessage {
  messageId: string;
  role: StoredMessage['role'];
  content: string;
  products: Product[];
  forms: SurfacedForm[];
  credits: Credits | null;
  author?: MessageAuthor;
  /** The visitor's thumbs on an AI reply (DESIGN.md section 12). */
  feedback?: MessageFeedbackView;
  createdAt: string;
}

export interface Conversation {
  session: SessionView;
  messages: ConversationMessage[];
}

const PREVIEW_CHARS = 200;
/** Reads of a whole conversation stop here: a history longer than this is paged by the public history endpoint. */
const MAX_CONVERSATION_MESSAGES = 1000;

/** Sessions of the account, newest first, with the filters of the console's inbox; `nextCursor` pages on. */
export async function listConversations(
  ports: ConversationPorts,
  accountId: string,
  filters: ConversationFilters = {},
): Promise<{ items: ConversationSummary[]; nextCursor: string | null }> {
  const input = parseInput(conversationFiltersSchema, filters);
  const limit = input.limit ?? 50;
  const sessions = await ports.store.listSessions({
    accountId,
    widgetId: input.widgetId,
    status: input.status,
    handoff: input.handoff,
    rating: input.rating,
    from: input.from === undefined ? undefined : new Date(input.from),
    to: input.to === undefined ? undefined : new Date(input.to),
    before: input.cursor === undefined ? undefined : decodeCursor(input.cursor),
    purpose: input.purpose,
    limit: limit + 1,
  });
  const page = sessions.slice(0, limit);
  const items = await Promise.all(
    page.map(async (session): Promise<ConversationSummary> => {
      const current = applyExpiry(session, ports.clock.now());
      const [last] = await ports.store.recentMessages({ widgetId: session.widgetId, sessionId: session.id, limit: 1 });
      return { ...sessionView(current), lastMessage: last ? preview(last) : null };
    }),
  );
  const lastOfPage = page.at(-1);
  const nextCursor = sessions.length > limit && lastOfPage ? encodeCursor(lastOfPage) : null;
  return { items, nextCursor };
}

/** The session and its whole history (up to 1000 messages), with products, forms, credits and authors. */
export async function getConversation(ports: ConversationPorts, accountId: string, widgetId: string, sessionId: string): Promise<Conversation> {
  const session = await currentSession(ports, ports.store, accountId, widgetId, sessionId);
  const messages = await ports.store.listMessages({ widgetId, sessionId, limit: MAX_CONVERSATION_MESSAGES });
  return { session: sessionView(session), messages: messages.map(conversationMessage) };
}

/**
 * The session a CLI user names by id alone: session ids are unique per widget only, so with several widgets of the
 * account holding the id the caller must say which (400 naming `widgetId`).
 */
export async function findConversation(ports: ConversationPorts, accountId: string, sessionId: string, widgetId?: string): Promise<{ widgetId: string; sessionId: string }> {
  if (widgetId !== undefined) {
    await currentSession(ports, ports.store, accountId, widgetId, sessionId);
    return { widgetId, sessionId };
  }
  const widgets = await ports.store.listWidgets(accountId);
  const found: string[] = [];
  for (const widget of widgets) if (await ports.store.getSession(widget.id, sessionId)) found.push(widget.id);
  if (found.length === 0) throw notFound(sessionId);
  if (found.length > 1) {
    throw new SvcError('validation_failed', `Session ${sessionId} exists on widgets ${found.join(', ')}; name the widget.`, { field: 'widgetId' });
  }
  return { widgetId: found[0]!, sessionId };
}

/**
 * An operator takes the conversation over: the handoff becomes `active` under their name (from requested, from none,
 * or from another operator), and `session.handoff` (state `active`) is written. Accepting again as the same operator
 * changes nothing. Only an active session can be taken over (409 `session_not_active`).
 */
export async function acceptHandoff(ports: ConversationPorts, accountId: string, widgetId: string, sessionId: string, operator: OperatorRef): Promise<SessionView> {
  const who = checkedOperator(operator);
  return changeSession(ports, accountId, widgetId, sessionId, async (tx, session) => {
    assertActive(session);
    const current = session.handoff;
    if (current?.state === 'active' && current.operator?.id === who.id && current.operator?.name === who.name) return { session, written: [] };
    return takeOver(ports, tx, session, who);
  });
}

/**
 * A person's reply: stored as an assistant message with `author: { type: "operator", name }`, told to the session's
 * event stream (`message.created`), and delivered as `message.completed` to the callback URL of the server key that
 * created the session, if it has one. A reply to a session not yet taken over takes it over first (the AI must not
 * answer beside a person). Answers the message as the history shows it.
 */
export async function replyAsOperator(
  ports: ConversationPorts,
  accountId: string,
  widgetId: string,
  sessionId: string,
  operator: OperatorRef,
  text: string,
): Promise<ConversationMessage> {
  const who = checkedOperator(operator);
  const content = parseInput(z.object({ text: contentSchema }), { text }).text;
  let stored: StoredMessage | undefined;
  await changeSession(ports, accountId, widgetId, sessionId, async (tx, locked) => {
    assertActive(locked);
    const written: Delivery[] = [];
    let session = locked;
    if (session.handoff?.state !== 'active') ({ session } = await takeOver(ports, tx, session, who, written));
    const now = ports.clock.now();
    const message: StoredMessage = {
      id: ports.ids.sortable('msg', now),
      widgetId,
      sessionId,
      seq: session.messageCount + 1,
      role: 'assistant',
      content,
      products: [],
      actions: [],
      forms: [],
      sessionEnded: false,
      credits: null,
      usage: null,
      createdAt: now,
      author: { type: 'operator', name: who.name },
    };
    await tx.insertMessage(message);
    const widget = await tx.getWidget(widgetId);
    const touched = touch({ ...session, messageCount: message.seq }, now, widget?.sessionTtlSeconds ?? 24 * 3600);
    const updated = await tx.updateSession(widgetId, sessionId, {
      messageCount: touched.messageCount,
      lastActivityAt: touched.lastActivityAt,
      expiresAt: touched.expiresAt,
    });
    await appendMessageEvent(ports, tx, accountId, message);
    const callback = await callbackDelivery(ports, tx, session, message);
    if (callback) {
      await tx.insertDelivery(callback);
      written.push(callback);
    }
    stored = message;
    return { session: updated ?? touched, written };
  });
  return conversationMessage(stored!);
}

/** Back to the AI: the handoff is cleared and `session.handoff` (state `released`) written. No handoff: no change. */
export async function releaseHandoff(ports: ConversationPorts, accountId: string, widgetId: string, sessionId: string): Promise<SessionView> {
  return changeSession(ports, accountId, widgetId, sessionId, async (tx, session) => {
    if (session.handoff === null) return { session, written: [] };
    const updated = (await tx.updateSession(widgetId, sessionId, { handoff: null })) ?? { ...session, handoff: null };
    return { session: updated, written: await writeLifecycleEvent(ports, tx, 'session.handoff', updated, { state: 'released' }) };
  });
}

/**
 * An operator resolves the conversation: `resolved` (any handoff ends with it) and `session.resolved` with reason
 * `operator`. A resolved session is answered as it is; an expired one cannot be resolved (409).
 */
export async function resolveConversation(ports: ConversationPorts, accountId: string, widgetId: string, sessionId: string): Promise<SessionView> {
  return changeSession(ports, accountId, widgetId, sessionId, async (tx, session) => {
    if (session.status === 'resolved') return { session, written: [] };
    assertActive(session);
    const now = ports.clock.now();
    const patch = { status: 'resolved' as const, resolvedAt: now, pendingFormId: null, handoff: null, resolvedByOperator: true };
    const updated = (await tx.updateSession(widgetId, sessionId, patch)) ?? { ...session, ...patch };
    return { session: updated, written: await writeLifecycleEvent(ports, tx, 'session.resolved', updated, { reason: 'operator' }) };
  });
}

/** The account's event feed after `afterId` (`/admin/v1/events`, README): every session's events, oldest first. */
export async function readAccountEvents(ports: Pick<ConversationPorts, 'store'>, accountId: string, afterId: string | null, limit = 100): Promise<SessionEvent[]> {
  if (afterId !== null && !EVENT_ID_PATTERN.test(afterId)) {
    throw new SvcError('validation_failed', 'Last-Event-ID must be the id of an event this feed sent.', { field: 'Last-Event-ID' });
  }
  return ports.store.listAccountEvents({ accountId, afterId, limit: Math.min(Math.max(1, limit), 1000) });
}

/** Where a feed without `Last-Event-ID` starts: after the account's newest event (no backlog). */
export async function lastAccountEventId(ports: Pick<ConversationPorts, 'store'>, accountId: string): Promise<string | null> {
  return ports.store.lastSessionEventId({ accountId });
}

type Change = (tx: StoreOps, session: Session) => Promise<{ session: Session; written: Delivery[] }>;

/** One short transaction on the locked session row (DESIGN.md section 3a), then the delivery worker is woken. */
async function changeSession(ports: ConversationPorts, accountId: string, widgetId: string, sessionId: string, change: Change): Promise<SessionView> {
  const outcome = await ports.store.transaction(async (tx) => {
    const session = await currentSession(ports, tx, accountId, widgetId, sessionId, true);
    return change(tx, session);
  });
  wakeDeliveries(ports, outcome.written);
  return sessionView(outcome.session);
}

async function takeOver(ports: ConversationPorts, tx: StoreOps, session: Session, operator: OperatorRef, written: Delivery[] = []): Promise<{ session: Session; written: Delivery[] }> {
  const handoff = { state: 'active' as const, since: ports.clock.now(), operator };
  const updated = (await tx.updateSession(session.widgetId, session.id, { handoff, handedOff: true })) ?? { ...session, handoff, handedOff: true };
  const state: HandoffChange = 'active';
  written.push(...(await writeLifecycleEvent(ports, tx, 'session.handoff', updated, { state })));
  return { session: updated, written };
}

/** The session if it is the account's (404 otherwise), expiry applied and recorded as every read does. */
async function currentSession(ports: ConversationPorts, store: StoreOps, accountId: string, widgetId: string, sessionId: string, lock = false): Promise<Session> {
  const stored = lock ? await store.lockSession(widgetId, sessionId) : await store.getSession(widgetId, sessionId);
  if (!stored || stored.accountId !== accountId) throw notFound(sessionId);
  const current = applyExpiry(stored, ports.clock.now());
  if (current.status !== stored.status) wakeDeliveries(ports, await recordExpiry(ports, store, stored));
  return current;
}

function assertActive(session: Session): void {
  if (session.status !== 'active') {
    throw new SvcError('session_not_active', `Session ${session.id} is ${session.status}; only an active conversation can be taken over or answered.`);
  }
}

function checkedOperator(operator: OperatorRef): OperatorRef {
  const name = operator.name.trim();
  if (name === '' || name.length > 100) throw new SvcError('validation_failed', 'The operator name must be 1-100 characters.', { field: 'name' });
  return { id: operator.id, name };
}

const notFound = (sessionId: string): SvcError => new SvcError('session_not_found', `Session ${sessionId} was not found in this account.`);

/** `message.completed` for the creating server key's callback URL, signed with its secret like any callback. */
async function callbackDelivery(ports: ConversationPorts, tx: StoreOps, session: Session, message: StoredMessage): Promise<Delivery | null> {
  if (session.creatorKeyKind !== 'secret' || session.creatorKeyId === null) return null;
  const key = await tx.getApiKey(session.creatorKeyId);
  if (!key || key.revokedAt !== null || !key.callbackUrl) return null;
  const format: ReplyFormat = key.replyFormat;
  const view = replyView(message, { format, formatReply: ports.formatReply ?? ((markdown) => markdown) });
  const body = completedPayload({ widgetId: session.widgetId, sessionId: session.id }, view) as { data: Record<string, unknown> };
  body.data['author'] = { type: 'operator', name: message.author!.name };
  const target = { accountId: session.accountId, keyId: key.id, widgetId: session.widgetId, sessionId: session.id };
  return delivery(ports, target, key.callbackUrl, 'message.completed', body, message.id);
}

function preview(message: StoredMessage): MessagePreview {
  const chars = [...message.content];
  const content = chars.length > PREVIEW_CHARS ? `${chars.slice(0, PREVIEW_CHARS - 1).join('')}…` : message.content;
  return { role: message.role, content, createdAt: message.createdAt.toISOString(), ...(message.author ? { author: { ...message.author } } : {}) };
}

function conversationMessage(message: StoredMessage): ConversationMessage {
  return {
    messageId: message.id,
    role: message.role,
    content: message.content,
    products: message.products,
    forms: message.forms,
    credits: message.credits,
    ...(message.author ? { author: { ...message.author } } : {}),
    ...(message.feedback ? { feedback: feedbackView(message.feedback) } : {}),
    createdAt: message.createdAt.toISOString(),
  };
}

// Operators see only their own account's sessions and the cursor is re-checked against it on every page, so an
// unsigned keyset position is enough here; garbage is 400 `invalid_cursor`.
const cursorSchema = z.object({ c: z.iso.datetime(), w: z.string().min(1), s: z.string().min(1) });

function encodeCursor(session: Session): string {
  const position = { c: session.createdAt.toISOString(), w: session.widgetId, s: session.id };
  return base64url(new TextEncoder().encode(JSON.stringify(position)));
}

function decodeCursor(cursor: string): { createdAt: Date; widgetId: string; sessionId: string } {
  try {
    const position = cursorSchema.parse(JSON.parse(new TextDecoder().decode(fromBase64url(cursor))));
    return { createdAt: new Date(position.c), widgetId: position.w, sessionId: position.s };
  } catch {
    throw new SvcError('invalid_cursor', 'cursor is not a cursor of this list; omit it to start from the first page.', { field: 'cursor' });
  }
}
