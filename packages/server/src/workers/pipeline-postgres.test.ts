import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { setTimeout as sleep } from 'node:timers/promises';
import { createScriptedAgent } from '@svc/agents';
import { randomBase62, type Store, ANY_ACCOUNT } from '@svc/core';
import { createPostgresStore } from '@svc/store-postgres';
import { createLogger } from '../logger.js';
import { listen, type RunningServer } from '../node-server.js';
import { createRuntime } from '../runtime.js';
import { kill, startServiceProcess } from '../testing/processes.js';
import { createSessions, historyProblems, readTurns, sendTurns, type TurnCall } from '../testing/turn-load.js';
import { operatorAdmin } from '../cli/operator-admin.js';

const DATABASE_URL = process.env.SVC_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

interface Setup {
  schema: string;
  store: Store;
  accountId: string;
  widgetId: string;
  key: string;
}

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

/** A fresh schema with an account, a widget and a server key, dropped after the file. */
async function setup(): Promise<Setup> {
  const schema = `t_pipe_${randomBase62(8).toLowerCase()}`;
  const store = await createPostgresStore({ connectionString: DATABASE_URL, schema, max: 2 });
  const account = await operatorAdmin(store).createAccount({ name: 'Pipeline', credits: 1e9 });
  const widget = await operatorAdmin(store).createWidget({ accountId: account.id, name: 'Pipeline' });
  const { key } = await operatorAdmin(store).createApiKey({ accountId: account.id, scopes: ['conversations:chat'] });
  cleanups.push(async () => {
    await store.close();
    const client = new pg.Client({ connectionString: DATABASE_URL });
    await client.connect();
    await client.query(`drop schema if exists "${schema}" cascade`);
    await client.end();
  });
  return { schema, store, accountId: account.id, widgetId: widget.id, key };
}

/** The service in this process on its own PostgreSQL pool of 10, on a real socket. */
async function serveInProcess(s: Setup): Promise<RunningServer> {
  const store = await createPostgresStore({ connectionString: DATABASE_URL, schema: s.schema, max: 10 });
  const runtime = await createRuntime({
    config: { cursorSecret: 'pipeline-test-cursor-secret-0123', syncTimeoutMs: 25_000, agentTimeoutMs: 30_000 },
    store,
    logger: createLogger('silent'),
    agent: createScriptedAgent(async ({ message }) => {
      await sleep(Math.floor(Math.random() * 4));
      return { content: `answer to ${message}` };
    }),
  });
  const server = await listen(runtime, { port: 0, host: '127.0.0.1' });
  cleanups.push(async () => {
    await server.close();
    await runtime.core.work.close();
    await store.close();
  });
  return server;
}

/** 4 turns on each of 50 sessions plus 50 on one more session, spread over `bases` in turn. */
function workload(sessions: string[], hot: string, bases: string[]): TurnCall[] {
  const calls: TurnCall[] = [];
  sessions.forEach((sessionId, i) => {
    for (let turn = 1; turn <= 4; turn++) calls.push({ sessionId, content: `s${i} q${turn}`, base: bases[(i + turn) % bases.length]! });
  });
  for (let turn = 1; turn <= 50; turn++) calls.push({ sessionId: hot, content: `hot q${turn}`, base: bases[turn % bases.length]! });
  return calls;
}

async function expectConsistent(s: Setup, balanceBefore: number, consumed: number, expectedTurns: number): Promise<void> {
  const stored = await readTurns(DATABASE_URL, s.schema, s.accountId);
  expect(historyProblems(stored.histories)).toEqual([]);
  const replies = [...stored.histories.values()].flat().filter((m) => m.role === 'assistant');
  expect(replies).toHaveLength(expectedTurns);
  expect(stored.jobs.filter((job) => job.status !== 'done')).toEqual([]);
  expect(balanceBefore - stored.balance).toBeCloseTo(consumed, 6);
}

describe('the turn pipeline on PostgreSQL (issue 9)', () => {
  it('completes 200 concurrent sync turns over 50 sessions plus 50 on one session on a pool of 10', async () => {
    const s = await setup();
    const server = await serveInProcess(s);
    const base = `${server.url}/widgets/${s.widgetId}/conversations`;
    const [hot, ...sessions] = await createSessions(base, s.key, 51);
    const before = (await s.store.getAccount(s.accountId))!.balance;

    const responses = await sendTurns(workload(sessions, hot!, [base]), s.key);
    expect(responses.filter((r) => r.status !== 200).map((r) => r.status)).toEqual([]);
    for (const r of responses) expect(r.content).toBe(`answer to ${r.call.content}`);
    const consumed = responses.reduce((sum, r) => sum + r.creditsConsumed, 0);
    expect(consumed).toBeGreaterThan(0);
    await expectConsistent(s, before, consumed, 250);
  }, 60_000);

  it('regression (deadlock): 24 concurrent sync turns with Idempotency-Keys through a public key all complete', async () => {
    // The first version held a pooled connection per nested advisory lock; about this many requests hung the server.
    const s = await setup();
    const server = await serveInProcess(s);
    const { key } = await operatorAdmin(s.store).createPublicKey(ANY_ACCOUNT, { widgetId: s.widgetId, origins: ['https://shop.example'] });
    const origin = { origin: 'https://shop.example' };
    const base = `${server.url}/widgets/${s.widgetId}/conversations`;
    const sessions = await createSessions(base, key, 12, origin);
    const calls = sessions.flatMap((sessionId, i) =>
      [1, 2].map((turn) => ({ sessionId, content: `p${i} q${turn}`, base, headers: { ...origin, 'idempotency-key': `p${i}-${turn}` } })),
    );
    const responses = await Promise.race([
      sendTurns(calls, key),
      sleep(30_000).then(() => {
        throw new Error('turns hung');
      }),
    ]);
    expect(responses.map((r) => r.status)).toEqual(Array(24).fill(200));
    // The same keys again: replays, answered from the first turns, nothing run or billed twice.
    const replays = await sendTurns(calls, key);
    expect(replays.map((r) => [r.status, r.creditsConsumed])).toEqual(Array(24).fill([200, 0]));
    expect(replays.map((r) => r.content)).toEqual(responses.map((r) => r.content));
    const stored = await readTurns(DATABASE_URL, s.schema, s.accountId);
    expect(stored.jobs).toHaveLength(24);
    expect(historyProblems(stored.histories)).toEqual([]);
  }, 60_000);

  it('completes the same load split over two server processes on one database', async () => {
    const s = await setup();
    const env = { DATABASE_URL, SVC_TEST_SCHEMA: s.schema, AGENT_DELAY_MS: '2', JOB_LEASE_MS: '10000' };
    const [a, b] = await Promise.all([startServiceProcess(env), startServiceProcess(env)]);
    cleanups.push(() => kill(a.child), () => kill(b.child));
    const bases = [a.ready, b.ready].map((url) => `${url}/widgets/${s.widgetId}/conversations`);
    const [hot, ...sessions] = await createSessions(bases[0]!, s.key, 51);
    const before = (await s.store.getAccount(s.accountId))!.balance;

    const responses = await sendTurns(workload(sessions, hot!, bases), s.key);
    expect(responses.filter((r) => r.status !== 200).map((r) => r.status)).toEqual([]);
    for (const r of responses) expect(r.content).toBe(`answer to ${r.call.content}`);
    const consumed = responses.reduce((sum, r) => sum + r.creditsConsumed, 0);
    await expectConsistent(s, before, consumed, 250);
  }, 60_000);

  it('answers every accepted message exactly once after a server is SIGKILLed during 200 sync turns', async () => {
    const s = await setup();
    const env = { DATABASE_URL, SVC_TEST_SCHEMA: s.schema, AGENT_DELAY_MS: '150', JOB_LEASE_MS: '1500' };
    const first = await startServiceProcess(env);
    cleanups.push(() => kill(first.child, 'SIGKILL'));
    const base = `${first.ready}/widgets/${s.widgetId}/conversations`;
    const sessions = await createSessions(base, s.key, 50);
    const calls = sessions.flatMap((sessionId, i) => [1, 2, 3, 4].map((turn) => ({ sessionId, content: `s${i} q${turn}`, base })));

    const inFlight = sendTurns(calls, s.key);
    // Kill it while turns are running: some answered, some accepted and mid-run, some never accepted.
    const client = new pg.Client({ connectionString: DATABASE_URL });
    await client.connect();
    cleanups.push(() => client.end());
    const count = async (sql: string): Promise<number> => Number((await client.query<{ n: string }>(sql)).rows[0]!.n);
    const deadline = Date.now() + 20_000;
    while ((await count(`select count(*) as n from "${s.schema}".turn_jobs where status = 'done'`)) < 20 && Date.now() < deadline) await sleep(20);
    await kill(first.child, 'SIGKILL');
    const answered = await inFlight;
    const beforeRestart = await count(`select count(*) as n from "${s.schema}".turn_jobs where status in ('queued', 'running')`);
    expect(beforeRestart).toBeGreaterThan(0);

    const second = await startServiceProcess(env);
    cleanups.push(() => kill(second.child));
    const recoverBy = Date.now() + 40_000;
    while ((await count(`select count(*) as n from "${s.schema}".turn_jobs where status in ('queued', 'running')`)) > 0) {
      if (Date.now() > recoverBy) throw new Error('accepted turns were not recovered');
      await sleep(100);
    }
    await kill(second.child);

    const stored = await readTurns(DATABASE_URL, s.schema, s.accountId);
    expect(stored.jobs.filter((job) => job.status !== 'done')).toEqual([]);
    const messages = [...stored.histories.values()].flat();
    for (const job of stored.jobs) {
      expect(messages.filter((m) => m.id === job.user_message_id)).toHaveLength(1);
      expect(messages.filter((m) => m.id === job.reply_message_id)).toHaveLength(1);
    }
    expect(messages).toHaveLength(stored.jobs.length * 2);
    expect(historyProblems(stored.histories)).toEqual([]);
    // What a caller was told before the crash is what the history holds.
    for (const r of answered.filter((r) => r.status === 200)) expect(r.content).toBe(`answer to ${r.call.content}`);
  }, 90_000);
});
