import type { Store } from '@svc/core/store-kit';
import { at, makeAccount, makeApiKey, makeWidget } from '@svc/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresStore } from './index.js';
import { TEST_DATABASE_URL, adminPool, dropSchema, testSchemaName } from './test-support.js';

const admin = adminPool();
const schema = testSchemaName();
const opened: Store[] = [];
const TTL_MS = 400;

/** One process's store; `queries` counts its round trips. */
async function open(): Promise<{ store: Store; queries: () => number }> {
  let count = 0;
  const store = await createPostgresStore({ connectionString: TEST_DATABASE_URL, schema, max: 2, lookupCacheMs: TTL_MS, onQuery: () => count++ });
  opened.push(store);
  return { store, queries: () => count };
}

afterAll(async () => {
  await Promise.allSettled(opened.map((store) => store.close()));
  await dropSchema(admin, schema);
  await admin.end();
});

describe('API key and widget lookups kept in memory (PostgreSQL, two processes)', () => {
  it('answers repeated lookups without a round trip; revocation and widget changes apply at once here, within the TTL elsewhere', async () => {
    const here = await open();
    const elsewhere = await open();
    const account = makeAccount();
    const widget = makeWidget({ accountId: account.id });
    const key = makeApiKey({ accountId: account.id });
    await here.store.insertAccount(account);
    await here.store.insertWidget(widget);
    await here.store.insertApiKey(key);

    for (const process of [here, elsewhere]) {
      expect((await process.store.findApiKeyByHash(key.hash))?.revokedAt).toBeNull();
      expect((await process.store.getWidget(widget.id))?.name).toBe(widget.name);
      const before = process.queries();
      expect((await process.store.findApiKeyByHash(key.hash))?.id).toBe(key.id);
      expect((await process.store.getWidget(widget.id))?.id).toBe(widget.id);
      expect(process.queries()).toBe(before);
    }

    const started = Date.now();
    await here.store.revokeApiKey(key.id, at(5));
    await here.store.updateWidget(widget.id, { name: 'Renamed' });
    // This process: at once.
    expect((await here.store.findApiKeyByHash(key.hash))?.revokedAt).toEqual(at(5));
    expect((await here.store.getWidget(widget.id))?.name).toBe('Renamed');
    // Another process: the cached records until the TTL runs out, then the changes.
    if (Date.now() - started < TTL_MS / 2) {
      expect((await elsewhere.store.findApiKeyByHash(key.hash))?.revokedAt).toBeNull();
    }
    await new Promise((resolve) => setTimeout(resolve, TTL_MS + 50));
    expect((await elsewhere.store.findApiKeyByHash(key.hash))?.revokedAt).toEqual(at(5));
    expect((await elsewhere.store.getWidget(widget.id))?.name).toBe('Renamed');
  });

  it('reads through inside a transaction, and forgets records a transaction changed once it ends', async () => {
    const { store } = await open();
    const account = makeAccount();
    const widget = makeWidget({ accountId: account.id });
    await store.insertAccount(account);
    await store.insertWidget(widget);
    expect((await store.getWidget(widget.id))?.name).toBe(widget.name);
    await store.transaction(async (tx) => {
      await tx.updateWidget(widget.id, { name: 'In a transaction' });
      expect((await tx.getWidget(widget.id))?.name).toBe('In a transaction');
    });
    expect((await store.getWidget(widget.id))?.name).toBe('In a transaction');
    // A returned record is a copy: changing it changes nothing cached.
    const copy = await store.getWidget(widget.id);
    copy!.name = 'Mutated';
    expect((await store.getWidget(widget.id))?.name).toBe('In a transaction');
  });
});
