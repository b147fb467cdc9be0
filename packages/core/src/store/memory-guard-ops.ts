import type { GuardOps } from './guard-store.js';
import type { MemoryState } from './memory-state.js';
import { key } from './memory-tables.js';

/** Rate counters and the origin lookup over in-memory tables (one process is all a memory store spans). */
export function createMemoryGuardOps(state: MemoryState): GuardOps {
  return {
    async incrementRateCounter(client, windowStart) {
      const id = key(client, windowStart.getTime());
      const count = (state.rateCounters.get(id)?.count ?? 0) + 1;
      state.rateCounters.set(id, { windowStart: windowStart.getTime(), count });
      return count;
    },
    async deleteRateCountersBefore(before) {
      let deleted = 0;
      for (const [id, counter] of [...state.rateCounters.entries()]) {
        if (counter.windowStart < before.getTime() && state.rateCounters.delete(id)) deleted++;
      }
      return deleted;
    },
    async publicKeyAllowsOrigin(origin, widgetId) {
      for (const apiKey of state.apiKeys.values()) {
        if (apiKey.kind !== 'public' || apiKey.revokedAt !== null) continue;
        if (widgetId !== undefined && apiKey.widgetId !== widgetId) continue;
        if (apiKey.allowedOrigins.includes(origin)) return true;
      }
      return false;
    },
  };
}
