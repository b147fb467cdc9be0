import type { Delivery, Store, TurnJob } from '@svc/core/store-kit';
import { at, makeDelivery, makeTurnJob } from '@svc/core/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPostgresStore } from './postgres-store.js';
import { TEST_DATABASE_URL, adminPool, dropSchema, testSchemaName, truncateAllTables } from './test-support.js';

// Two stores on one schema, each with its own pools: what two worker processes sharing a database look like.
const schema = testSchemaName();
const admin = adminPool();
let one: Store;
let two: Store;

const NOW = at(1_000);
const LEASE_MS = 60_000;

beforeAll(async () => {
  [one, two] = await Promise.all([
    createPostgresStore({ connectionString: TEST_DATABASE_URL, schema, max: 3 }),
    createPostgresStore({ connectionString: TEST_DATABASE_URL, schema, max: 3 }),
  ]);
});

beforeEach(async () => {
  await truncateAllTables({
    query: async (sql) => (await admin.query(sql.replaceAll('current_schema()', `'${schema}'`))).rows,
    exec: async (sql) => {
      await admin.query(`set search_path to "${schema}"; ${sql}`);
    },
  });
});

afterAll(async () => {
  await Promise.allSettled([one?.close(), two?.close()]);
  await dropSchema(admin, schema);
  await admin.end();
});

const claimJobs = (store: Store, owner: string, limit: number): Promise<TurnJob[]> =>
  store.claimTurnJobs({ owner, now: NOW, leaseMs: LEASE_MS, limit });

const claimDeliveries = (store: Store, owner: string, limit: number): Promise<Delivery[]> =>
  store.claimDeliveries({ owner, now: NOW, leaseMs: LEASE_MS, limit });

/** Two workers per store, each claiming in a loop until a claim comes back empty. */
function workers(): Array<{ store: Store; owner: string }> {
  return [
    { store: one, owner: 'wrk_one_a' },
    { store: one, owner: 'wrk_one_b' },
    { store: two, owner: 'wrk_two_a' },
    { store: two, owner: 'wrk_two_b' },
  ];
}

async function insertAll<T>(items: T[], insert: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += 20) await Promise.all(items.slice(i, i + 20).map(insert));
}

describe('turn job claims across stores', () => {
  it('gives two simultaneous claims on separate stores disjoint jobs, together all of them', async () => {
    const jobs = Array.from({ length: 10 }, (_, i) => makeTurnJob({ sessionId: `sess_${i}`, createdAt: at(i) }));
    await insertAll(jobs, (job) => one.insertTurnJob(job));
    const [a, b] = await Promise.all([claimJobs(one, 'wrk_one', 10), claimJobs(two, 'wrk_two', 10)]);
    const claimed = [...a, ...b].map((job) => job.id);
    expect(claimed).toHaveLength(jobs.length);
    expect(new Set(claimed)).toEqual(new Set(jobs.map((job) => job.id)));
  });

  it("lets only one of two simultaneous claims on separate stores take a session's first job, and neither its second", async () => {
    const first = makeTurnJob({ sessionId: 'sess_ordered', createdAt: at(1) });
    const second = makeTurnJob({ sessionId: 'sess_ordered', createdAt: at(2) });
    await one.insertTurnJob(first);
    await one.insertTurnJob(second);
    const [a, b] = await Promise.all([claimJobs(one, 'wrk_one', 10), claimJobs(two, 'wrk_two', 10)]);
    expect([...a, ...b].map((job) => job.id)).toEqual([first.id]);
  });

  it('claims each of 200 queued jobs exactly once with two stores claiming in a loop', async () => {
    const jobs = Array.from({ length: 200 }, (_, i) => makeTurnJob({ sessionId: `sess_${i}`, createdAt: at(i % 7) }));
    await insertAll(jobs, (job) => one.insertTurnJob(job));
    const claims = new Map<string, string[]>();
    await Promise.all(
      workers().map(async ({ store, owner }) => {
        for (;;) {
          const claimed = await claimJobs(store, owner, 7);
          if (claimed.length === 0) return;
          for (const job of claimed) claims.set(job.id, [...(claims.get(job.id) ?? []), owner]);
        }
      }),
    );
    expect(claims.size).toBe(jobs.length);
    expect([...claims.values()].filter((owners) => owners.length !== 1)).toEqual([]);
    const { rows } = await admin.query(`select status, attempts, count(*)::int as n from "${schema}".turn_jobs group by 1, 2`);
    expect(rows).toEqual([{ status: 'running', attempts: 1, n: 200 }]);
  });

  it("runs 200 jobs of 40 sessions with two stores: each once, a session's jobs one at a time and in order", async () => {
    const sessions = 40;
    const jobs = Array.from({ length: 200 }, (_, i) => makeTurnJob({ sessionId: `sess_${i % sessions}`, createdAt: at(i) }));
    await insertAll(jobs, (job) => one.insertTurnJob(job));
    const order = new Map(jobs.map((job, i) => [job.id, Math.floor(i / sessions)]));
    const nextInSession = new Map<string, number>();
    const running = new Set<string>();
    const violations: string[] = [];
    const claimed: string[] = [];

    await Promise.all(
      workers().map(async ({ store, owner }) => {
        for (;;) {
          const batch = await claimJobs(store, owner, 5);
          if (batch.length === 0) return;
          for (const job of batch) {
            claimed.push(job.id);
            if (running.has(job.sessionId)) violations.push(`${job.id}: ${job.sessionId} already had a running job`);
            if (order.get(job.id) !== (nextInSession.get(job.sessionId) ?? 0)) violations.push(`${job.id}: out of order`);
            running.add(job.sessionId);
            nextInSession.set(job.sessionId, (order.get(job.id) ?? 0) + 1);
          }
          for (const job of batch) {
            // Forgotten before the job is finished in the database, so no other claim can see it done before we do.
            running.delete(job.sessionId);
            await store.finishTurnJob(job.id, { status: 'done', error: null, at: NOW });
          }
        }
      }),
    );
    expect(violations).toEqual([]);
    expect(claimed).toHaveLength(jobs.length);
    expect(new Set(claimed).size).toBe(jobs.length);
    const { rows } = await admin.query(`select status, attempts, count(*)::int as n from "${schema}".turn_jobs group by 1, 2`);
    expect(rows).toEqual([{ status: 'done', attempts: 1, n: 200 }]);
  });
});

describe('delivery claims across stores', () => {
  it('gives two simultaneous claims on separate stores disjoint deliveries, together all of them', async () => {
    const deliveries = Array.from({ length: 10 }, (_, i) => makeDelivery({ nextAttemptAt: at(i) }));
    await insertAll(deliveries, (delivery) => one.insertDelivery(delivery));
    const [a, b] = await Promise.all([claimDeliveries(one, 'wrk_one', 10), claimDeliveries(two, 'wrk_two', 10)]);
    const claimed = [...a, ...b].map((delivery) => delivery.id);
    expect(claimed).toHaveLength(deliveries.length);
    expect(new Set(claimed)).toEqual(new Set(deliveries.map((delivery) => delivery.id)));
  });

  it('claims each of 200 due deliveries exactly once with two stores claiming and sending in a loop', async () => {
    const deliveries = Array.from({ length: 200 }, (_, i) => makeDelivery({ nextAttemptAt: at(i % 11), createdAt: at(i % 5) }));
    await insertAll(deliveries, (delivery) => one.insertDelivery(delivery));
    const claims = new Map<string, string[]>();
    await Promise.all(
      workers().map(async ({ store, owner }) => {
        for (;;) {
          const claimed = await claimDeliveries(store, owner, 7);
          if (claimed.length === 0) return;
          for (const delivery of claimed) claims.set(delivery.id, [...(claims.get(delivery.id) ?? []), owner]);
          await Promise.all(
            claimed.map((delivery) =>
              store.recordDeliveryAttempt(delivery.id, { at: NOW, ok: true, status: 200, error: null, nextAttemptAt: null }),
            ),
          );
        }
      }),
    );
    expect(claims.size).toBe(deliveries.length);
    expect([...claims.values()].filter((owners) => owners.length !== 1)).toEqual([]);
    const { rows } = await admin.query(`select status, attempts, count(*)::int as n from "${schema}".deliveries group by 1, 2`);
    expect(rows).toEqual([{ status: 'delivered', attempts: 1, n: 200 }]);
  });
});
