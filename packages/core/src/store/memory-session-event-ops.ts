import type { Session } from '../domain.js';
import type { StoreSignal } from './turn-job-store.js';
import type { MemoryState } from './memory-state.js';
import { compareIds, copy } from './memory-tables.js';
import { compareEventIds, type SessionEvent, type SessionEventOps, type SessionListQuery } from './session-event-store.js';

/**
 * The session event log and the operators' session list over in-memory tables. Transactions run one at a time
 * here, so every event is visible in id order the moment its transaction commits.
 */
export function createMemorySessionEventOps(state: MemoryState, publish: (event: StoreSignal) => void): SessionEventOps {
  const ordered = (events: Iterable<SessionEvent>, afterId: string | null, limit: number): SessionEvent[] =>
    [...events]
      .filter((event) => afterId === null || compareEventIds(event.id, afterId) > 0)
      .sort((a, b) => compareEventIds(a.id, b.id))
      .slice(0, Math.max(0, limit))
      .map(copy);
  return {
    async appendSessionEvent(event) {
      const id = String(++state.sessionEventSeq.last);
      state.sessionEvents.set(id, copy({ ...event, id }));
      publish({ type: 'session-event', accountId: event.accountId, widgetId: event.widgetId, sessionId: event.sessionId });
      return id;
    },
    async listSessionEvents({ widgetId, sessionId, afterId, limit }) {
      const mine = [...state.sessionEvents.values()].filter((event) => event.widgetId === widgetId && event.sessionId === sessionId);
      return ordered(mine, afterId, limit);
    },
    async listAccountEvents({ accountId, afterId, limit }) {
      return ordered([...state.sessionEvents.values()].filter((event) => event.accountId === accountId), afterId, limit);
    },
    async lastSessionEventId({ accountId, session }) {
      let last: string | null = null;
      for (const event of state.sessionEvents.values()) {
        if (event.accountId !== accountId) continue;
        if (session && (event.widgetId !== session.widgetId || event.sessionId !== session.sessionId)) continue;
        if (last === null || compareEventIds(event.id, last) > 0) last = event.id;
      }
      return last;
    },
    async deleteSessionEventsBefore(before, limit) {
      const old = [...state.sessionEvents.values()]
        .filter((event) => event.createdAt.getTime() < before.getTime())
        .sort((a, b) => compareEventIds(a.id, b.id))
        .slice(0, Math.max(0, limit));
      for (const event of old) state.sessionEvents.delete(event.id);
      return old.length;
    },
    async listSessions(query) {
      return [...state.sessions.values()]
        .filter((session) => matches(session, query))
        .sort(newestFirst)
        .slice(0, Math.max(0, query.limit))
        .map(copy);
    },
  };
}

function newestFirst(a: Session, b: Session): number {
  return b.createdAt.getTime() - a.createdAt.getTime() || compareIds(b.widgetId, a.widgetId) || compareIds(b.id, a.id);
}

function matches(session: Session, query: SessionListQuery): boolean {
  if (session.accountId !== query.accountId) return false;
  if (query.widgetId !== undefined && session.widgetId !== query.widgetId) return false;
  if ((session.purpose ?? 'visitor') !== (query.purpose ?? 'visitor')) return false;
  if (query.status !== undefined && session.status !== query.status) return false;
  if (query.rating !== undefined && session.rating !== query.rating) return false;
  if (query.handoff !== undefined && (session.handoff?.state ?? 'none') !== query.handoff) return false;
  if (query.from !== undefined && session.createdAt.getTime() < query.from.getTime()) return false;
  if (query.to !== undefined && session.createdAt.getTime() >= query.to.getTime()) return false;
  if (query.before) {
    const { createdAt, widgetId, sessionId } = query.before;
    const position = { createdAt, widgetId, id: sessionId } as Session;
    if (newestFirst(position, session) >= 0) return false;
  }
  return true;
}
