import { expect, it } from 'vitest';
import type { Store, StoreOps } from '../../store/store.js';
import { at, makeAccount, makeApiKey, makeDocument, makeIdempotencyRecord, makeMessage, makeProduct, makeSession } from '../fixtures.js';

/** A promise plus the function that resolves it, to pause a transaction at a known point. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open = (): void => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

export function transactionContract(store: () => Store): void {
  it('commits every write together and returns what fn returns', async () => {
    const account = makeAccount({ balance: 10 });
    const session = makeSession({ accountId: account.id });
    const result = await store().transaction(async (tx) => {
      await tx.insertAccount(account);
      await tx.insertSession(session);
      await tx.insertMessage(makeMessage({ widgetId: session.widgetId, sessionId: session.id, seq: 1 }));
      return tx.debitAccount(account.id, 4);
    });
    expect(result).toBe(6);
    expect((await store().getAccount(account.id))?.balance).toBe(6);
    expect(await store().getSession(session.widgetId, session.id)).toEqual(session);
    expect(await store().listMessages({ widgetId: session.widgetId, sessionId: session.id, limit: 10 })).toHaveLength(1);
  });

  it('rolls every write back when fn throws, and rethrows its error', async () => {
    const account = makeAccount({ balance: 10 });
    const session = makeSession();
    const apiKey = makeApiKey();
    await store().insertAccount(account);
    await store().insertSession(session);
    await store().insertApiKey(apiKey);
    await store().upsertProducts('kb_tx', [makeProduct({ id: 'kept', name: 'Kept' })]);
    const failure = new Error('agent crashed after billing');

    const attempt = store().transaction(async (tx) => {
      await tx.insertAccount(makeAccount({ id: 'acct_rolled_back' }));
      await tx.debitAccount(account.id, 7);
      await tx.setAccountStatus(account.id, 'overdue');
      await tx.updateSession(session.widgetId, session.id, { status: 'resolved', resolvedAt: at(5), messageCount: 2 });
      await tx.insertSession(makeSession({ id: 'sess_rolled_back' }));
      await tx.insertMessage(makeMessage({ widgetId: session.widgetId, sessionId: session.id, seq: 1 }));
      await tx.revokeApiKey(apiKey.id, at(5));
      await tx.upsertProducts('kb_tx', [makeProduct({ id: 'kept', name: 'Renamed' }), makeProduct({ id: 'added' })]);
      await tx.insertDocument(makeDocument({ knowledgeBaseId: 'kb_tx' }));
      await tx.putIdempotencyRecord(makeIdempotencyRecord({ scope: 'tx', key: 'k' }));
      await tx.upsertVisitor(account.id, 'visitor', { name: 'Rolled back' }, at(5));
      await tx.getOrCreateSetting('tx-setting', () => 'rolled back');
      expect(await tx.expireSessions(at(10 ** 9))).toBe(1);
      throw failure;
    });

    await expect(attempt).rejects.toBe(failure);
    expect(await store().getAccount('acct_rolled_back')).toBeNull();
    expect(await store().getAccount(account.id)).toEqual(account);
    expect(await store().getSession(session.widgetId, session.id)).toEqual(session);
    expect(await store().getSession(session.widgetId, 'sess_rolled_back')).toBeNull();
    expect(await store().listMessages({ widgetId: session.widgetId, sessionId: session.id, limit: 10 })).toEqual([]);
    expect((await store().getApiKey(apiKey.id))?.revokedAt).toBeNull();
    expect((await store().listProducts({ knowledgeBaseId: 'kb_tx', limit: 10 })).map((p) => p.name)).toEqual(['Kept']);
    expect(await store().listDocuments('kb_tx')).toEqual([]);
    expect(await store().getIdempotencyRecord('tx', 'k')).toBeNull();
    expect(await store().getVisitor(account.id, 'visitor')).toBeNull();
    expect(await store().getOrCreateSetting('tx-setting', () => 'after')).toBe('after');
  });

  it('sees its own writes inside, and never shows them to other callers before commit', async () => {
    const account = makeAccount({ balance: 10 });
    const inside = gate();
    const finish = gate();
    const attempt = store().transaction(async (tx) => {
      await tx.insertAccount(account);
      expect(await tx.debitAccount(account.id, 1)).toBe(9);
      expect((await tx.getAccount(account.id))?.balance).toBe(9);
      inside.open();
      await finish.opened;
      throw new Error('abort');
    });
    await inside.opened;
    // Started outside the transaction while it is open: it must not observe the uncommitted account.
    const outside = store().getAccount(account.id);
    finish.open();
    await expect(attempt).rejects.toThrow('abort');
    expect(await outside).toBeNull();
  });

  it('joins store calls made inside fn to the transaction instead of blocking on it', async () => {
    const account = makeAccount({ balance: 10 });
    await expect(
      store().transaction(async (tx) => {
        await tx.insertAccount(account);
        // Through the store, not tx: same transaction, so it sees the write and is rolled back with it.
        expect(await store().debitAccount(account.id, 3)).toBe(7);
        await store().insertSession(makeSession({ id: 'sess_joined' }));
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await store().getAccount(account.id)).toBeNull();
    expect(await store().getSession('wgt_fixture', 'sess_joined')).toBeNull();
  });

  it('runs a nested transaction inside the outer one: both commit or neither does', async () => {
    const committed = makeAccount();
    const rolledBack = makeAccount();
    await store().transaction(async (tx) => {
      await tx.insertAccount(committed);
      await store().transaction((inner) => inner.insertAccount(makeAccount({ id: `${committed.id}_inner` })));
    });
    expect(await store().getAccount(`${committed.id}_inner`)).not.toBeNull();

    await expect(
      store().transaction(async (tx) => {
        await store().transaction((inner) => inner.insertAccount(rolledBack));
        await tx.debitAccount(committed.id, 1);
        throw new Error('outer fails after the inner one finished');
      }),
    ).rejects.toThrow('outer fails');
    expect(await store().getAccount(rolledBack.id)).toBeNull();
    expect((await store().getAccount(committed.id))?.balance).toBe(committed.balance);
  });

  it('undoes only a failed nested transaction when the outer one catches its error', async () => {
    const outer = makeAccount();
    const inner = makeAccount();
    await store().transaction(async (tx) => {
      await tx.insertAccount(outer);
      await store()
        .transaction(async (nested) => {
          await nested.insertAccount(inner);
          throw new Error('inner fails');
        })
        .catch(() => undefined);
      await tx.debitAccount(outer.id, 1);
    });
    expect((await store().getAccount(outer.id))?.balance).toBe(outer.balance - 1);
    expect(await store().getAccount(inner.id)).toBeNull();
  });

  it('refuses a transaction handle used after its transaction finished', async () => {
    let leaked: StoreOps | undefined;
    await store().transaction(async (tx) => {
      leaked = tx;
    });
    await expect(leaked?.insertAccount(makeAccount())).rejects.toThrow();
  });

  it('keeps concurrent transactions atomic', async () => {
    const account = makeAccount({ balance: 100 });
    await store().insertAccount(account);
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        store().transaction(async (tx) => {
          await tx.debitAccount(account.id, 2);
          await tx.insertSession(makeSession({ id: `sess_concurrent_${i}` }));
        }),
      ),
    );
    expect((await store().getAccount(account.id))?.balance).toBe(60);
    expect(await store().getSession('wgt_fixture', 'sess_concurrent_19')).not.toBeNull();
  });
}
