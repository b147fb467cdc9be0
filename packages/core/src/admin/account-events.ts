import { parseLastEventId, type StreamedSessionEvent } from '../engine/session-events.js';
import type { Store } from '../store/store.js';
import { lastAccountEventId, readAccountEvents } from './conversations.js';

/**
 * The account's event feed (`GET /admin/v1/events`, README): every session's events as the session stream sends
 * them, for the console's live inbox. Unlike a session's own stream it carries every message (the visitor's too),
 * and each event's data names its widget and session.
 */
export interface AccountEventFeed {
  accountId: string;
  /** `Last-Event-ID`, or the account's newest event when absent (no backlog). */
  after: string | null;
  read(after: string | null, limit: number): Promise<{ events: StreamedSessionEvent[]; next: string | null }>;
}

export async function openAccountEvents(ports: { store: Store }, accountId: string, lastEventId: string | undefined): Promise<AccountEventFeed> {
  const resumeAfter = parseLastEventId(lastEventId);
  return {
    accountId,
    after: resumeAfter ?? (await lastAccountEventId(ports, accountId)),
    async read(position, limit) {
      const rows = await readAccountEvents(ports, accountId, position, limit);
      const events = rows.map((row) => ({ id: row.id, event: row.type, data: { ...row.data, widgetId: row.widgetId, sessionId: row.sessionId } }));
      return { events, next: rows.at(-1)?.id ?? position };
    },
  };
}
