import type { EvalOps, EvalRun, StoredEvalSuite } from './eval-store.js';
import type { MemoryState } from './memory-state.js';
import { compareIds, key } from './memory-tables.js';

const copy = <T>(value: T): T => structuredClone(value);

export function createMemoryEvalOps(state: MemoryState): EvalOps {
  return {
    async putEvalSuite(suite) {
      const id = key(suite.widgetId, suite.name);
      const existing = state.evalSuites.get(id);
      state.evalSuites.set(id, copy({ ...suite, createdAt: existing?.createdAt ?? suite.createdAt }));
    },
    async getEvalSuite(widgetId, name) {
      const found = state.evalSuites.get(key(widgetId, name));
      return found ? copy(found) : null;
    },
    async listEvalSuites(widgetId) {
      return [...state.evalSuites.values()]
        .filter((suite: StoredEvalSuite) => suite.widgetId === widgetId)
        .sort((a, b) => compareIds(a.name, b.name))
        .map(copy);
    },
    async saveEvalRun(run) {
      state.evalRuns.set(run.id, copy(run));
    },
    async getEvalRun(id) {
      const found = state.evalRuns.get(id);
      return found ? copy(found) : null;
    },
    async listEvalRuns(query) {
      return [...state.evalRuns.values()]
        .filter(
          (run: EvalRun) =>
            run.widgetId === query.widgetId &&
            (query.suiteName === undefined || run.suiteName === query.suiteName) &&
            (!query.finished || run.status === 'passed' || run.status === 'failed') &&
            (query.beforeId === undefined || compareIds(run.id, query.beforeId) < 0),
        )
        .sort((a, b) => compareIds(b.id, a.id))
        .slice(0, Math.max(0, query.limit))
        .map(copy);
    },
  };
}
