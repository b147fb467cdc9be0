import type { Store } from '@svc/core/store-kit';
import { at, makeAccount, makeSession } from '@svc/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresStore, migrate } from './index.js';
import { migrationLabel, runMigrations } from './migrate.js';
import { MIGRATIONS } from './migrations.js';
import { PUBLIC_ORIGIN_QUERY } from './ops/guards.js';
import { openPostgresDriver } from './postgres-driver.js';
import { TEST_DATABASE_URL, adminPool, dropSchema, testSchemaName, waitUntil } from './test-support.js';

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

  it('upgrading to migration 14 counts the existing conversations, replies and charges into the per-day analytics', async () => {
    const schema = schemaForTest();
    const driver = await openPostgresDriver({ connectionString: TEST_DATABASE_URL, schema, max: 1 });
    const day = (hour: number) => new Date(Date.UTC(2026, 2, 2, hour));
    try {
      await runMigrations(driver, MIGRATIONS.filter((migration) => migration.version < 14));
      const session = (id: string, status: string, extra: string) =>
        driver.query(
          `insert into sessions (widget_id, id, account_id, visitor_id, status, message_count, created_at, last_activity_at, expires_at, creator_key_kind,
                                 rating, handed_off, resolved_by_operator)
           values ('wgt_up', $1, 'acct_up', 'visitor', $2, 2, $3, $3, $4, 'secret', ${extra})`,
          [id, status, day(1), day(40)],
        );
      await session('sess_agent', 'resolved', `'positive', false, false`);
      await session('sess_operator', 'resolved', `null, true, true`);
      await session('sess_open', 'active', `'negative', false, false`);
      const reply = ([id, sessionId, outcome, ended]: [string, string, string, boolean]) =>
        driver.query(
          `insert into messages (id, widget_id, session_id, seq, role, content, products, actions, forms, session_ended, created_at, outcome)
           values ($1, 'wgt_up', $2, 2, 'assistant', 'A reply', '[]', '[]', '[]', $3, $4, $5)`,
          [id, sessionId, ended, day(2), outcome],
        );
      await reply(['msg_1', 'sess_agent', 'answered', true]);
      await reply(['msg_2', 'sess_operator', 'handed_off', false]);
      await reply(['msg_3', 'sess_open', 'unanswered', false]);
      await driver.query(
        `insert into ledger_entries (id, account_id, operation, widget_id, session_id, message_id, credits, total, created_at)
         values ('led_1', 'acct_up', 'message.turn', 'wgt_up', 'sess_agent', 'msg_1', '{"chat": 1.5, "retrieval": 1}', 2.5, $1)`,
        [day(2)],
      );
    } finally {
      await driver.close();
    }
    const store = await open(schema);
    const query = { accountId: 'acct_up', from: day(0), to: new Date(Date.UTC(2026, 2, 3)), now: day(3) };
    expect(await store.analyzeSessions(query)).toEqual({
      sessions: 3,
      messages: 6,
      perDay: [{ date: '2026-03-02', count: 3 }],
      resolutions: { agent: 1, ended: 0, operator: 1, expired: 0 },
      ratings: { positive: 1, negative: 1 },
      handedOff: 1,
      turnsPerDay: [{ date: '2026-03-02', turns: 3, answered: 1, unanswered: 1, handedOff: 1, feedbackUp: 0, feedbackDown: 0 }],
    });
    expect((await store.analyzeLedger(query)).total).toBe(2.5);
    // From here on the triggers keep them: the open conversation ends.
    await store.updateSession('wgt_up', 'sess_open', { status: 'resolved', resolvedAt: day(3) });
    expect((await store.analyzeSessions(query)).resolutions).toEqual({ agent: 1, ended: 1, operator: 1, expired: 0 });
  });

  it('upgrading to migration 12 puts the documents already stored in their knowledge base’s manual source (issue 22)', async () => {
    const schema = schemaForTest();
    const driver = await openPostgresDriver({ connectionString: TEST_DATABASE_URL, schema, max: 1 });
    try {
      await runMigrations(driver, MIGRATIONS.filter((migration) => migration.version < 12));
      await driver.query(`insert into knowledge_bases (id, account_id, name, created_at) values ('kb_old', 'acct_old', 'Help', $1), ('kb_empty', 'acct_old', 'Empty', $1)`, [at(0)]);
      await driver.query(`insert into documents (knowledge_base_id, id, title, content, url, created_at) values ('kb_old', 'doc_1', 'Hours', 'Open daily.', null, $1), ('kb_old', 'doc_2', 'Returns', '30 days.', null, $2)`, [at(1), at(2)]);
    } finally {
      await driver.close();
    }
    const store = await open(schema);
    const [manual, ...others] = await store.listSources('kb_old');
    expect(others).toEqual([]);
    expect(manual).toMatchObject({ knowledgeBaseId: 'kb_old', accountId: 'acct_old', type: 'manual', status: 'ready', url: null, lastSync: null, createdAt: at(1) });
    expect(manual?.id).toMatch(/^src_[0-9a-f]{22}$/);
    expect((await store.listDocuments('kb_old')).map((doc) => doc.sourceId)).toEqual([manual?.id, manual?.id]);
    expect(await store.countSourceDocuments('kb_old')).toEqual({ [manual!.id]: 2 });
    expect(await store.listSources('kb_empty')).toEqual([]);
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

describe('session row locks and turn events on PostgreSQL', () => {
  it('tells subscribers of another store (another pool, as another process) about an event once it commits', async () => {
    const schema = schemaForTest();
    const [publisher, subscriber] = await Promise.all([open(schema), open(schema)]);
    const seen: string[] = [];
    subscriber.subscribeSignals((event) => seen.push('jobId' in event ? event.jobId : event.type));
    // The LISTEN connection opens on the first subscription.
    await waitUntil(async () => {
      const { rows } = await admin.query<{ n: number }>(`select count(*)::int as n from pg_stat_activity where query like 'listen "svc_turns_${schema}"'`);
      return rows[0]!.n === 1;
    });
    await publisher.transaction(async (tx) => {
      await tx.publishSignal({ type: 'finished', jobId: 'job_cross', widgetId: 'wgt_1', sessionId: 'sess_1' });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(seen).toEqual([]);
    });
    await waitUntil(async () => seen.length === 1);
    expect(seen).toEqual(['job_cross']);
  });

  it('gives up waiting for a locked session row after the lock timeout instead of hanging', async () => {
    const schema = schemaForTest();
    const holder = await open(schema);
    const waiter = await createPostgresStore({ connectionString: TEST_DATABASE_URL, schema, max: 2, lockTimeoutMs: 200 });
    opened.push(waiter);
    const session = { ...makeSession(), widgetId: 'wgt_lock', id: 'sess_lock' };
    await holder.insertSession(session);
    let release = (): void => undefined;
    const held = holder.transaction(async (tx) => {
      await tx.lockSession('wgt_lock', 'sess_lock');
      await new Promise<void>((resolve) => (release = resolve));
    });
    await waitUntil(async () => {
      const { rows } = await admin.query<{ n: number }>(`select count(*)::int as n from pg_stat_activity where state = 'idle in transaction'`);
      return rows[0]!.n >= 1;
    });
    const started = Date.now();
    await expect(waiter.transaction((tx) => tx.lockSession('wgt_lock', 'sess_lock'))).rejects.toThrow(/lock timeout/);
    expect(Date.now() - started).toBeLessThan(2_000);
    release();
    await held;
    expect(await waiter.transaction((tx) => tx.lockSession('wgt_lock', 'sess_lock'))).toMatchObject({ id: 'sess_lock' });
  });

  it('runs many transactions on one locked row through a pool of two without exhausting it', async () => {
    const schema = schemaForTest();
    const store = await open(schema);
    const session = { ...makeSession(), widgetId: 'wgt_pool', id: 'sess_pool' };
    await store.insertSession(session);
    await Promise.all(
      Array.from({ length: 40 }, () =>
        store.transaction(async (tx) => {
          const locked = await tx.lockSession('wgt_pool', 'sess_pool');
          // A store call made inside the transaction joins it rather than asking the pool for a second connection.
          await store.getSession('wgt_pool', 'sess_pool');
          await tx.updateSession('wgt_pool', 'sess_pool', { messageCount: locked!.messageCount + 1 });
        }),
      ),
    );
    expect((await store.getSession('wgt_pool', 'sess_pool'))!.messageCount).toBe(40);
  });
});
