import { at, defaultIds, expireDueSessions, makeSession, makeWebhook, manualClock } from '@svc/core/testing';
import type { Store } from '@svc/core/store-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresStore } from './postgres-store.js';
import { TEST_DATABASE_URL, adminPool, dropSchema, testSchemaName } from './test-support.js';

// Two stores on one schema, each with its own pool: two worker processes sweeping the same database.
const schema = testSchemaName();
const admin = adminPool();
let one: Store;
let two: Store;

beforeAll(async () => {
  [one, two] = await Promise.all([
    createPostgresStore({ connectionString: TEST_DATABASE_URL, schema, max: 3 }),
    createPostgresStore({ connectionString: TEST_DATABASE_URL, schema, max: 3 }),
  ]);
});

afterAll(async () => {
  await Promise.allSettled([one?.close(), two?.close()]);
  await dropSchema(admin, schema);
  await admin.end();
});

describe('the expiry sweep on PostgreSQL', () => {
  it('two sweepers side by side expire each due session once, each with one session.expired row', async () => {
    const webhook = makeWebhook({ events: ['session.expired'] });
    await one.insertWebhook(webhook);
    const sessions = Array.from({ length: 240 }, () => makeSession({ accountId: webhook.accountId, expiresAt: at(10) }));
    await one.transaction(async (tx) => {
      for (const session of sessions) await tx.insertSession(session);
    });
    const clock = manualClock(at(100));
    const [byOne, byTwo] = await Promise.all([
      expireDueSessions({ store: one, clock, ids: defaultIds }, 20),
      expireDueSessions({ store: two, clock, ids: defaultIds }, 20),
    ]);
    expect(byOne + byTwo).toBe(240);
    const rows = await one.listDeliveries({ limit: 1000 });
    expect(rows).toHaveLength(240);
    expect(new Set(rows.map((row) => row.sessionId))).toEqual(new Set(sessions.map((session) => session.id)));
    expect(rows.every((row) => row.event === 'session.expired' && row.webhookId === webhook.id)).toBe(true);
  });

  it('skips a session another transaction holds, and expires it on the next sweep', async () => {
    const session = makeSession({ expiresAt: at(10) });
    await one.insertSession(session);
    const clock = manualClock(at(100));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = one.transaction(async (tx) => {
      await tx.lockSession(session.widgetId, session.id);
      locked();
      await held;
    });
    await isLocked;
    expect(await two.expireDueSessions({ now: clock.now(), limit: 10 })).toEqual([]);
    release();
    await holder;
    expect((await two.expireDueSessions({ now: clock.now(), limit: 10 })).map((s) => s.id)).toEqual([session.id]);
  });
});
