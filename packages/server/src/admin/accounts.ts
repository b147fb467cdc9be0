import { defaultIds, SvcError, type Account, type Store } from '@svc/core';

function checkCredits(value: number, field: string): number {
  if (!Number.isFinite(value) || value < 0) {
    throw new SvcError('validation_failed', `${field} must be a number of credits, 0 or more.`, { field });
  }
  return value;
}

export async function createAccount(store: Store, input: { name: string; credits?: number }): Promise<Account> {
  const name = input.name.trim();
  if (name === '' || name.length > 200) throw new SvcError('validation_failed', 'name must be 1-200 characters.', { field: 'name' });
  const account: Account = {
    id: defaultIds.random('acct'),
    name,
    balance: checkCredits(input.credits ?? 1000, 'credits'),
    status: 'active',
    createdAt: new Date(),
  };
  await store.insertAccount(account);
  return account;
}

export async function setCredits(store: Store, accountId: string, balance: number): Promise<Account> {
  checkCredits(balance, 'balance');
  if (!(await store.setAccountBalance(accountId, balance))) {
    throw new SvcError('validation_failed', `Account ${accountId} does not exist.`, { field: 'account' });
  }
  return (await store.getAccount(accountId))!;
}
