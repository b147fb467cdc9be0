import type { Store } from '@svc/core/store-kit';
import { describeStoreContract } from '@svc/core/testing';
import { afterAll, beforeAll } from 'vitest';
import { createPostgresStore } from './postgres-store.js';
import { TEST_DATABASE_URL, adminPool, dropSchema, testSchemaName, truncateAllTables } from './test-support.js';

const schema = testSchemaName();
const admin = adminPool();
let setup: Store | undefined;

beforeAll(async () => {
  // Creates and migrates the file's schema; fails (not skips) when PostgreSQL is unreachable.
  setup = await createPostgresStore({ connectionString: TEST_DATABASE_URL, schema, max: 2 });
});

afterAll(async () => {
  await setup?.close();
  await dropSchema(admin, schema);
  await admin.end();
});

describeStoreContract('PostgreSQL', async () => {
  await admin.query(`set search_path to "${schema}"`);
  await truncateAllTables({
    query: async (sql) => (await admin.query(sql)).rows,
    exec: async (sql) => {
      await admin.query(`set search_path to "${schema}"; ${sql}`);
    },
  });
  const store = await createPostgresStore({ connectionString: TEST_DATABASE_URL, schema, max: 5 });
  return { store, cleanup: () => store.close() };
});
