import { expect, it } from 'vitest';
import type { EvalRun, StoredEvalSuite } from '../../store/eval-store.js';
import type { Store } from '../../store/store.js';
import { makeSession } from '../fixtures.js';

const at = (minute: number): Date => new Date(Date.UTC(2026, 2, 2, 10, minute));

function suite(overrides: Partial<StoredEvalSuite>): StoredEvalSuite {
  return {
    accountId: 'acct_ev',
    widgetId: 'wgt_ev',
    name: 'shop',
    cases: [{ name: 'tents', question: 'Which tents?', expect: { answered: true, cites: ['Tents'] } }],
    createdAt: at(0),
    updatedAt: at(0),
    ...overrides,
  };
}

function run(overrides: Partial<EvalRun>): EvalRun {
  return {
    id: 'evr_01',
    accountId: 'acct_ev',
    widgetId: 'wgt_ev',
    suiteName: 'shop',
    status: 'queued',
    cases: [],
    regressions: [],
    previousRunId: null,
    error: null,
    createdAt: at(1),
    finishedAt: null,
    ...overrides,
  };
}

/** Eval suites and runs (DESIGN.md section 12), and the evaluation mark on sessions. */
export function evalsContract(store: () => Store): void {
  it('stores suites per widget by name, replacing a suite but keeping when it was created', async () => {
    const s = store();
    await s.putEvalSuite(suite({}));
    await s.putEvalSuite(suite({ name: 'faq' }));
    await s.putEvalSuite(suite({ widgetId: 'wgt_other' }));
    const replaced = suite({ cases: [{ name: 'weather', turns: ['Hi', 'Rain?'], expect: { answered: false } }], createdAt: at(5), updatedAt: at(5) });
    await s.putEvalSuite(replaced);
    expect(await s.getEvalSuite('wgt_ev', 'shop')).toEqual({ ...replaced, createdAt: at(0) });
    expect((await s.listEvalSuites('wgt_ev')).map((x) => x.name)).toEqual(['faq', 'shop']);
    expect(await s.getEvalSuite('wgt_ev', 'nope')).toBeNull();
  });

  it('saves runs as they progress and lists them newest first, by suite, finished only, in pages', async () => {
    const s = store();
    const result = { name: 'tents', passed: true, failures: [], reply: 'We sell tents.', sources: [{ documentId: 'doc_1', title: 'Tents', url: null }], sessionId: 'sess_1', durationMs: 12 };
    await s.saveEvalRun(run({ id: 'evr_01', status: 'passed', cases: [result], finishedAt: at(2) }));
    await s.saveEvalRun(run({ id: 'evr_02', suiteName: 'faq' }));
    await s.saveEvalRun(run({ id: 'evr_03' }));
    await s.saveEvalRun(run({ id: 'evr_04', widgetId: 'wgt_other' }));
    const finished = run({ id: 'evr_03', status: 'failed', cases: [{ ...result, passed: false, failures: ['answered: expected true, got false'] }], regressions: ['tents'], previousRunId: 'evr_01', finishedAt: at(3) });
    await s.saveEvalRun(finished);
    expect(await s.getEvalRun('evr_03')).toEqual(finished);
    expect(await s.getEvalRun('evr_nope')).toBeNull();
    const ids = async (query: Parameters<Store['listEvalRuns']>[0]) => (await s.listEvalRuns(query)).map((r) => r.id);
    expect(await ids({ widgetId: 'wgt_ev', limit: 10 })).toEqual(['evr_03', 'evr_02', 'evr_01']);
    expect(await ids({ widgetId: 'wgt_ev', limit: 1, beforeId: 'evr_03' })).toEqual(['evr_02']);
    expect(await ids({ widgetId: 'wgt_ev', suiteName: 'shop', finished: true, beforeId: 'evr_03', limit: 1 })).toEqual(['evr_01']);
    expect(await ids({ widgetId: 'wgt_ev', suiteName: 'faq', finished: true, limit: 5 })).toEqual([]);
  });

  it('keeps a session\'s evaluation mark, and lists evaluation sessions only when asked', async () => {
    const s = store();
    await s.insertSession(makeSession({ accountId: 'acct_ev', widgetId: 'wgt_ev', id: 'sess_visitor', createdAt: at(1) }));
    await s.insertSession(makeSession({ accountId: 'acct_ev', widgetId: 'wgt_ev', id: 'sess_eval', createdAt: at(2), purpose: 'evaluation' }));
    expect((await s.getSession('wgt_ev', 'sess_eval'))?.purpose).toBe('evaluation');
    expect((await s.getSession('wgt_ev', 'sess_visitor'))?.purpose ?? 'visitor').toBe('visitor');
    expect((await s.listSessions({ accountId: 'acct_ev', limit: 10 })).map((x) => x.id)).toEqual(['sess_visitor']);
    expect((await s.listSessions({ accountId: 'acct_ev', purpose: 'evaluation', limit: 10 })).map((x) => x.id)).toEqual(['sess_eval']);
  });
}
