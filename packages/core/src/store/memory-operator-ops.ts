import type { MemoryState } from './memory-state.js';
import { byCreation, copy, copyOrNull, duplicate, key } from './memory-tables.js';
import type { OperatorOps } from './operator-store.js';

/** Operators, console sessions and sign-in failure counters over in-memory tables (each body synchronous, hence atomic). */
export function createMemoryOperatorOps(state: MemoryState): OperatorOps {
  const sessionByHash = (tokenHash: string) => [...state.consoleSessions.values()].find((session) => session.tokenHash === tokenHash);
  return {
    async insertOperator(operator) {
      if (state.operators.has(operator.id)) throw duplicate('operator', operator.id);
      if ([...state.operators.values()].some((existing) => existing.email === operator.email)) return false;
      state.operators.set(operator.id, copy(operator));
      return true;
    },
    async getOperator(id) {
      return copyOrNull(state.operators.get(id));
    },
    async findOperatorByEmail(email) {
      return copyOrNull([...state.operators.values()].find((operator) => operator.email === email));
    },
    async listOperators(accountId) {
      return [...state.operators.values()].filter((operator) => operator.accountId === accountId).sort(byCreation).map(copy);
    },
    async setOperatorPassword(id, passwordHash, changedAt) {
      const operator = state.operators.get(id);
      if (!operator) return false;
      state.operators.set(id, { ...operator, passwordHash, passwordChangedAt: new Date(changedAt) });
      return true;
    },

    async insertConsoleSession(session) {
      if (state.consoleSessions.has(session.id)) throw duplicate('console session', session.id);
      if (sessionByHash(session.tokenHash)) throw duplicate('console session token', session.id);
      state.consoleSessions.set(session.id, copy(session));
    },
    async findConsoleSession(tokenHash) {
      return copyOrNull(sessionByHash(tokenHash));
    },
    async touchConsoleSession(id, lastSeenAt, expiresAt) {
      const session = state.consoleSessions.get(id);
      if (!session) return false;
      state.consoleSessions.set(id, { ...session, lastSeenAt: new Date(lastSeenAt), expiresAt: new Date(expiresAt) });
      return true;
    },
    async deleteConsoleSession(id) {
      return state.consoleSessions.delete(id);
    },
    async deleteOperatorSessions(operatorId, keepId) {
      let deleted = 0;
      for (const [id, session] of [...state.consoleSessions.entries()]) {
        if (session.operatorId === operatorId && id !== keepId && state.consoleSessions.delete(id)) deleted++;
      }
      return deleted;
    },
    async deleteExpiredConsoleSessions(now) {
      let deleted = 0;
      for (const [id, session] of [...state.consoleSessions.entries()]) {
        if (session.expiresAt.getTime() <= now.getTime() && state.consoleSessions.delete(id)) deleted++;
      }
      return deleted;
    },

    async recordLoginFailure(client, windowStart) {
      const id = key(client, windowStart.getTime());
      const count = (state.loginFailures.get(id)?.count ?? 0) + 1;
      state.loginFailures.set(id, { windowStart: windowStart.getTime(), count });
      return count;
    },
    async countLoginFailures(client, windowStart) {
      return state.loginFailures.get(key(client, windowStart.getTime()))?.count ?? 0;
    },
    async deleteLoginFailuresBefore(before) {
      let deleted = 0;
      for (const [id, counter] of [...state.loginFailures.entries()]) {
        if (counter.windowStart < before.getTime() && state.loginFailures.delete(id)) deleted++;
      }
      return deleted;
    },
  };
}
