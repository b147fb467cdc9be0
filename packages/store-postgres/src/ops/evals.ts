import type { EvalOps, EvalRun, StoredEvalSuite } from '@svc/core/store-kit';
import { json } from '../rows.js';
import type { Db } from './db.js';

interface SuiteRow {
  account_id: string;
  widget_id: string;
  name: string;
  cases: StoredEvalSuite['cases'];
  created_at: Date;
  updated_at: Date;
}

interface RunRow {
  id: string;
  account_id: string;
  widget_id: string;
  suite_name: string;
  status: EvalRun['status'];
  cases: EvalRun['cases'];
  regressions: string[];
  previous_run_id: string | null;
  error: string | null;
  created_at: Date;
  finished_at: Date | null;
}

const toSuite = (row: SuiteRow): StoredEvalSuite => ({
  accountId: row.account_id,
  widgetId: row.widget_id,
  name: row.name,
  cases: row.cases,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const toRun = (row: RunRow): EvalRun => ({
  id: row.id,
  accountId: row.account_id,
  widgetId: row.widget_id,
  suiteName: row.suite_name,
  status: row.status,
  cases: row.cases,
  regressions: row.regressions,
  previousRunId: row.previous_run_id,
  error: row.error,
  createdAt: row.created_at,
  finishedAt: row.finished_at,
});

/** Eval suites and runs (DESIGN.md section 12; tables of migration 14). */
export function evalOps(db: Db): EvalOps {
  return {
    async putEvalSuite(suite) {
      await db().query(
        `insert into eval_suites (widget_id, name, account_id, cases, created_at, updated_at) values ($1, $2, $3, $4::jsonb, $5, $6)
         on conflict (widget_id, name) do update set cases = excluded.cases, updated_at = excluded.updated_at`,
        [suite.widgetId, suite.name, suite.accountId, json(suite.cases), suite.createdAt, suite.updatedAt],
      );
    },
    async getEvalSuite(widgetId, name) {
      const [row] = await db().query<SuiteRow>('select * from eval_suites where widget_id = $1 and name = $2', [widgetId, name]);
      return row ? toSuite(row) : null;
    },
    async listEvalSuites(widgetId) {
      const rows = await db().query<SuiteRow>('select * from eval_suites where widget_id = $1 order by name', [widgetId]);
      return rows.map(toSuite);
    },
    async saveEvalRun(run) {
      await db().query(
        `insert into eval_runs (id, account_id, widget_id, suite_name, status, cases, regressions, previous_run_id, error, created_at, finished_at)
         values ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8, $9, $10, $11)
         on conflict (id) do update set status = excluded.status, cases = excluded.cases, regressions = excluded.regressions,
           previous_run_id = excluded.previous_run_id, error = excluded.error, finished_at = excluded.finished_at`,
        [
          run.id,
          run.accountId,
          run.widgetId,
          run.suiteName,
          run.status,
          json(run.cases),
          json(run.regressions),
          run.previousRunId,
          run.error,
          run.createdAt,
          run.finishedAt,
        ],
      );
    },
    async getEvalRun(id) {
      const [row] = await db().query<RunRow>('select * from eval_runs where id = $1', [id]);
      return row ? toRun(row) : null;
    },
    async listEvalRuns(query) {
      const rows = await db().query<RunRow>(
        `select * from eval_runs
          where widget_id = $1 and ($2::text is null or suite_name = $2)
            and (not $3::boolean or status in ('passed', 'failed'))
            and ($4::text is null or id < $4::text collate "C")
          order by id desc limit $5`,
        [query.widgetId, query.suiteName ?? null, query.finished === true, query.beforeId ?? null, Math.max(0, query.limit)],
      );
      return rows.map(toRun);
    },
  };
}
