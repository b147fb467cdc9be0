import type { EvalCase, EvalCaseResult, EvalRunStatus } from '../schemas/evals.js';

/** A suite stored for a widget (DESIGN.md section 12), by name. */
export interface StoredEvalSuite {
  accountId: string;
  widgetId: string;
  name: string;
  cases: EvalCase[];
  createdAt: Date;
  updatedAt: Date;
}

/** An eval run: its cases' results so far, and how it compares with the previous finished run of its suite. */
export interface EvalRun {
  /** `evr_…`, sortable by creation time. */
  id: string;
  accountId: string;
  widgetId: string;
  suiteName: string;
  status: EvalRunStatus;
  cases: EvalCaseResult[];
  regressions: string[];
  previousRunId: string | null;
  error: string | null;
  createdAt: Date;
  finishedAt: Date | null;
}

export interface EvalRunQuery {
  widgetId: string;
  suiteName?: string | undefined;
  /** Only runs that finished (passed or failed). */
  finished?: boolean | undefined;
  /** Keyset position (exclusive): runs older than this id. */
  beforeId?: string | undefined;
  limit: number;
}

export interface EvalOps {
  /** Inserts or replaces the suite (widgetId, name); `createdAt` of a replaced suite stays. */
  putEvalSuite(suite: StoredEvalSuite): Promise<void>;
  getEvalSuite(widgetId: string, name: string): Promise<StoredEvalSuite | null>;
  /** A widget's suites by name. */
  listEvalSuites(widgetId: string): Promise<StoredEvalSuite[]>;
  /** Inserts or replaces the run by id. */
  saveEvalRun(run: EvalRun): Promise<void>;
  getEvalRun(id: string): Promise<EvalRun | null>;
  /** Newest first. */
  listEvalRuns(query: EvalRunQuery): Promise<EvalRun[]>;
}
