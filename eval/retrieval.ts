/**
 * Answer quality on a public FAQ dataset (`pnpm eval:retrieval`): the service's search top-1 / top-3 beside a plain
 * BM25 computed in the same run, and the local agent's replies as right, wrong or unanswered.
 *
 *   pnpm eval:retrieval [--dataset DIR] [--store pglite|memory] [--limit N] [--json] [--details]
 *
 * The dataset and what the figures mean: README.md ("Measuring answer quality") and
 * eval/datasets/covid-qa-cdc/SOURCE.md.
 */
import { parseArgs } from 'node:util';
import { DEFAULT_DATASET_DIR, loadDataset } from './dataset.js';
import { runEvaluation, STORE_KINDS, type EvaluationReport, type Rate, type StoreKind } from './evaluate.js';

const USAGE = `Usage: pnpm eval:retrieval [--dataset DIR] [--store pglite|memory] [--limit N] [--json] [--details]

  --dataset DIR   a folder with faq.json and queries.json (default eval/datasets/covid-qa-cdc)
  --store KIND    pglite (default: embedded PostgreSQL in a temporary directory) or memory
  --limit N       only the first N queries
  --json          the report as JSON instead of a table
  --details       also every query's outcome (JSON), or the replies that were not right (table)
  --threshold T   the widget's confidence threshold, 0-1 (default: the service's default)`;

interface CliOptions {
  dataset: string;
  store: StoreKind;
  limit: number | undefined;
  json: boolean;
  details: boolean;
  threshold: number | undefined;
}

function parseOptions(argv: string[]): CliOptions | null {
  const { values } = parseArgs({
    args: argv,
    options: {
      dataset: { type: 'string', default: DEFAULT_DATASET_DIR },
      store: { type: 'string', default: 'pglite' },
      limit: { type: 'string' },
      json: { type: 'boolean', default: false },
      details: { type: 'boolean', default: false },
      threshold: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) return null;
  if (!(STORE_KINDS as readonly string[]).includes(values.store)) throw new Error(`--store must be one of ${STORE_KINDS.join(', ')}, not ${values.store}.`);
  const limit = values.limit === undefined ? undefined : Number(values.limit);
  if (limit !== undefined && !(Number.isInteger(limit) && limit > 0)) throw new Error(`--limit must be a whole number above 0, not ${values.limit}.`);
  const threshold = values.threshold === undefined ? undefined : Number(values.threshold);
  if (threshold !== undefined && !(Number.isFinite(threshold) && threshold >= 0 && threshold <= 1)) throw new Error(`--threshold must be a number from 0 to 1, not ${values.threshold}.`);
  return { dataset: values.dataset, store: values.store as StoreKind, limit, json: values.json, details: values.details, threshold };
}

const percent = (share: number): string => `${(share * 100).toFixed(1)} %`;
const cell = (rate: Rate): string => `${String(rate.count).padStart(4)}  ${percent(rate.share).padStart(7)}`;
const row = (label: string, cells: string[]): string => `  ${label.padEnd(28)}${cells.map((text) => text.padEnd(18)).join('')}`.trimEnd();

/** The report as a compact table. */
export function formatTable(report: EvaluationReport): string {
  const { search, replies, queries } = report;
  const ratio = search.top1Ratio === null ? 'n/a' : `${search.top1Ratio.toFixed(2)} ×`;
  const shortened = report.shortenedTitles > 0 ? `, ${report.shortenedTitles} title(s) shortened to fit` : '';
  const lines = [
    `Answer quality: ${report.dataset}, store ${report.store}, ${(report.timing.totalMs / 1000).toFixed(1)} s`,
    `  ${report.entries} FAQ entries${shortened}; ${queries.total} queries: ${queries.answerable} answerable, ${queries.unanswerable} not in the FAQ`,
    '',
    row(`Search (${queries.answerable} answerable)`, ['top-1', 'top-3']),
    row('service', [cell(search.service.top1), cell(search.service.top3)]),
    row('plain BM25', [cell(search.bm25.top1), cell(search.bm25.top3)]),
    row('service / BM25 (top-1)', [ratio]),
    '',
    row(`Replies (threshold ${replies.threshold})`, ['right', 'wrong', 'unanswered']),
    row(`answerable (${replies.answerable.total})`, [cell(replies.answerable.right), cell(replies.answerable.wrong), cell(replies.answerable.unanswered)]),
    row(`not in the FAQ (${replies.unanswerable.total})`, ['', cell(replies.unanswerable.wrong), `${cell(replies.unanswerable.unanswered)}  (right)`]),
    row(`all queries (${queries.total})`, ['', cell(replies.wrongOverall)]),
    row('sources match the text', [cell(replies.sourcesMatchText)]),
    '',
    '  Wrong vs unanswered by threshold (answerable: right / wrong / unanswered; not in the FAQ: wrong; all: wrong)',
    ...report.curve.map(
      (point) =>
        `  ${point.threshold.toFixed(2)}   ${percent(point.right).padStart(7)} ${percent(point.wrong).padStart(7)} ${percent(point.unanswered).padStart(7)}` +
        `   ${percent(point.unanswerableWrong).padStart(7)}   ${percent(point.wrongOverall).padStart(7)}${point.threshold === replies.threshold ? '   ← the widget default' : ''}`,
    ),
  ];
  if (report.outcomes) {
    const notRight = report.outcomes.filter((outcome) => outcome.verdict !== 'right');
    lines.push('', `Replies not right (${notRight.length}): query → entry cited [entry expected]`);
    for (const outcome of notRight) {
      lines.push(`  ${outcome.verdict.padEnd(10)} ${JSON.stringify(outcome.query)} → ${outcome.cited ?? '-'} [${outcome.expected ?? 'none'}]`);
    }
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  if (options === null) {
    console.log(USAGE);
    return;
  }
  const report = await runEvaluation({
    dataset: await loadDataset(options.dataset),
    store: options.store,
    limit: options.limit,
    details: options.details,
    threshold: options.threshold,
  });
  console.log(options.json ? JSON.stringify(report, null, 2) : formatTable(report));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  console.error(USAGE);
  process.exitCode = 1;
});
