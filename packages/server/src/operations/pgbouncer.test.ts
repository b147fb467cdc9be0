import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { randomBase62 } from '@svc/core';
import { createPostgresStore } from '@svc/store-postgres';
import { loadConfig } from '../config.js';
import { openStore } from '../open-store.js';
import { operatorAdmin } from '../cli/operator-admin.js';
import { createHarness } from '../testing/harness.js';
import { startPgBouncer } from '../testing/pgbouncer.js';
import { kill, runCli, startCliServer, type CliServer } from '../testing/processes.js';

const DATABASE_URL = process.env.SVC_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const direct = new URL(DATABASE_URL);
const target = { host: direct.hostname, port: Number(direct.port || 5432), user: decodeURIComponent(direct.username || 'postgres') };

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function startServer(env: Record<string, string>): Promise<CliServer> {
  const server = await startCliServer(env);
  cleanups.push(() => kill(server.child, 'SIGKILL'));
  return server;
}

/** Resolves when `GET …/events` delivers an event named `name`, with the time it arrived. */
async function nextEvent(url: string, wanted: { key: string; name: string; signal: AbortSignal }): Promise<{ opened: Promise<void>; arrived: Promise<number> }> {
  const { key, name, signal } = wanted;
  let opened!: () => void;
  const openedPromise = new Promise<void>((resolve) => (opened = resolve));
  const arrived = (async () => {
    const res = await fetch(url, { headers: { 'x-api-key': key, accept: 'text/event-stream' }, signal });
    expect(res.status).toBe(200);
    opened();
    const reader = res.body!.getReader();
    let text = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) throw new Error(`the stream ended before ${name}`);
      text += new TextDecoder().decode(value);
      if (text.includes(`event: ${name}`)) return performance.now();
    }
  })();
  return { opened: openedPromise, arrived };
}

describe('PostgreSQL behind a real PgBouncer in transaction pooling mode, stock settings', () => {
  it('opens the store (regression: "unsupported startup parameter: options"), keeps its schema and lock timeout per transaction', async () => {
    const bouncer = await startPgBouncer(target);
    cleanups.push(bouncer.close);
    const schema = `t_pgb_${randomBase62(8).toLowerCase()}`;
    cleanups.push(() => admin((c) => c.query(`drop schema if exists "${schema}" cascade`)));
    const store = await createPostgresStore({ connectionString: bouncer.url(direct.pathname.slice(1) || 'postgres'), schema, lockTimeoutMs: 300 });
    cleanups.push(() => store.close());
    const h = await createHarness({ store });
    const sessionId = await h.session();
    // search_path is SET LOCAL in every transaction: lone statements on whatever server connection find the tables.
    for (let i = 0; i < 5; i++) expect((await store.getSession(h.widget.id, sessionId))?.id).toBe(sessionId);

    // A row locked elsewhere: the lock timeout (SET LOCAL, not a startup option a pooler drops) ends the wait.
    await admin(async (client) => {
      await client.query('begin');
      await client.query(`select 1 from "${schema}".sessions where id = $1 for update`, [sessionId]);
      const started = performance.now();
      await expect(store.transaction((tx) => tx.lockSession(h.widget.id, sessionId))).rejects.toMatchObject({ code: '55P03' });
      expect(performance.now() - started).toBeLessThan(3_000);
      await client.query('rollback');
    });
  }, 60_000);

  it('`svc migrate` and two `svc start` processes work through it; with SVC_DATABASE_LISTEN_URL a change on one reaches the other\'s event stream at once, not at the 5 s poll', async () => {
    const bouncer = await startPgBouncer(target);
    cleanups.push(bouncer.close);
    const database = `t_pgb_${randomBase62(8).toLowerCase()}`;
    await admin((c) => c.query(`create database "${database}"`));
    cleanups.push(() => admin((c) => c.query(`drop database if exists "${database}" with (force)`)));
    const listenUrl = new URL(DATABASE_URL);
    listenUrl.pathname = `/${database}`;
    const env = { DATABASE_URL: bouncer.url(database), LOG_LEVEL: 'warn', SVC_SEED_DEMO: 'false' };

    const migrated = await runCli(['migrate'], env);
    expect(migrated.code, migrated.stderr).toBe(0);
    expect(migrated.stdout + migrated.stderr).toContain('1_initial');

    const store = await openStore(loadConfig(env));
    const account = await operatorAdmin(store).createAccount({ name: 'Pooled', credits: 1000 });
    const widget = await operatorAdmin(store).createWidget({ accountId: account.id, name: 'Pooled' });
    const { key } = await operatorAdmin(store).createApiKey({ accountId: account.id, scopes: ['conversations:chat'] });
    await store.close();

    const listening = await startServer({ ...env, SVC_DATABASE_LISTEN_URL: listenUrl.toString() });
    const writing = await startServer(env);
    // Without a direct connection the process says that changes from elsewhere arrive by polling.
    expect(writing.logs.some((line) => line.includes('SVC_DATABASE_LISTEN_URL'))).toBe(true);
    expect(listening.logs.some((line) => line.includes('SVC_DATABASE_LISTEN_URL'))).toBe(false);

    const headers = { 'content-type': 'application/json', 'x-api-key': key };
    const conversations = `/widgets/${widget.id}/conversations`;
    const created = await fetch(`${writing.url}${conversations}`, { method: 'POST', headers, body: JSON.stringify({ visitorId: 'v1' }) });
    const { sessionId } = ((await created.json()) as { data: { sessionId: string } }).data;
    const stop = new AbortController();
    cleanups.push(async () => stop.abort());
    const stream = await nextEvent(`${listening.url}${conversations}/${sessionId}/events`, { key, name: 'session.updated', signal: stop.signal });
    await stream.opened;
    const sent = performance.now();
    const ended = await fetch(`${writing.url}${conversations}/${sessionId}/end`, { method: 'POST', headers });
    expect(ended.status).toBe(200);
    const latency = (await stream.arrived) - sent;
    // The fallback poll is 5 s; NOTIFY through the pooler plus LISTEN on the direct connection is milliseconds.
    expect(latency).toBeLessThan(2_000);
    stop.abort();
    await Promise.all([kill(listening.child), kill(writing.child)]);
  }, 120_000);
});
