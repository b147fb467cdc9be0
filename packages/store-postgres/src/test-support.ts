import pg from 'pg';
import type { Queryable } from './sql-driver.js';

/** The PostgreSQL the tests use. Unreachable means failing tests, never skipped ones. */
export const TEST_DATABASE_URL = process.env.SVC_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A fresh schema name per test file, so files run in parallel on one database without seeing each other. */
export function testSchemaName(): string {
  return `t_${Math.random().toString(36).slice(2, 10)}`;
}

/** A small pool outside any store, for setup, inspection and dropping the test schema. */
export function adminPool(): pg.Pool {
  const pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 2 });
  pool.on('error', () => undefined);
  return pool;
}

export async function dropSchema(pool: pg.Pool, schema: string): Promise<void> {
  await pool.query(`drop schema if exists "${schema}" cascade`);
}

/** Empties every table but the migration record, so a migrated database can be reused by the next test. */
export async function truncateAllTables(db: Queryable): Promise<void> {
  const rows = await db.query<{ tablename: string }>(
    `select tablename from pg_tables where schemaname = current_schema() and tablename <> 'schema_migrations'`,
  );
  if (rows.length > 0) await db.exec(`truncate ${rows.map((row) => `"${row.tablename}"`).join(', ')}`);
}

/** Polls `check` until it holds, failing after `timeoutMs`. */
export async function waitUntil(check: () => Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
