import { expect, it } from 'vitest';
import type { Store } from '../../store/store.js';
import { at, makeAccount, makeLedgerEntry } from '../fixtures.js';

export function accountContract(store: () => Store): void {
  it('round-trips an account with every field', async () => {
    const account = makeAccount({ balance: 12.75, status: 'overdue' });
    await store().insertAccount(account);
    const stored = await store().getAccount(account.id);
    expect(stored).toEqual(account);
    expect(stored?.createdAt).toBeInstanceOf(Date);
  });

  it('returns null for an unknown account and rejects a duplicate id', async () => {
    const account = makeAccount();
    await store().insertAccount(account);
    expect(await store().getAccount('acct_missing')).toBeNull();
    await expect(store().insertAccount({ ...account, name: 'Other' })).rejects.toThrow();
    expect((await store().getAccount(account.id))?.name).toBe(account.name);
  });

  it('hands out copies: mutating a returned or inserted object changes nothing stored', async () => {
    const account = makeAccount();
    await store().insertAccount(account);
    account.name = 'changed after insert';
    const first = await store().getAccount(account.id);
    if (!first) throw new Error('account not stored');
    first.balance = -1;
    first.createdAt.setFullYear(1999);
    expect(await store().getAccount(account.id)).toEqual({ ...account, name: 'Acme Outdoor' });
  });

  it('sets balance and status, saying whether the account exists', async () => {
    const account = makeAccount();
    await store().insertAccount(account);
    expect(await store().setAccountBalance(account.id, 42.5)).toBe(true);
    expect(await store().setAccountStatus(account.id, 'overdue')).toBe(true);
    expect(await store().getAccount(account.id)).toEqual({ ...account, balance: 42.5, status: 'overdue' });
    expect(await store().setAccountBalance('acct_missing', 1)).toBe(false);
    expect(await store().setAccountStatus('acct_missing', 'active')).toBe(false);
  });

  it('debits and returns the new balance, which may go below zero; null for an unknown account', async () => {
    const account = makeAccount({ balance: 2 });
    await store().insertAccount(account);
    expect(await store().debitAccount(account.id, 0.75)).toBe(1.25);
    expect(await store().debitAccount(account.id, 3)).toBe(-1.75);
    expect((await store().getAccount(account.id))?.balance).toBe(-1.75);
    expect(await store().debitAccount('acct_missing', 1)).toBeNull();
  });

  it('keeps the balance exact under 50 concurrent debits', async () => {
    const account = makeAccount({ balance: 100 });
    await store().insertAccount(account);
    const balances = await Promise.all(Array.from({ length: 50 }, () => store().debitAccount(account.id, 1.5)));
    expect((await store().getAccount(account.id))?.balance).toBe(25);
    // Every debit saw a distinct balance: none was lost or applied twice.
    expect(new Set(balances).size).toBe(50);
    expect(Math.min(...balances.map(Number))).toBe(25);
  });

  it('charges an account: debit and ledger row together, nothing for an unknown account', async () => {
    const account = makeAccount({ balance: 10 });
    await store().insertAccount(account);
    const entry = makeLedgerEntry({ accountId: account.id, total: 3.5 });
    expect(await store().chargeAccount(entry)).toBe(6.5);
    expect((await store().getAccount(account.id))?.balance).toBe(6.5);
    expect(await store().listLedgerEntries(account.id, 10)).toEqual([entry]);
    expect(await store().chargeAccount(makeLedgerEntry({ accountId: 'acct_unknown' }))).toBeNull();
    expect(await store().listLedgerEntries('acct_unknown', 10)).toEqual([]);
    // In a transaction that fails, neither the debit nor the row stays.
    await expect(
      store().transaction(async (tx) => {
        await tx.chargeAccount(makeLedgerEntry({ accountId: account.id, total: 1 }));
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    expect((await store().getAccount(account.id))?.balance).toBe(6.5);
    expect(await store().listLedgerEntries(account.id, 10)).toHaveLength(1);
  });

  it('keeps the balance exact under 40 concurrent charges', async () => {
    const account = makeAccount({ balance: 100 });
    await store().insertAccount(account);
    await Promise.all(Array.from({ length: 40 }, () => store().chargeAccount(makeLedgerEntry({ accountId: account.id, total: 2 }))));
    expect((await store().getAccount(account.id))?.balance).toBe(20);
    expect(await store().listLedgerEntries(account.id, 100)).toHaveLength(40);
  });

  it('lists ledger entries of one account newest first, limited, with every field', async () => {
    const accountId = 'acct_ledger';
    const oldest = makeLedgerEntry({ accountId, createdAt: at(1) });
    const middle = makeLedgerEntry({ accountId, createdAt: at(2), widgetId: null, sessionId: null, messageId: null });
    const newest = makeLedgerEntry({ accountId, createdAt: at(3), operation: 'session.create', total: 1 });
    const otherAccount = makeLedgerEntry({ accountId: 'acct_other', createdAt: at(4) });
    for (const entry of [middle, newest, otherAccount, oldest]) await store().insertLedgerEntry(entry);

    expect(await store().listLedgerEntries(accountId, 10)).toEqual([newest, middle, oldest]);
    expect(await store().listLedgerEntries(accountId, 2)).toEqual([newest, middle]);
    expect(await store().listLedgerEntries('acct_none', 10)).toEqual([]);
    await expect(store().insertLedgerEntry(oldest)).rejects.toThrow();
  });
}
