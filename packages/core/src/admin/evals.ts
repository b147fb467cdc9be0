import type { Principal, Session, StoredMessage } from '../domain.js';
import { SvcError, isSvcError } from '../errors.js';
import type { CoreContext } from '../context.js';
import type { Engine } from '../engine/engine.js';
import {
  addEvalCaseRequestSchema,
  evalCaseSchema,
  evalRunListQuerySchema,
  evalSuiteSchema,
  type EvalCase,
  type EvalCaseResult,
  type EvalExpect,
  type EvalRunView,
  type EvalSuite,
  type EvalSuiteView,
} from '../schemas/evals.js';
import { parseInput } from '../schemas/validate.js';
import type { EvalRun, StoredEvalSuite } from '../store/eval-store.js';
import { owned, type AccountScope } from './context.js';
import { loadOwnWidget } from './widgets.js';

/**
 * Evals (DESIGN.md section 12): every case of a suite runs as a real conversation through the widget's agent, by the
 * same turn pipeline a visitor's message takes, on a session marked `evaluation` (never billed, never in analytics,
 * out of the conversations list). A run is stored, and compared with the previous finished run of its suite.
 */

/** Cases running at once, by default. */
export const DEFAULT_EVAL_CONCURRENCY = 8;
const REPLY_EXCERPT = 300;
/** A conversation's visitor messages become a case's turns: at most this many (the schema's bound). */
const MAX_TURNS = 20;

export interface EvalOperations {
  /** Validates the suite, stores a queued run and starts it in the background: POST …/evals/runs answers 202 with it. */
  startEvalRun(scope: AccountScope, widgetId: string, suite: unknown): Promise<EvalRunView>;
  /** The same, resolving when the run has finished (the `svc eval run` command line). */
  runEvalSuite(scope: AccountScope, widgetId: string, suite: unknown): Promise<EvalRunView>;
  getEvalRun(scope: AccountScope, target: { widgetId: string; runId: string }): Promise<EvalRunView>;
  listEvalRuns(scope: AccountScope, widgetId: string, query?: unknown): Promise<{ items: EvalRunView[]; nextCursor: string | null }>;
  putEvalSuite(scope: AccountScope, target: { widgetId: string; name: string }, body: unknown): Promise<EvalSuiteView>;
  getEvalSuite(scope: AccountScope, target: { widgetId: string; name: string }): Promise<EvalSuiteView>;
  listEvalSuites(scope: AccountScope, widgetId: string): Promise<EvalSuiteView[]>;
  /** A conversation becomes a case of the suite (made when missing): its visitor messages, its last reply's sources. */
  addEvalCase(scope: AccountScope, target: { widgetId: string; name: string }, body: unknown): Promise<EvalSuiteView>;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A suite from a parsed YAML or JSON file or body, or a 400 naming the case (its position and name) and the field.
 * `name` fills in the suite's name when the input has none (a file's base name, a path's).
 */
export function parseEvalSuite(input: unknown, defaults: { name?: string | undefined } = {}): EvalSuite {
  const body = isObject(input) && input.name === undefined && defaults.name !== undefined ? { ...input, name: defaults.name } : input;
  try {
    const suite = parseInput(evalSuiteSchema, body);
    const seen = new Set<string>();
    suite.cases.forEach((c, index) => {
      if (seen.has(c.name)) throw new SvcError('validation_failed', `a case named "${c.name}" comes twice; case names must be unique`, { field: `cases.${index}.name` });
      seen.add(c.name);
    });
    return suite;
  } catch (error) {
    const match = isSvcError(error) && error.field ? /^cases\.(\d+)(?:\.|$)/.exec(error.field) : null;
    if (!match || !isSvcError(error)) throw error;
    const index = Number(match[1]);
    const raw = isObject(body) && Array.isArray(body.cases) ? (body.cases as unknown[])[index] : undefined;
    const name = isObject(raw) && typeof raw.name === 'string' && raw.name.trim() !== '' ? ` "${raw.name}"` : '';
    throw new SvcError(error.code, `Case ${index + 1}${name}: ${error.message}`, { field: error.field });
  }
}

/** What a case's conversation came to, as its expectations are checked against. */
export interface ObservedCase {
  /** The AI's replies, oldest first. */
  replies: StoredMessage[];
  session: Session | null;
}

const asList = (value: string | string[] | undefined): string[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

/** Each expectation that does not hold, as one sentence; empty when the case passed. */
export function checkExpectations(expect: EvalExpect, observed: ObservedCase): string[] {
  const failures: string[] = [];
  const last = observed.replies.at(-1) ?? null;
  const content = (last?.content ?? '').toLowerCase();
  const sources = last?.sources ?? [];
  for (const cited of expect.cites ?? []) {
    const wanted = cited.toLowerCase();
    const found = sources.some((s) => s.documentId === cited || s.title.toLowerCase() === wanted || (s.url !== null && s.url === cited));
    if (!found) failures.push(`cites: "${cited}" is not among the sources [${sources.map((s) => s.title).join(', ')}]`);
  }
  for (const phrase of asList(expect.contains)) {
    if (!content.includes(phrase.toLowerCase())) failures.push(`contains: the reply does not contain "${phrase}"`);
  }
  for (const phrase of asList(expect.notContains)) {
    if (content.includes(phrase.toLowerCase())) failures.push(`notContains: the reply contains "${phrase}"`);
  }
  if (expect.answered !== undefined) {
    const answered = last?.outcome === 'answered';
    if (answered !== expect.answered) failures.push(`answered: expected ${expect.answered}, got ${answered} (outcome ${last?.outcome ?? 'none'})`);
  }
  if (expect.handoff !== undefined) {
    const handedOff = (observed.session?.handedOff ?? false) || observed.replies.some((r) => r.outcome === 'handed_off');
    if (handedOff !== expect.handoff) failures.push(`handoff: expected ${expect.handoff}, got ${handedOff}`);
  }
  if (expect.form !== undefined) {
    const formId = last?.forms[0]?.formId ?? null;
    if (typeof expect.form === 'string' ? formId !== expect.form : (formId !== null) !== expect.form) {
      failures.push(`form: expected ${JSON.stringify(expect.form)}, got ${formId === null ? 'no form' : `form "${formId}"`}`);
    }
  }
  if (expect.ended !== undefined) {
    const ended = observed.replies.some((r) => r.sessionEnded);
    if (ended !== expect.ended) failures.push(`ended: expected ${expect.ended}, got ${ended}`);
  }
  return failures;
}

export function evalRunView(run: EvalRun): EvalRunView {
  const passed = run.cases.filter((c) => c.passed).length;
  return {
    id: run.id,
    widgetId: run.widgetId,
    suite: run.suiteName,
    status: run.status,
    total: run.cases.length,
    passed,
    failed: run.cases.length - passed,
    cases: run.cases,
    previousRunId: run.previousRunId,
    regressions: run.regressions,
    error: run.error,
    createdAt: run.createdAt.toISOString(),
    finishedAt: run.finishedAt?.toISOString() ?? null,
  };
}

function suiteView(suite: StoredEvalSuite): EvalSuiteView {
  return { name: suite.name, widgetId: suite.widgetId, cases: suite.cases, createdAt: suite.createdAt.toISOString(), updatedAt: suite.updatedAt.toISOString() };
}

/** Runs `work` over `items` with at most `limit` at once; results in the items' order. */
async function boundedMap<T, R>(items: readonly T[], options: { limit: number; work: (item: T, index: number) => Promise<R> }): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await options.work(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.limit, items.length)) }, worker));
  return results;
}

interface EvalPorts {
  ctx: CoreContext;
  sendMessage: Engine['sendMessage'];
  concurrency: number;
}

/** The caller an eval's turns are taken by: a server key of the widget's account that exists nowhere, chat only. */
function evalPrincipal(accountId: string): Principal {
  return { accountId, keyId: 'key_evaluation', kind: 'secret', scopes: ['conversations:chat'], callbackUrl: null, replyFormat: 'markdown', widgetId: null, identity: null };
}

/** One case as a conversation on a new evaluation session: each turn through the turn pipeline, then the checks. */
async function runCase(ports: EvalPorts, run: EvalRun, item: EvalCase): Promise<EvalCaseResult> {
  const { ctx } = ports;
  const started = Date.now();
  const now = ctx.clock.now();
  const widget = await ctx.store.getWidget(run.widgetId);
  if (!widget) throw new SvcError('widget_not_found', `Widget ${run.widgetId} no longer exists.`);
  const session: Session = {
    widgetId: widget.id,
    id: ctx.ids.random('sess'),
    accountId: run.accountId,
    visitorId: `eval_${run.id}`,
    status: 'active',
    language: null,
    timezone: null,
    messageCount: 0,
    rating: null,
    createdAt: now,
    lastActivityAt: now,
    expiresAt: new Date(now.getTime() + widget.sessionTtlSeconds * 1000),
    resolvedAt: null,
    pendingFormId: null,
    identitySub: null,
    creatorKeyKind: 'secret',
    creatorKeyId: null,
    handoff: null,
    handedOff: false,
    resolvedByOperator: false,
    purpose: 'evaluation',
  };
  await ctx.store.insertSession(session);
  const principal = evalPrincipal(run.accountId);
  const replies: StoredMessage[] = [];
  const failures: string[] = [];
  const turns = item.turns ?? [item.question!];
  for (const [index, content] of turns.entries()) {
    try {
      const result = await ports.sendMessage(principal, widget.id, session.id, { content });
      const messageId = 'messageId' in result.data ? result.data.messageId : null;
      // 202 without a message id: a person has the conversation, the AI stays silent.
      if (result.status === 202 && messageId === null) continue;
      const stored = messageId ? await ctx.store.getMessage(widget.id, session.id, messageId) : null;
      if (!stored) {
        failures.push(`turn ${index + 1}: no reply within the sync wait`);
        break;
      }
      replies.push(stored);
    } catch (error) {
      failures.push(`turn ${index + 1}: ${isSvcError(error) ? `${error.code}: ${error.message}` : String(error)}`);
      break;
    }
  }
  const after = await ctx.store.getSession(widget.id, session.id);
  if (failures.length === 0) failures.push(...checkExpectations(item.expect, { replies, session: after }));
  // Done with: an evaluation session is closed rather than left for the expiry sweep.
  if (after?.status === 'active') await ctx.store.updateSession(widget.id, session.id, { status: 'resolved', resolvedAt: ctx.clock.now(), pendingFormId: null });
  const last = replies.at(-1);
  return {
    name: item.name,
    passed: failures.length === 0,
    failures,
    reply: (last?.content ?? '').slice(0, REPLY_EXCERPT),
    sources: last?.sources ?? [],
    sessionId: session.id,
    durationMs: Date.now() - started,
  };
}

/** Runs every case, saving progress at most once a second, then the verdict and the regressions against the previous run. */
async function executeRun(ports: EvalPorts, queued: EvalRun, cases: EvalCase[]): Promise<EvalRun> {
  const { ctx } = ports;
  let run: EvalRun = { ...queued, status: 'running' };
  await ctx.store.saveEvalRun(run);
  try {
    const done: Array<EvalCaseResult | undefined> = new Array(cases.length);
    let savedAt = Date.now();
    await boundedMap(cases, {
      limit: ports.concurrency,
      work: async (item, index) => {
        done[index] = await runCase(ports, run, item);
        if (Date.now() - savedAt >= 1_000) {
          savedAt = Date.now();
          await ctx.store.saveEvalRun({ ...run, cases: done.filter((c): c is EvalCaseResult => c !== undefined) });
        }
      },
    });
    const results = done.filter((c): c is EvalCaseResult => c !== undefined);
    const [previous] = await ctx.store.listEvalRuns({ widgetId: run.widgetId, suiteName: run.suiteName, finished: true, beforeId: run.id, limit: 1 });
    const passedBefore = new Set(previous?.cases.filter((c) => c.passed).map((c) => c.name) ?? []);
    run = {
      ...run,
      status: results.every((c) => c.passed) ? 'passed' : 'failed',
      cases: results,
      previousRunId: previous?.id ?? null,
      regressions: results.filter((c) => !c.passed && passedBefore.has(c.name)).map((c) => c.name),
      finishedAt: ctx.clock.now(),
    };
  } catch (error) {
    ctx.logger.error('An eval run failed', { runId: run.id, error });
    run = { ...run, status: 'failed', error: isSvcError(error) ? error.message : 'The run stopped on an internal error.', finishedAt: ctx.clock.now() };
  }
  await ctx.store.saveEvalRun(run);
  return run;
}

export function createEvalOperations(ctx: CoreContext, options: { sendMessage: Engine['sendMessage']; concurrency?: number | undefined }): EvalOperations {
  const ports: EvalPorts = { ctx, sendMessage: options.sendMessage, concurrency: options.concurrency ?? DEFAULT_EVAL_CONCURRENCY };

  const queue = async (scope: AccountScope, widgetId: string, body: unknown): Promise<{ run: EvalRun; cases: EvalCase[] }> => {
    const widget = await loadOwnWidget(ctx, scope, widgetId);
    const suite = parseEvalSuite(body);
    const now = ctx.clock.now();
    const run: EvalRun = {
      id: ctx.ids.sortable('evr', now),
      accountId: widget.accountId,
      widgetId: widget.id,
      suiteName: suite.name,
      status: 'queued',
      cases: [],
      regressions: [],
      previousRunId: null,
      error: null,
      createdAt: now,
      finishedAt: null,
    };
    await ctx.store.saveEvalRun(run);
    return { run, cases: suite.cases };
  };

  const loadSuite = async (scope: AccountScope, target: { widgetId: string; name: string }): Promise<StoredEvalSuite | null> => {
    await loadOwnWidget(ctx, scope, target.widgetId);
    return ctx.store.getEvalSuite(target.widgetId, target.name);
  };

  const saveSuite = async (scope: AccountScope, target: { widgetId: string; name: string }, cases: EvalCase[]): Promise<EvalSuiteView> => {
    const widget = await loadOwnWidget(ctx, scope, target.widgetId);
    const suite = parseEvalSuite({ name: target.name, cases });
    const now = ctx.clock.now();
    const existing = await ctx.store.getEvalSuite(widget.id, suite.name);
    const stored: StoredEvalSuite = { accountId: widget.accountId, widgetId: widget.id, name: suite.name, cases: suite.cases, createdAt: existing?.createdAt ?? now, updatedAt: now };
    await ctx.store.putEvalSuite(stored);
    return suiteView(stored);
  };

  return {
    async startEvalRun(scope, widgetId, body) {
      const { run, cases } = await queue(scope, widgetId, body);
      void executeRun(ports, run, cases);
      return evalRunView(run);
    },
    async runEvalSuite(scope, widgetId, body) {
      const { run, cases } = await queue(scope, widgetId, body);
      return evalRunView(await executeRun(ports, run, cases));
    },
    async getEvalRun(scope, target) {
      await loadOwnWidget(ctx, scope, target.widgetId);
      const run = await ctx.store.getEvalRun(target.runId);
      return evalRunView(
        owned(scope, run && run.widgetId === target.widgetId ? run : null, { code: 'not_found', message: `Eval run ${target.runId} does not exist.`, field: 'runId' }),
      );
    },
    async listEvalRuns(scope, widgetId, query = {}) {
      await loadOwnWidget(ctx, scope, widgetId);
      const input = parseInput(evalRunListQuerySchema, query);
      const limit = input.limit ?? 20;
      const beforeId = input.cursor === undefined ? undefined : String(await ctx.cursors.decode('eval-runs', input.cursor));
      const runs = await ctx.store.listEvalRuns({ widgetId, suiteName: input.suite, beforeId, limit: limit + 1 });
      const page = runs.slice(0, limit);
      const nextCursor = runs.length > limit && page.length > 0 ? await ctx.cursors.encode('eval-runs', page.at(-1)!.id) : null;
      return { items: page.map(evalRunView), nextCursor };
    },
    async putEvalSuite(scope, target, body) {
      const cases = isObject(body) ? body.cases : undefined;
      if (isObject(body) && body.name !== undefined && body.name !== target.name) {
        throw new SvcError('validation_failed', `name "${String(body.name)}" differs from the suite named in the path, "${target.name}".`, { field: 'name' });
      }
      return saveSuite(scope, target, cases as EvalCase[]);
    },
    async getEvalSuite(scope, target) {
      const suite = await loadSuite(scope, target);
      if (!suite) throw new SvcError('not_found', `Widget ${target.widgetId} has no eval suite named "${target.name}".`, { field: 'name' });
      return suiteView(suite);
    },
    async listEvalSuites(scope, widgetId) {
      await loadOwnWidget(ctx, scope, widgetId);
      return (await ctx.store.listEvalSuites(widgetId)).map(suiteView);
    },
    async addEvalCase(scope, target, body) {
      const input = parseInput(addEvalCaseRequestSchema, body);
      const widget = await loadOwnWidget(ctx, scope, target.widgetId);
      const session = await ctx.store.getSession(widget.id, input.sessionId);
      if (!session || session.accountId !== widget.accountId) {
        throw new SvcError('session_not_found', `Session ${input.sessionId} does not exist on widget ${widget.id}.`, { field: 'sessionId' });
      }
      const messages = await ctx.store.listMessages({ widgetId: widget.id, sessionId: session.id, limit: 1000 });
      // Form submissions are answers to a form, not something a visitor types: they are left out.
      const turns = messages.filter((m) => m.role === 'user' && m.forms.length === 0 && m.content.trim() !== '').map((m) => m.content).slice(0, MAX_TURNS);
      if (turns.length === 0) throw new SvcError('validation_failed', `Session ${session.id} has no visitor message to replay.`, { field: 'sessionId' });
      const lastReply = messages.filter((m) => m.role === 'assistant').at(-1);
      const expect: EvalExpect = {};
      const cites = [...new Set((lastReply?.sources ?? []).map((s) => s.title))];
      if (cites.length > 0) expect.cites = cites;
      if (lastReply?.outcome !== undefined) expect.answered = lastReply.outcome === 'answered';
      const existing = (await ctx.store.getEvalSuite(widget.id, target.name))?.cases ?? [];
      const base = input.name ?? (turns[0]!.length > 60 ? `${turns[0]!.slice(0, 57)}...` : turns[0]!);
      let name = base;
      for (let n = 2; existing.some((c) => c.name === name); n++) name = `${base} (${n})`;
      const added = parseInput(evalCaseSchema, { name, turns, expect });
      return saveSuite(scope, target, [...existing, added]);
    },
  };
}
