import { readFile, writeFile } from 'node:fs/promises';
import { basename, extname, resolve } from 'node:path';
import { createLlmAgentFromEnv, createLocalAgent, embeddingProviderFromEnv, rerankProviderFromEnv } from '@svc/agents';
import { ANY_ACCOUNT, createCore, createRetriever, randomBase62, type Store } from '@svc/core';
import type { EvalRunView } from '@svc/core/schemas';
import { parse as parseYaml } from 'yaml';
import { userDirectory } from '../config.js';
import { formatReply } from '../reply-format.js';
import { callbackUrlProblem } from '../net/address-policy.js';

/**
 * `svc eval run --widget W --file suite.yaml [--format text|json|junit] [--out F]` (DESIGN.md section 12): core's eval
 * runner on this database, with the agent `svc start` would use (SVC_AI_PROVIDER, else the local agent), so the cases
 * run through the widget's configured agent. The exit code is 1 when a case fails.
 */

export type EvalFormat = 'text' | 'json' | 'junit';

export interface EvalCommand {
  widget: string;
  file: string;
  format: EvalFormat;
  out?: string | undefined;
}

/** The suite file: YAML (JSON is YAML too), its base name the suite's name unless it names itself. */
export async function readSuiteFile(file: string, onError: (message: string) => Error): Promise<Record<string, unknown>> {
  const path = resolve(userDirectory(), file);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw onError(`Cannot read ${path}: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = parseYaml(text, { maxAliasCount: 100 });
  } catch (error) {
    throw onError(`${path} is not valid YAML or JSON: ${(error as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw onError(`${path} must hold a mapping with "cases".`);
  const suite = parsed as Record<string, unknown>;
  return suite.name === undefined ? { ...suite, name: basename(path, extname(path)) } : suite;
}

/** A core whose agent is the one the server runs (env), for the eval runner only. */
function evalCore(store: Store) {
  const embeddings = embeddingProviderFromEnv(process.env);
  const rerank = rerankProviderFromEnv(process.env);
  const retriever = createRetriever({ store, embeddings: embeddings ?? undefined, rerank: rerank ?? undefined });
  const agent = createLlmAgentFromEnv(process.env, { knowledge: retriever }) ?? createLocalAgent({ knowledge: retriever });
  return createCore({ store, retriever, agent, cursorSecret: randomBase62(43), urlProblem: (url) => callbackUrlProblem(url, false), formatReply });
}

export async function runEvalCommand(command: EvalCommand, store: Store, onError: (message: string) => Error): Promise<{ json: unknown; text: string; exitCode: number }> {
  const suite = await readSuiteFile(command.file, onError);
  const core = evalCore(store);
  let run: EvalRunView;
  try {
    run = await core.admin.runEvalSuite(ANY_ACCOUNT, command.widget, suite);
  } finally {
    await core.work.close();
  }
  const exitCode = run.status === 'passed' ? 0 : 1;
  const table = evalTable(run);
  const report = command.format === 'junit' ? junitReport(run) : command.format === 'json' ? JSON.stringify(run, null, 2) : table;
  if (command.out) {
    const path = resolve(userDirectory(), command.out);
    await writeFile(path, report.endsWith('\n') ? report : `${report}\n`);
    return { json: run, text: `${table}\nReport written to ${path}.`, exitCode };
  }
  return { json: run, text: report, exitCode };
}

const pad = (value: string, width: number): string => (value.length >= width ? value : value + ' '.repeat(width - value.length));

/** Case, result, failures: one line per case, then the verdict and the regressions. */
export function evalTable(run: EvalRunView): string {
  const width = Math.min(50, Math.max(4, ...run.cases.map((c) => c.name.length)));
  const regressed = new Set(run.regressions);
  const lines = [`${pad('CASE', width)}  RESULT  FAILURES`];
  for (const c of run.cases) {
    const result = c.passed ? 'pass' : regressed.has(c.name) ? 'REGR' : 'FAIL';
    lines.push(`${pad(c.name.length > width ? `${c.name.slice(0, width - 1)}…` : c.name, width)}  ${pad(result, 6)}  ${c.failures.join('; ')}`);
  }
  lines.push('');
  lines.push(`Run ${run.id} of suite "${run.suite}" on ${run.widgetId}: ${run.status}, ${run.passed} of ${run.total} passed.`);
  if (run.error) lines.push(`The run stopped: ${run.error}`);
  if (run.previousRunId) {
    lines.push(run.regressions.length ? `Regressions since ${run.previousRunId}: ${run.regressions.join(', ')}.` : `No regressions since ${run.previousRunId}.`);
  }
  return lines.join('\n');
}

/** Text as XML 1.0 allows it: escaped, with the control characters it cannot hold dropped. */
function xml(value: string): string {
  return value
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** JUnit XML as CI systems read it: one testsuite, a testcase per case, a failure element per failed case. */
export function junitReport(run: EvalRunView): string {
  const seconds = (ms: number) => (ms / 1000).toFixed(3);
  const total = run.cases.reduce((sum, c) => sum + c.durationMs, 0);
  const regressed = new Set(run.regressions);
  const cases = run.cases.map((c) => {
    const open = `    <testcase name="${xml(c.name)}" classname="${xml(run.suite)}" time="${seconds(c.durationMs)}"`;
    if (c.passed) return `${open}/>`;
    const kind = regressed.has(c.name) ? 'regression' : 'failure';
    const body = [...c.failures, `reply: ${c.reply}`, `session: ${c.sessionId ?? '-'}`].join('\n');
    return `${open}>\n      <failure type="${kind}" message="${xml(c.failures[0] ?? 'failed')}">${xml(body)}</failure>\n    </testcase>`;
  });
  const counts = `tests="${run.total}" failures="${run.failed}" errors="${run.error ? 1 : 0}" skipped="0" time="${seconds(total)}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="svc eval" ${counts}>`,
    `  <testsuite name="${xml(run.suite)}" ${counts} timestamp="${run.createdAt}">`,
    '    <properties>',
    `      <property name="run" value="${xml(run.id)}"/>`,
    `      <property name="widget" value="${xml(run.widgetId)}"/>`,
    `      <property name="previousRun" value="${xml(run.previousRunId ?? '')}"/>`,
    `      <property name="regressions" value="${xml(run.regressions.join(', '))}"/>`,
    '    </properties>',
    ...cases,
    '  </testsuite>',
    '</testsuites>',
  ].join('\n');
}
