import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { Store } from '@svc/core';
import { at, makeAccount } from '@svc/core/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresStore, migrate } from './index.js';
import { migrationLabel, runMigrations } from './migrate.js';
import { MIGRATIONS } from './migrations.js';
import { PUBLIC_ORIGIN_QUERY } from './ops/guards.js';
import { openPostgresDriver } from './postgres-driver.js';
import { TEST_DATABASE_URL, adminPool, dropSchema, testSchemaName, waitUntil } from './test-support.js';
import { LOCK_PROBE_SCHEMA_SQL, unsafeIncrement } from './testing/lock-probe.js';

const TSX = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));
const CONTENDER = fileURLToPath(new URL('./testing/lock-contender.ts', import.meta.url));

const admin = adminPool();
const schemas: string[] = [];
const opened: Store[] = [];

/** A new schema for one test, dropped after the file. */
function schemaForTest(): string {
  const schema = testSchemaName();
  schemas.push(schema);
  return schema;
}

async function open(schema: string): Promise<Store> {
  const store = await createPostgresStore({ connectionString: TEST_DATABASE_URL, schema, max: 2 });
  opened.push(store);
  return store;
}

/** Requests for the advisory lock behind `withLock(name)` on `schema`, granted or waiting. */
async function advisoryRequests(schema: string, name: string, granted: boolean): Promise<number> {
  const { rows } = await admin.query<{ n: number }>(
    `select count(*)::int as n from pg_locks
      where locktype = 'advisory' and objsubid = 1 and granted = $3
        and ((classid::bigint << 32) | objid::bigint) = hashtextextended($1 || '/' || $2, 0)`,
    [schema, name, granted],
  );
  return rows[0]?.n ?? 0;
}

beforeAll(async () => {
  // Fails, rather than skips, the file when PostgreSQL is unreachable.
  await admin.query('select 1');
});

afterAll(async () => {
  await Promise.allSettled(opened.map((store) => store.close()));
  for (const schema of schemas) await dropSchema(admin, schema);
  await admin.end();
});

describe('createPostgresStore', () => {
  it('creates its schema, migrates it once under concurrent opens, and records the version', async () => {
    const schema = schemaForTest();
    const stores = await Promise.all([open(schema), open(schema), open(schema)]);
    const reports = await Promise.all(stores.map((store) => migrate(store)));
    expect(reports.filter((report) => report.length > 0)).toEqual([MIGRATIONS.map(migrationLabel)]);
    expect(await migrate(stores[0])).toEqual([]);
    const { rows } = await admin.query(`select version, name from "${schema}".schema_migrations order by version`);
    expect(rows).toEqual(MIGRATIONS.map(({ version, name }) => ({ version, name })));
  });

  it('upgrades a database created by migration 1: existing widgets and sessions get no identity binding', async () => {
    const schema = schemaForTest();
    const driver = await openPostgresDriver({ connectionString: TEST_DATABASE_URL, schema, max: 1 });
    try {
      expect(await runMigrations(driver, MIGRATIONS.slice(0, 1))).toEqual(['1_initial']);
      // Rows as the previous release wrote them, without the new columns.
      await driver.query(
        `insert into widgets (id, account_id, name, instructions, greeting, language, timezone, knowledge_base_ids, forms,
           session_ttl_seconds, theme, created_at)
         values ('wgt_v1', 'acct_v1', 'Old', '', 'Hi', 'en', 'UTC', '[]', '[]', 3600, '{}', $1)`,
        [at(0)],
      );
      await driver.query(
        `insert into sessions (widget_id, id, account_id, visitor_id, status, message_count, created_at, last_activity_at, expires_at)
         values ('wgt_v1', 'sess_v1', 'acct_v1', 'visitor', 'active', 0, $1, $1, $2)`,
        [at(0), at(3600)],
      );
    } finally {
      await driver.close();
    }

    const store = await open(schema);
    expect(await migrate(store)).toEqual(MIGRATIONS.slice(1).map(migrationLabel));
    expect((await store.getWidget('wgt_v1'))?.identitySecrets).toEqual([]);
    expect((await store.getSession('wgt_v1', 'sess_v1'))?.identitySub).toBeNull();
    expect(await store.listDeliveries({ limit: 10 })).toEqual([]);
  });

  it('upgrading to migration 4 marks client-chosen session ids as server-created, so no public key opens them (issue 10, defect 2)', async () => {
    const schema = schemaForTest();
    const driver = await openPostgresDriver({ connectionString: TEST_DATABASE_URL, schema, max: 1 });
    const generated = 'sess_0123456789abcdefABCDEF';
    try {
      await runMigrations(driver, MIGRATIONS.filter((migration) => migration.version < 4));
      for (const id of ['order-1234', generated, 'sess_short']) {
        await driver.query(
          `insert into sessions (widget_id, id, account_id, visitor_id, status, message_count, created_at, last_activity_at, expires_at)
           values ('wgt_v2', $1, 'acct_v2', 'visitor', 'active', 0, $2, $2, $3)`,
          [id, at(0), at(3600)],
        );
      }
    } finally {
      await driver.close();
    }
    const store = await open(schema);
    expect((await store.getSession('wgt_v2', 'order-1234'))?.creatorKeyKind).toBe('secret');
    expect((await store.getSession('wgt_v2', 'sess_short'))?.creatorKeyKind).toBe('secret');
    expect((await store.getSession('wgt_v2', generated))?.creatorKeyKind).toBe('public');
  });

  it('answers the CORS origin lookup from the partial GIN index, not by reading every key (issue 10, defect 3)', async () => {
    const schema = schemaForTest();
    await open(schema);
    const client = await admin.connect();
    try {
      await client.query(`set search_path to "${schema}"; set enable_seqscan = off`);
      const { rows } = await client.query(
        `explain ${PUBLIC_ORIGIN_QUERY}`,
        ['https://shop.example', null],
      );
      expect(rows.map((row: Record<string, string>) => Object.values(row)[0]).join('\n')).toContain('api_keys_public_origins');
    } finally {
      await client.query('reset search_path; reset enable_seqscan');
      client.release();
    }
  });

  it('refuses a database migrated by a newer release', async () => {
    const schema = schemaForTest();
    await open(schema);
    await admin.query(`insert into "${schema}".schema_migrations (version, name) values (999, 'from_the_future')`);
    await expect(createPostgresStore({ connectionString: TEST_DATABASE_URL, schema })).rejects.toThrow(/newer release/);
  });

  it('keeps stores on different schemas apart', async () => {
    const [one, two] = await Promise.all([open(schemaForTest()), open(schemaForTest())]);
    const account = makeAccount();
    await one.insertAccount(account);
    expect(await one.getAccount(account.id)).toEqual(account);
    expect(await two.getAccount(account.id)).toBeNull();
  });

  it('rejects a schema name that is not a plain identifier', async () => {
    await expect(createPostgresStore({ connectionString: TEST_DATABASE_URL, schema: 'x"; drop schema public; --' })).rejects.toThrow(
      /Invalid schema name/,
    );
  });

  it('fails when the database is unreachable', async () => {
    await expect(createPostgresStore({ connectionString: 'postgres://postgres@127.0.0.1:1/none' })).rejects.toThrow(/ECONNREFUSED|connect/);
  });
});

describe('withLock on PostgreSQL', () => {
  it('excludes and orders holders across separate stores (separate pools) by arrival', async () => {
    const schema = schemaForTest();
    const [a, b, c, d] = await Promise.all([open(schema), open(schema), open(schema), open(schema)]);
    const name = 'session:wgt_1/sess_1';
    const order: string[] = [];
    let release = (): void => undefined;
    const holding = new Promise<void>((resolve) => {
      release = resolve;
    });

    const calls = [
      a.withLock(name, async () => {
        order.push('A');
        await holding;
      }),
    ];
    await waitUntil(async () => (await advisoryRequests(schema, name, true)) === 1);
    // Each request is queued in PostgreSQL before the next is made, so arrival order is known.
    const waiters = [
      ['B', b],
      ['C', c],
      ['D', d],
    ] as const;
    for (const [index, [label, store]] of waiters.entries()) {
      calls.push(store.withLock(name, async () => void order.push(label)));
      await waitUntil(async () => (await advisoryRequests(schema, name, false)) === index + 1);
    }
    expect(order).toEqual(['A']);
    release();
    await Promise.all(calls);
    expect(order).toEqual(['A', 'B', 'C', 'D']);
    expect(await advisoryRequests(schema, name, true)).toBe(0);
  });

  it('excludes a holder in another OS process', async () => {
    const schema = schemaForTest();
    const store = await open(schema);
    await admin.query(`set search_path to "${schema}"; ${LOCK_PROBE_SCHEMA_SQL}`);
    const probe = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 1, options: `-c search_path=${schema}` });
    const iterations = 5;
    const holdMs = 30;
    const child = spawn(TSX, [CONTENDER, TEST_DATABASE_URL, schema, 'shared-lock', String(iterations), String(holdMs)], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    try {
      const [ready] = (await once(child.stdout, 'data')) as [Buffer];
      expect(ready.toString()).toBe('ready\n');
      const exited = once(child, 'exit');
      child.stdin.write('go\n');
      for (let i = 0; i < iterations; i++) await store.withLock('shared-lock', () => unsafeIncrement(probe, 'parent', holdMs));
      const [code] = (await exited) as [number | null];
      expect(code).toBe(0);

      const counter = await probe.query<{ value: number }>('select value from lock_probe_counter');
      expect(counter.rows[0]?.value).toBe(2 * iterations);
      const intervals = await probe.query<{ owner: string; started_at: Date; ended_at: Date }>(
        'select owner, started_at, ended_at from lock_probe_intervals order by started_at',
      );
      expect(intervals.rows.filter((row) => row.owner === 'child')).toHaveLength(iterations);
      for (const [index, row] of intervals.rows.entries()) {
        const previous = intervals.rows[index - 1];
        if (previous) expect(row.started_at.getTime()).toBeGreaterThanOrEqual(previous.ended_at.getTime());
      }
    } finally {
      child.kill();
      await probe.end();
    }
  });
});
