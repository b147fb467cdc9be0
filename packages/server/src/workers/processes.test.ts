import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { setTimeout as sleep } from 'node:timers/promises';
import { randomBase62, type Store } from '@svc/core';
import { createPostgresStore } from '@svc/store-postgres';
import { kill, startServiceProcess } from '../testing/processes.js';
import { startReceiver } from '../testing/receiver.js';
import { operatorAdmin } from '../cli/operator-admin.js';

const DATABASE_URL = process.env.SVC_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

interface Setup {
  schema: string;
  store: Store;
  widgetId: string;
  key: string;
}

async function setup(receiverUrl: string): Promise<Setup> {
  const schema = `t_proc_${randomBase62(8).toLowerCase()}`;
  const store = await createPostgresStore({ connectionString: DATABASE_URL, schema });
  const account = await operatorAdmin(store).createAccount({ name: 'Procs', credits: 1e9 });
  const widget = await operatorAdmin(store).createWidget({ accountId: account.id, name: 'Procs' });
  const { key } = await operatorAdmin(store, { allowPrivateCallbacks: true }).createApiKey({
    accountId: account.id,
    scopes: ['conversations:chat'],
    callbackUrl: receiverUrl,
  });
  return { schema, store, widgetId: widget.id, key };
}

async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  await client.query(`drop schema if exists "${schema}" cascade`);
  await client.end();
}

async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

describe('callback workers across processes (PostgreSQL)', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  });

  /** A receiver on a socket and a fresh schema with an account, widget and callback key, cleaned up after. */
  async function prepare() {
    const receiver = await startReceiver();
    cleanups.push(receiver.close);
    const s = await setup(receiver.url);
    cleanups.push(async () => {
      await s.store.close();
      await dropSchema(s.schema);
    });
    return { receiver, s };
  }

  it('a server killed with SIGKILL mid-work delivers every reply after a restart, none answered twice', async () => {
    const { receiver, s } = await prepare();
    const env = { DATABASE_URL, SVC_TEST_SCHEMA: s.schema, AGENT_DELAY_MS: '250', JOB_LEASE_MS: '1500' };
    const first = await startServiceProcess(env);
    cleanups.push(() => kill(first.child, 'SIGKILL'));

    const headers = { 'content-type': 'application/json', 'x-api-key': s.key };
    const base = `${first.ready}/widgets/${s.widgetId}/conversations`;
    const sessions: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await fetch(base, { method: 'POST', headers, body: JSON.stringify({ visitorId: `v${i}` }) });
      sessions.push(((await res.json()) as { data: { sessionId: string } }).data.sessionId);
    }
    for (let turn = 1; turn <= 4; turn++) {
      for (const sessionId of sessions) {
        const res = await fetch(`${base}/${sessionId}/messages`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ content: `${sessionId} q${turn}`, response_type: 'callback' }),
        });
        expect(res.status).toBe(202);
      }
    }
    await receiver.waitFor(3, 20_000);
    await kill(first.child, 'SIGKILL');
    const deliveredBeforeCrash = receiver.received.length;
    expect(deliveredBeforeCrash).toBeLessThan(20);

    const second = await startServiceProcess(env);
    cleanups.push(() => kill(second.child));
    const delivered = (): Set<string> => new Set(receiver.received.map((r) => JSON.parse(r.body).messageId as string));
    await waitUntil(() => delivered().size >= 20, 45_000, '20 delivered replies');
    await kill(second.child);

    for (const sessionId of sessions) {
      const history = await s.store.listMessages({ widgetId: s.widgetId, sessionId, limit: 100 });
      const assistant = history.filter((m) => m.role === 'assistant');
      expect(history.filter((m) => m.role === 'user')).toHaveLength(4);
      expect(assistant).toHaveLength(4);
      expect(new Set(assistant.map((m) => m.content)).size).toBe(4);
      for (const m of assistant) expect(delivered().has(m.id)).toBe(true);
    }
  }, 120_000);

  it('two worker processes on one PostgreSQL process 200 callback turns without delivering any twice', async () => {
    const { receiver, s } = await prepare();
    const env = { DATABASE_URL, SVC_TEST_SCHEMA: s.schema, AGENT_DELAY_MS: '5', JOB_LEASE_MS: '10000' };
    // The API process takes requests and runs workers too; a second process only works.
    const api = await startServiceProcess({ ...env });
    cleanups.push(() => kill(api.child));
    const worker = await startServiceProcess({ ...env, ROLE: 'worker' });
    cleanups.push(() => kill(worker.child));

    const headers = { 'content-type': 'application/json', 'x-api-key': s.key };
    const base = `${api.ready}/widgets/${s.widgetId}/conversations`;
    const sessions: string[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await fetch(base, { method: 'POST', headers, body: JSON.stringify({ visitorId: `w${i}` }) });
      sessions.push(((await res.json()) as { data: { sessionId: string } }).data.sessionId);
    }
    await Promise.all(
      sessions.map(async (sessionId) => {
        for (let turn = 1; turn <= 10; turn++) {
          const res = await fetch(`${base}/${sessionId}/messages`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ content: `q${turn}`, response_type: 'callback' }),
          });
          expect(res.status).toBe(202);
        }
      }),
    );
    await receiver.waitFor(200, 60_000);
    await sleep(1_000);
    const messageIds = receiver.received.map((r) => JSON.parse(r.body).messageId as string);
    expect(messageIds).toHaveLength(200);
    expect(new Set(messageIds).size).toBe(200);
    expect(new Set(receiver.received.map((r) => r.headers['x-svc-delivery'])).size).toBe(200);
    const owners = await s.store.listDeliveries({ limit: 500 });
    expect(owners.filter((d) => d.status === 'delivered')).toHaveLength(200);
  }, 120_000);
});
