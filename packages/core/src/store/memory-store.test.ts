import { describeStoreContract, makeAccount } from '@svc/core/testing';
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from './memory-store.js';

describeStoreContract('memory', async () => {
  const store = createMemoryStore();
  return { store, cleanup: () => store.close() };
});

describe('memory store specifics', () => {
  it('serialises transactions: read-modify-write with awaits inside loses no update', async () => {
    const store = createMemoryStore();
    const account = makeAccount({ balance: 0 });
    await store.insertAccount(account);
    await Promise.all(
      Array.from({ length: 10 }, () =>
        store.transaction(async (tx) => {
          const current = await tx.getAccount(account.id);
          await new Promise((resolve) => setTimeout(resolve, 1));
          await tx.setAccountBalance(account.id, (current?.balance ?? 0) + 1);
        }),
      ),
    );
    expect((await store.getAccount(account.id))?.balance).toBe(10);
  });

  it('refuses work once closed', async () => {
    const store = createMemoryStore();
    await store.close();
    await expect(store.getAccount('acct_1')).rejects.toThrow('closed');
    await expect(store.transaction(async () => 1)).rejects.toThrow('closed');
  });
});
