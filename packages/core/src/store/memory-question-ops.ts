import type { QuestionGroup } from '../domain.js';
import type { MemoryState } from './memory-state.js';
import { compareIds, copy, copyOrNull, duplicate } from './memory-tables.js';
import type { QuestionOps } from './question-store.js';

/** Most recently asked first, then id descending: the order of the questions page. */
const byLastAsked = (a: QuestionGroup, b: QuestionGroup): number => b.lastAskedAt.getTime() - a.lastAskedAt.getTime() || compareIds(b.id, a.id);

/** Question groups over an in-memory table (each body synchronous, hence atomic). */
export function createMemoryQuestionOps(state: MemoryState): QuestionOps {
  return {
    async insertQuestionGroup(group) {
      if (state.questionGroups.has(group.id)) throw duplicate('question group', group.id);
      state.questionGroups.set(group.id, copy(group));
    },
    async getQuestionGroup(id) {
      return copyOrNull(state.questionGroups.get(id));
    },
    async openQuestionGroups({ widgetId, kind, limit }) {
      return [...state.questionGroups.values()]
        .filter((group) => group.widgetId === widgetId && group.kind === kind && group.status === 'open')
        .sort(byLastAsked)
        .slice(0, Math.max(0, limit))
        .map(copy);
    },
    async addQuestionToGroup(id, { at, day, sessionId, maxSessions }) {
      const group = state.questionGroups.get(id);
      if (!group) return null;
      const sessions = group.sessions.includes(sessionId) ? group.sessions : [...group.sessions, sessionId].slice(-maxSessions);
      const updated: QuestionGroup = {
        ...group,
        count: group.count + 1,
        lastAskedAt: at.getTime() > group.lastAskedAt.getTime() ? new Date(at) : group.lastAskedAt,
        sessions,
        daily: { ...group.daily, [day]: (group.daily[day] ?? 0) + 1 },
      };
      state.questionGroups.set(id, updated);
      return copy(updated);
    },
    async closeQuestionGroup(id, { status, at, documentId }) {
      const group = state.questionGroups.get(id);
      if (!group || group.status !== 'open') return null;
      const updated: QuestionGroup = { ...group, status, closedAt: new Date(at), documentId };
      state.questionGroups.set(id, updated);
      return copy(updated);
    },
    async listQuestionGroups({ accountId, widgetId, status, before, limit }) {
      return [...state.questionGroups.values()]
        .filter((group) => group.accountId === accountId && group.status === status && (widgetId === undefined || group.widgetId === widgetId))
        .filter((group) => !before || byLastAsked(group, { ...group, lastAskedAt: before.lastAskedAt, id: before.id }) > 0)
        .sort(byLastAsked)
        .slice(0, Math.max(0, limit))
        .map(copy);
    },
  };
}
