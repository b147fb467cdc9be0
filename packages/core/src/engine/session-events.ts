import type { Principal, StoredMessage } from '../domain.js';
import { SvcError } from '../errors.js';
import { SESSION_EVENT } from '../event-stream.js';
import type { StoreOps } from '../store/store.js';
import { EVENT_ID_PATTERN, type SessionEvent } from '../store/session-event-store.js';
import { loadSession, loadWidget, requireScope } from './access.js';
import type { EngineContext } from '../context.js';
import { historyItemView } from './views.js';

/**
 * The session event stream (DESIGN.md section 6): what `GET …/conversations/{sessionId}/events`
 * sends, read from the durable event log so a client resuming with `Last-Event-ID` misses nothing and sees nothing
 * twice. The HTTP adapter only frames the events and waits for more.
 */

/** One event as the stream sends it: `id:`, `event:` and the JSON `data:` line. */
export interface StreamedSessionEvent {
  id: string;
  event: SessionEvent['type'];
  data: Record<string, unknown>;
}

/** An opened stream: where it starts and how to read what follows a position. */
export interface SessionEventFeed {
  widgetId: string;
  sessionId: string;
  accountId: string;
  /** The position the stream starts after: `Last-Event-ID`, or the newest event when it is absent (no backlog). */
  after: string | null;
  /** Events after `after` for this caller, oldest first, and the position to read from next (past filtered ones too). */
  read(after: string | null, limit: number): Promise<{ events: StreamedSessionEvent[]; next: string | null }>;
}

/** Appends `message.created` for a message, in the transaction that stores it (its session's row locked). */
export async function appendMessageEvent(ctx: Pick<EngineContext, 'clock'>, tx: StoreOps, accountId: string, message: StoredMessage): Promise<void> {
  await tx.appendSessionEvent({
    accountId,
    widgetId: message.widgetId,
    sessionId: message.sessionId,
    type: SESSION_EVENT.messageCreated,
    // Stored as Markdown: each reader sees it in its own reply format.
    data: historyItemView(message, { format: 'markdown', formatReply: (markdown) => markdown }),
    createdAt: ctx.clock.now(),
  });
}

/** `Last-Event-ID` as the stream takes it: an id this server issued, else 400 naming the header. */
export function parseLastEventId(value: string | undefined): string | null {
  if (value === undefined || value.trim() === '') return null;
  const id = value.trim();
  if (!EVENT_ID_PATTERN.test(id)) {
    throw new SvcError('validation_failed', 'Last-Event-ID must be the id of an event this stream sent.', { field: 'Last-Event-ID' });
  }
  return id;
}

/**
 * Opens the stream of a session for a caller with the same access as get-session (scope, widget, visibility,
 * identity binding). Free: what it costs is the connection, which the adapter caps. `message.created` is sent for
 * operator replies only: the caller sent the visitor's messages and got the AI's replies as the answers to its turns.
 */
export async function openSessionEvents(
  ctx: EngineContext,
  principal: Principal,
  widgetId: string,
  sessionId: string,
  lastEventId: string | undefined,
): Promise<SessionEventFeed> {
  requireScope(principal, 'conversations:chat');
  const resumeAfter = parseLastEventId(lastEventId);
  const widget = await loadWidget(ctx, principal, widgetId);
  const session = await loadSession(ctx, widget, sessionId, principal);
  const target = { widgetId: widget.id, sessionId: session.id };
  const after = resumeAfter ?? (await ctx.store.lastSessionEventId({ accountId: session.accountId, session: target }));
  return {
    ...target,
    accountId: session.accountId,
    after,
    async read(position, limit) {
      const rows = await ctx.store.listSessionEvents({ ...target, afterId: position, limit });
      const events: StreamedSessionEvent[] = [];
      for (const row of rows) {
        if (row.type === SESSION_EVENT.messageCreated && row.data['author'] === undefined) continue;
        events.push({ id: row.id, event: row.type, data: formatted(ctx, principal, row) });
      }
      return { events, next: rows.at(-1)?.id ?? position };
    },
  };
}

function formatted(ctx: EngineContext, principal: Principal, event: SessionEvent): Record<string, unknown> {
  if (event.type !== SESSION_EVENT.messageCreated || event.data['role'] !== 'assistant' || typeof event.data['content'] !== 'string') return event.data;
  return { ...event.data, content: ctx.formatReply(event.data['content'], principal.replyFormat) };
}
