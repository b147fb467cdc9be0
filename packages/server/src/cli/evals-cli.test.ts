import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { XMLParser } from 'fast-xml-parser';
import { parse as parseYaml } from 'yaml';
import { createLocalAgent } from '@svc/agents';
import { ANY_ACCOUNT, createCore, createRetriever, type Store } from '@svc/core';
import { createPgliteStore } from '@svc/store-postgres';
import { seedDemo } from '../seed.js';
import { runCli } from '../testing/processes.js';

/** The demo widget's suite in the repository: it runs here, so CI runs it (README, "Evals"). */
const DEMO_SUITE = fileURLToPath(new URL('../../../../examples/evals/demo-widget.yaml', import.meta.url));

interface JUnit {
  testsuites: {
    '@_tests': string;
    '@_failures': string;
    testsuite: { '@_name': string; '@_tests': string; '@_failures': string; testcase: Array<{ '@_name': string; failure?: { '@_type': string; '@_message': string; '#text': string } }> };
  };
}
const parseJUnit = (text: string): JUnit =>
  new XMLParser({ ignoreAttributes: false, isArray: (name) => name === 'testcase' }).parse(text, true) as JUnit;

/** Core's eval runner in this process, on the local agent, as the CLI builds it. */
function runner(store: Store) {
  const retriever = createRetriever({ store });
  return createCore({ store, retriever, agent: createLocalAgent({ knowledge: retriever }), cursorSecret: 'evals-cli-test-cursor-secret', urlProblem: () => null });
}

const regressSuite = (hours: string) =>
  `name: regress\ncases:\n  - name: opening hours\n    question: What are your customer service opening hours?\n    expect:\n      contains: "${hours}"\n  - name: declines\n    question: Will it snow on Mount Hood next weekend?\n    expect: { answered: false }\n`;

describe('svc eval run', () => {
  let dir: string;
  let env: Record<string, string>;
  let widgetId: string;
  let firstRunId: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-evals-'));
    env = { SVC_DATA_DIR: join(dir, 'data'), LOG_LEVEL: 'silent', SVC_SEED_DEMO: 'false' };
    const store = await createPgliteStore({ dataDir: env.SVC_DATA_DIR! });
    widgetId = (await seedDemo(store))!.widgetId;
    // A passing run of the suite the second test breaks: its regressions are counted against this one.
    const core = runner(store);
    const first = await core.admin.runEvalSuite(ANY_ACCOUNT, widgetId, parseYaml(regressSuite('8 am')));
    expect(first.status).toBe('passed');
    firstRunId = first.id;
    await core.work.close();
    await store.close();
  }, 60_000);
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("passes the demo widget's suite of the repository, with a JUnit report CI can read", async () => {
    const out = join(dir, 'demo.xml');
    const result = await runCli(['eval', 'run', '--widget', widgetId, '--file', DEMO_SUITE, '--format', 'junit', '--out', out], env);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(/CASE\s+RESULT\s+FAILURES/);
    expect(result.stdout).toMatch(/shipping to Canada\s+pass/);
    const report = parseJUnit(await readFile(out, 'utf8'));
    expect(report.testsuites['@_failures']).toBe('0');
    expect(report.testsuites.testsuite['@_name']).toBe('demo-widget');
    expect(Number(report.testsuites.testsuite['@_tests'])).toBeGreaterThanOrEqual(8);
    expect(report.testsuites.testsuite.testcase.map((c) => c['@_name'])).toContain('declines the weather');
    expect(report.testsuites.testsuite.testcase.every((c) => c.failure === undefined)).toBe(true);
  }, 60_000);

  it('exits 1 on a failing case, writes it as a JUnit failure, and names the regressions against the previous run', async () => {
    const file = join(dir, 'regress.yaml');
    const out = join(dir, 'regress.xml');
    await writeFile(file, regressSuite('midnight'));
    const result = await runCli(['eval', 'run', '--widget', widgetId, '--file', file, '--format', 'junit', '--out', out], env);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toMatch(/opening hours\s+REGR\s+contains: the reply does not contain "midnight"/);
    expect(result.stdout).toMatch(/failed, 1 of 2 passed/);
    expect(result.stdout).toContain(`Regressions since ${firstRunId}: opening hours.`);
    const report = parseJUnit(await readFile(out, 'utf8'));
    expect(report.testsuites).toMatchObject({ '@_tests': '2', '@_failures': '1' });
    const [hours, declines] = report.testsuites.testsuite.testcase;
    expect(hours!.failure).toMatchObject({ '@_type': 'regression', '@_message': 'contains: the reply does not contain "midnight"' });
    expect(hours!.failure!['#text']).toContain('reply: Our customer service team is open');
    expect(declines!.failure).toBeUndefined();
  }, 60_000);

  it('refuses a bad suite naming the case and the field', async () => {
    const file = join(dir, 'bad.yaml');
    await writeFile(file, 'cases:\n  - name: fine\n    question: hi\n  - name: broken\n    question: hi\n    expect: { cites: tents }\n');
    const bad = await runCli(['eval', 'run', '--widget', widgetId, '--file', file, '--json'], env);
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout)).toEqual({ error: { code: 'validation_failed', message: expect.stringContaining('Case 2 "broken"'), field: 'cases.1.expect.cites' } });
  }, 60_000);

  it('runs a generated suite of 200 cases on PGlite in well under a minute', async () => {
    const store = await createPgliteStore({});
    try {
      const seeded = (await seedDemo(store))!;
      const core = runner(store);
      const cases = Array.from({ length: 200 }, (_, i) => ({ name: `case ${i}`, question: i % 2 ? 'Which payment methods do you accept?' : 'How can I track my order?', expect: { answered: true } }));
      const started = Date.now();
      const run = await core.admin.runEvalSuite(ANY_ACCOUNT, seeded.widgetId, { name: 'big', cases });
      const elapsed = Date.now() - started;
      await core.work.close();
      expect(run).toMatchObject({ total: 200, passed: 200 });
      expect(elapsed).toBeLessThan(20_000);
    } finally {
      await store.close();
    }
  }, 90_000);
});
