import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createInstantAgent } from '@svc/agents';
import { randomBase62, type Store } from '@svc/core';
import { createPgliteStore, createPostgresStore } from '@svc/store-postgres';
import { operatorAdmin } from '../cli/operator-admin.js';
import { createLogger } from '../logger.js';
import { listen } from '../node-server.js';
import { createRuntime } from '../runtime.js';

const DATABASE_URL = process.env.SVC_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

type Open = (options: { onQuery: (sql: string) => void; lookupCacheMs?: number }) => Promise<Store>;

const pglite: Open = (options) => createPgliteStore(options);
const postgres: Open = async (options) => {
  const schema = `t_trips_${randomBase62(8).toLowerCase()}`;
  cleanups.push(async () => {
    const client = new pg.Client({ connectionString: DATABASE_URL });
    await client.connect();
    await client.query(`drop schema if exists "${schema}" cascade`);
    await client.end();
  });
  return createPostgresStore({ connectionString: DATABASE_URL, schema, max: 4, ...options });
};

/** Database round trips of `turns` sync turns through HTTP, each on an idle session, after one turn to warm up. */
async function roundTripsPerTurn(open: Open, lookupCacheMs: number | undefined, turns = 6): Promise<number> {
  let counting = false;
  let queries = 0;
  const store = await open({ onQuery: () => void (counting && queries++), ...(lookupCacheMs === undefined ? {} : { lookupCacheMs }) });
  const runtime = await createRuntime({
    config: { cursorSecret: 'round-trips-cursor-secret-012345', syncTimeoutMs: 25_000, agentTimeoutMs: 30_000 },
    store,
    logger: createLogger('silent'),
    agent: createInstantAgent(),
  });
  const server = await listen(runtime, { port: 0, host: '127.0.0.1' });
  cleanups.push(async () => {
    await server.close();
    await runtime.core.work.close();
    await store.close();
  });
  const account = await operatorAdmin(store).createAccount({ name: 'Trips', credits: 1e6 });
  const widget = await operatorAdmin(store).createWidget({ accountId: account.id, name: 'Trips' });
  const { key } = await operatorAdmin(store).createApiKey({ accountId: account.id, scopes: ['conversations:chat'] });
  const headers = { 'content-type': 'application/json', 'x-api-key': key };
  const base = `${server.url}/widgets/${widget.id}/conversations`;
  const created = await fetch(base, { method: 'POST', headers, body: JSON.stringify({ visitorId: 'v-1' }) });
  const sessionId = ((await created.json()) as { data: { sessionId: string } }).data.sessionId;
  const turn = async (): Promise<void> => {
    const res = await fetch(`${base}/${sessionId}/messages`, { method: 'POST', headers, body: JSON.stringify({ content: 'Opening hours?' }) });
    expect(res.status).toBe(200);
  };
  await turn();
  counting = true;
  for (let i = 0; i < turns; i++) await turn();
  counting = false;
  return queries / turns;
}

describe.each([
  ['PGlite', pglite],
  ['PostgreSQL', postgres],
])('database round trips per sync turn (%s)', (_name, open) => {
  it('is two, accept and commit, with the key and widget lookups answered from memory', async () => {
    expect(await roundTripsPerTurn(open, undefined)).toBe(2);
  }, 30_000);

  it('is four with the lookup cache off: the key, the widget, accept, commit', async () => {
    expect(await roundTripsPerTurn(open, 0)).toBe(4);
  }, 30_000);
});
