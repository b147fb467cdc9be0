import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadDataset, type Dataset } from './dataset.js';
import { documentTitle, MAX_TITLE_CHARS, runEvaluation, type EvaluationReport, type SearchFigures } from './evaluate.js';

/**
 * What must hold of the evaluation whatever the search and the agent do: every query classified once, shares that
 * add up, figures within bounds, a stable JSON shape. The figures themselves are what `pnpm eval:retrieval` is for.
 */

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

let dataset: Dataset;
let memory: EvaluationReport;
let pglite: EvaluationReport;

beforeAll(async () => {
  dataset = await loadDataset();
  memory = await runEvaluation({ dataset, store: 'memory', details: true });
  // Most of PGlite's time is its start (creating and migrating the database), not the queries: the whole dataset costs
  // a few seconds more than a part of it would.
  pglite = await runEvaluation({ dataset, store: 'pglite', details: true });
}, 180_000);

function expectShare(value: number): void {
  expect(value).toBeGreaterThanOrEqual(0);
  expect(value).toBeLessThanOrEqual(1);
}

function expectSearchFigures(figures: SearchFigures, answerable: number): void {
  for (const rate of [figures.top1, figures.top3]) {
    expect(Number.isInteger(rate.count)).toBe(true);
    expect(rate.share).toBeCloseTo(rate.count / answerable, 12);
    expectShare(rate.share);
  }
  expect(figures.top3.count).toBeGreaterThanOrEqual(figures.top1.count);
}

function expectConsistent(report: EvaluationReport, queries: Dataset['queries']): void {
  const outcomes = report.outcomes!;
  // Every query classified exactly once, in file order.
  expect(outcomes.map((outcome) => outcome.query)).toEqual(queries.map((query) => query.query));
  expect(outcomes.map((outcome) => outcome.expected)).toEqual(queries.map((query) => query.entryId));
  const answerable = queries.filter((query) => query.entryId !== null).length;
  expect(report.queries).toEqual({ total: queries.length, answerable, unanswerable: queries.length - answerable });

  const { answerable: asked, unanswerable: notInFaq } = report.replies;
  expect(asked.right.count + asked.wrong.count + asked.unanswered.count).toBe(answerable);
  expect(asked.right.share + asked.wrong.share + asked.unanswered.share).toBeCloseTo(1, 12);
  expect(notInFaq.unanswered.count + notInFaq.wrong.count).toBe(queries.length - answerable);
  expect(notInFaq.unanswered.share + notInFaq.wrong.share).toBeCloseTo(1, 12);
  // A query the FAQ does not answer can only be left unanswered (right) or answered from some entry (wrong).
  expect(outcomes.filter((outcome) => outcome.expected === null).every((outcome) => outcome.verdict !== 'right')).toBe(true);
  for (const outcome of outcomes) {
    expect(outcome.verdict).toBe(outcome.cited === null ? 'unanswered' : outcome.cited === outcome.expected ? 'right' : 'wrong');
    if (outcome.expected === null) expect([outcome.serviceRank, outcome.bm25Rank]).toEqual([null, null]);
  }

  expectSearchFigures(report.search.service, answerable);
  expectSearchFigures(report.search.bm25, answerable);
  expect(report.search.service.top1.count).toBe(outcomes.filter((outcome) => outcome.serviceRank === 1).length);
  expect(report.search.top1Ratio).toBeCloseTo(report.search.service.top1.share / report.search.bm25.top1.share, 12);
}

describe('runEvaluation on the memory store (whole dataset)', () => {
  it('classifies every query exactly once, with shares that sum to 1 and figures within bounds', () => {
    expect(memory).toMatchObject({ dataset: 'covid-qa-cdc', store: 'memory', entries: dataset.faq.length });
    expectConsistent(memory, dataset.queries);
  });

  it('meets the answer-quality targets of issue 23 at the default threshold: wrong at most 20 %, right at least 40 %, search 1.10 × BM25', () => {
    expect(memory.replies.wrongOverall.share).toBeLessThanOrEqual(0.2);
    expect(memory.replies.answerable.right.share).toBeGreaterThanOrEqual(0.4);
    expect(memory.search.top1Ratio).toBeGreaterThanOrEqual(1.1);
  });

  it('finds plain BM25 on question and answer strong on this FAQ: top-1 at least 0.3', () => {
    expect(memory.search.bm25.top1.share).toBeGreaterThanOrEqual(0.3);
  });

  it('gives the same outcome for every query on a second run', async () => {
    const again = await runEvaluation({ dataset, store: 'memory', limit: 40, details: true });
    expect(again.outcomes).toEqual(memory.outcomes!.slice(0, 40));
  }, 60_000);
});

describe('runEvaluation on PGlite (whole dataset)', () => {
  it('classifies every query exactly once, with shares that sum to 1 and figures within bounds', () => {
    expect(pglite).toMatchObject({ dataset: 'covid-qa-cdc', store: 'pglite', entries: dataset.faq.length });
    expectConsistent(pglite, dataset.queries);
  });

  it('ranks with BM25 exactly as on the memory store: the baseline does not depend on the store', () => {
    expect(pglite.outcomes!.map((outcome) => outcome.bm25Rank)).toEqual(memory.outcomes!.map((outcome) => outcome.bm25Rank));
    expect(pglite.search.bm25).toEqual(memory.search.bm25);
  });
});

describe('documentTitle', () => {
  it('keeps a question that fits and shortens a longer one to its whole sentences that fit', () => {
    expect(documentTitle('How long does it take?')).toBe('How long does it take?');
    const long = `What should be worn by staff moving patients within a facility? ${'For example, '.repeat(30)}what then?`;
    expect(documentTitle(long)).toBe('What should be worn by staff moving patients within a facility?');
    const endless = 'word '.repeat(100);
    expect(documentTitle(endless).length).toBeLessThanOrEqual(MAX_TITLE_CHARS);
    expect(documentTitle(endless)).toMatch(/^word( word)*…$/);
  });
});

describe('pnpm eval:retrieval', () => {
  const run = (args: string[]) =>
    promisify(execFile)(join(ROOT, 'node_modules', '.bin', 'tsx'), ['--conditions=@svc/source', 'eval/retrieval.ts', ...args], { cwd: ROOT });

  it('prints the report as JSON with --json', async () => {
    const { stdout } = await run(['--store', 'memory', '--limit', '30', '--json']);
    const report = JSON.parse(stdout) as EvaluationReport;
    const rate = { count: expect.any(Number), share: expect.any(Number) };
    expect(report).toEqual({
      dataset: 'covid-qa-cdc',
      store: 'memory',
      entries: 98,
      shortenedTitles: 1,
      queries: { total: 30, answerable: expect.any(Number), unanswerable: expect.any(Number) },
      search: { service: { top1: rate, top3: rate }, bm25: { top1: rate, top3: rate }, top1Ratio: expect.any(Number) },
      replies: {
        threshold: 0.43,
        answerable: { total: expect.any(Number), right: rate, wrong: rate, unanswered: rate },
        unanswerable: { total: expect.any(Number), unanswered: rate, wrong: rate },
        wrongOverall: rate,
        sourcesMatchText: rate,
      },
      curve: expect.arrayContaining([
        { threshold: 0.43, right: expect.any(Number), wrong: expect.any(Number), unanswered: expect.any(Number), unanswerableWrong: expect.any(Number), wrongOverall: expect.any(Number) },
      ]),
      timing: { setupMs: expect.any(Number), searchMs: expect.any(Number), repliesMs: expect.any(Number), totalMs: expect.any(Number) },
    });
    // The first 30 queries, evaluated alone, are classified as in the whole run.
    expect(report.replies.answerable.right.count).toBe(memory.outcomes!.slice(0, 30).filter((outcome) => outcome.verdict === 'right').length);
  }, 60_000);

  it('refuses an unknown store with the usage', async () => {
    await expect(run(['--store', 'sqlite'])).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('--store must be one of pglite, memory') });
  }, 60_000);
});
