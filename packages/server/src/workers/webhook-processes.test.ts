import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createHmac } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { randomBase62 } from '@svc/core';
import { createPostgresStore } from '@svc/store-postgres';
import { kill, startServiceProcess } from '../testing/processes.js';
import { startReceiver } from '../testing/receiver.js';
import { webhookCommand } from '../testing/webhook-command.js';
import { operatorAdmin } from '../cli/operator-admin.js';

const DATABASE_URL = process.env.SVC_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  await client.query(`drop schema if exists "${schema}" cascade`);
  await client.end();
}

describe('lifecycle webhooks across processes (PostgreSQL)', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  });

  it('loses no event when the API process is SIGKILLed after the change, and a worker-only process expires sessions', async () => {
    const receiver = await startReceiver();
    cleanups.push(receiver.close);
    const schema = `t_whk_${randomBase62(8).toLowerCase()}`;
    const store = await createPostgresStore({ connectionString: DATABASE_URL, schema });
    cleanups.push(async () => {
      await store.close();
      await dropSchema(schema);
    });
    const account = await operatorAdmin(store).createAccount({ name: 'Hooks', credits: 1e6 });
    const widget = await operatorAdmin(store).createWidget({ accountId: account.id, name: 'Hooks' });
    const { key } = await operatorAdmin(store).createApiKey({ accountId: account.id, scopes: ['conversations:chat'] });
    const { secret } = (await webhookCommand('create', { account: account.id, url: receiver.url }, store, true)).json as { secret: string };
    const env = { DATABASE_URL, SVC_TEST_SCHEMA: schema };

    // An API-only process (no workers): every change commits its event rows, none is sent, then it is killed.
    const api = await startServiceProcess({ ...env, ROLE: 'api' });
    cleanups.push(() => kill(api.child, 'SIGKILL'));
    const headers = { 'content-type': 'application/json', 'x-api-key': key };
    const base = `${api.ready}/widgets/${widget.id}/conversations`;
    const sessions: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await fetch(base, { method: 'POST', headers, body: JSON.stringify({ visitorId: `v${i}` }) });
      expect(res.status).toBe(201);
      sessions.push(((await res.json()) as { data: { sessionId: string } }).data.sessionId);
    }
    expect((await fetch(`${base}/${sessions[0]}/end`, { method: 'POST', headers })).status).toBe(200);
    expect((await fetch(`${base}/${sessions[0]}/rate`, { method: 'POST', headers, body: JSON.stringify({ rating: 'negative' }) })).status).toBe(200);
    await kill(api.child, 'SIGKILL');
    expect(receiver.received).toEqual([]);
    expect((await store.listDeliveries({ limit: 100 })).map((d) => d.status)).toEqual(Array(6).fill('pending'));

    // Two sessions go idle past their TTL: only a worker can notice.
    const past = new Date(Date.now() - 1000);
    for (const sessionId of sessions.slice(2)) await store.updateSession(widget.id, sessionId, { expiresAt: past });

    const worker = await startServiceProcess({ ...env, ROLE: 'worker', SWEEP_MS: '200' });
    cleanups.push(() => kill(worker.child));
    await receiver.waitFor(8, 30_000);
    await sleep(700);
    await kill(worker.child);

    expect(receiver.received).toHaveLength(8);
    const bodies = receiver.received.map((delivery) => {
      const signature = createHmac('sha256', secret).update(`${delivery.headers['x-svc-timestamp']}.${delivery.body}`).digest('hex');
      expect(delivery.headers['x-svc-signature']).toBe(signature);
      return JSON.parse(delivery.body) as { event: string; deliveryId: string; data: { sessionId: string; status: string } };
    });
    const seen = (event: string) => bodies.filter((b) => b.event === event).map((b) => b.data.sessionId).sort();
    expect(seen('session.created')).toEqual([...sessions].sort());
    expect(seen('session.resolved')).toEqual([sessions[0]]);
    expect(seen('session.rated')).toEqual([sessions[0]]);
    expect(seen('session.expired')).toEqual(sessions.slice(2).sort());
    expect(new Set(bodies.map((b) => b.deliveryId)).size).toBe(8);
    for (const sessionId of sessions.slice(2)) expect((await store.getSession(widget.id, sessionId))?.status).toBe('expired');
    expect((await store.getSession(widget.id, sessions[1]!))?.status).toBe('active');
  }, 120_000);
});
