import { z } from 'zod';
import { contentSchema, messageSourceSchema } from './message.js';

/**
 * Eval suites and runs (DESIGN.md section 12). A suite is a file of cases, each a conversation (`turns`, or one
 * `question`) and what its last reply must show (`expect`). The same shapes are the admin API's bodies and answers.
 */

/** One string or several: each must (`contains`) or must not (`notContains`) appear in the last reply, ignoring case. */
const phrasesSchema = z.union([z.string().min(1).max(500), z.array(z.string().min(1).max(500)).min(1).max(20)]);

export const evalExpectSchema = z.strictObject({
  /** Each must be among the last reply's sources, by document id, title or URL. */
  cites: z.array(z.string().min(1).max(500)).max(20).optional(),
  contains: phrasesSchema.optional(),
  notContains: phrasesSchema.optional(),
  /** `true`: the last reply answered (outcome `answered`); `false`: it declined (abstained, handed off, asked a form…). */
  answered: z.boolean().optional(),
  /** Whether the conversation was handed to a person. */
  handoff: z.boolean().optional(),
  /** Whether the last reply surfaced a form, or the id of the form it must surface. */
  form: z.union([z.boolean(), z.string().min(1).max(64)]).optional(),
  /** Whether the agent ended the conversation. */
  ended: z.boolean().optional(),
});

export const evalCaseSchema = z
  .strictObject({
    name: z.string().trim().min(1, { error: 'name must not be empty' }).max(200),
    /** The visitor's messages, in order. */
    turns: z.array(contentSchema).min(1, { error: 'turns must hold at least one message' }).max(20).optional(),
    /** One visitor message: the same as `turns: [question]`. */
    question: contentSchema.optional(),
    expect: evalExpectSchema.default({}),
  })
  .refine((value) => (value.turns === undefined) !== (value.question === undefined), {
    error: 'a case has either turns or a question, not both and not neither',
    path: ['turns'],
  });

export const EVAL_SUITE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;
export const evalSuiteNameSchema = z.string().regex(EVAL_SUITE_NAME, { error: 'a suite name is 1-100 letters, digits, "_", "." or "-", starting with a letter or digit' });

export const evalSuiteSchema = z.strictObject({
  /** Runs of the same suite (by name, per widget) are compared with each other. */
  name: evalSuiteNameSchema,
  cases: z
    .array(evalCaseSchema)
    .min(1, { error: 'cases must hold at least one case' })
    .max(1000),
});

/** A suite stored for a widget (PUT …/evals/suites/{name}: the body's `name` may be left out, the path names it). */
export const evalSuiteBodySchema = evalSuiteSchema.extend({ name: evalSuiteNameSchema.optional() });

export const evalSuiteViewSchema = evalSuiteSchema.extend({
  widgetId: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/** POST …/evals/suites/{name}/cases: a conversation becomes a case (its visitor messages, its last reply's sources). */
export const addEvalCaseRequestSchema = z.strictObject({
  sessionId: z.string().min(1).max(128),
  /** Default: the conversation's first visitor message, shortened. */
  name: z.string().trim().min(1).max(200).optional(),
});

export const evalCaseResultSchema = z.object({
  name: z.string(),
  passed: z.boolean(),
  /** What did not hold, one sentence each (`answered: expected false, got true`). Empty when it passed. */
  failures: z.array(z.string()),
  /** The first 300 characters of the last reply. */
  reply: z.string(),
  sources: z.array(messageSourceSchema),
  /** The evaluation session the case ran in. */
  sessionId: z.string().nullable(),
  durationMs: z.int(),
});

export const evalRunStatusSchema = z.enum(['queued', 'running', 'passed', 'failed']);

export const evalRunSchema = z.object({
  id: z.string(),
  widgetId: z.string(),
  suite: z.string(),
  status: evalRunStatusSchema,
  total: z.int(),
  passed: z.int(),
  failed: z.int(),
  /** Every case, in the suite's order; those not yet run are missing while the run is queued or running. */
  cases: z.array(evalCaseResultSchema),
  /** The previous finished run of the same suite on this widget, compared with. */
  previousRunId: z.string().nullable(),
  /** Cases that passed in the previous run and fail in this one. */
  regressions: z.array(z.string()),
  /** Why the run could not finish (the cases' own failures are in `cases`). */
  error: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});

export const evalRunListQuerySchema = z.strictObject({
  suite: evalSuiteNameSchema.optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
  cursor: z.string().max(500).optional(),
});

export type EvalExpect = z.infer<typeof evalExpectSchema>;
export type EvalCase = z.infer<typeof evalCaseSchema>;
export type EvalSuite = z.infer<typeof evalSuiteSchema>;
export type EvalSuiteView = z.infer<typeof evalSuiteViewSchema>;
export type EvalCaseResult = z.infer<typeof evalCaseResultSchema>;
export type EvalRunStatus = z.infer<typeof evalRunStatusSchema>;
export type EvalRunView = z.infer<typeof evalRunSchema>;
