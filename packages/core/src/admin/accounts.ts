import type { Account } from '../domain.js';
import { SvcError } from '../errors.js';
import type { AdminContext } from './context.js';

/** What an operator sees of an account. */
export interface AccountView {
  id: string;
  name: string;
  balance: number;
  status: Account['status'];
}

export const accountView = (account: Account): AccountView => ({
  id: account.id,
  name: account.name,
  balance: account.balance,
  status: account.status,
});

function checkCredits(value: number, field: string): number {
  if (!Number.isFinite(value) || value < 0) {
    throw new SvcError('validation_failed', `${field} must be a number of credits, 0 or more.`, { field });
  }
  return value;
}

/** A new tenant; 1000 credits unless told otherwise. */
export async function createAccount(ctx: AdminContext, input: { name: string; credits?: number }): Promise<Account> {
  const name = input.name.trim();
  if (name === '' || name.length > 200) throw new SvcError('validation_failed', 'name must be 1-200 characters.', { field: 'name' });
  const account: Account = {
    id: ctx.ids.random('acct'),
    name,
    balance: checkCredits(input.credits ?? 1000, 'credits'),
    status: 'active',
    createdAt: ctx.clock.now(),
  };
  await ctx.store.insertAccount(account);
  return account;
}

export async function setCredits(ctx: AdminContext, accountId: string, balance: number): Promise<Account> {
  checkCredits(balance, 'balance');
  if (!(await ctx.store.setAccountBalance(accountId, balance))) {
    throw new SvcError('validation_failed', `Account ${accountId} does not exist.`, { field: 'account' });
  }
  return (await ctx.store.getAccount(accountId))!;
}

/** The caller's own account (the console's header: name and balance). */
export async function getAccount(ctx: AdminContext, accountId: string): Promise<AccountView> {
  const account = await ctx.store.getAccount(accountId);
  if (!account) throw new SvcError('not_found', `Account ${accountId} was not found.`, { field: 'account' });
  return accountView(account);
}

/** The account a resource is created in; a wrong `--account` is the caller's mistake (400). */
export async function requireAccount(ctx: AdminContext, accountId: string): Promise<Account> {
  const account = await ctx.store.getAccount(accountId);
  if (!account) throw new SvcError('validation_failed', `Account ${accountId} does not exist.`, { field: 'account' });
  return account;
}
