import type { StoreOps } from '@svc/core/store-kit';
import { json, toAccount, toLedgerEntry, type AccountRow, type LedgerEntryRow } from '../rows.js';
import type { Db } from './db.js';

type AccountOps = Pick<
  StoreOps,
  'insertAccount' | 'getAccount' | 'setAccountBalance' | 'setAccountStatus' | 'debitAccount' | 'insertLedgerEntry' | 'chargeAccount' | 'listLedgerEntries'
>;

export function accountOps(db: Db): AccountOps {
  return {
    async insertAccount(account) {
      await db().query('insert into accounts (id, name, balance, status, created_at) values ($1, $2, $3, $4, $5)', [
        account.id,
        account.name,
        account.balance,
        account.status,
        account.createdAt,
      ]);
    },
    async getAccount(id) {
      const [row] = await db().query<AccountRow>('select * from accounts where id = $1', [id]);
      return row ? toAccount(row) : null;
    },
    async setAccountBalance(id, balance) {
      const rows = await db().query('update accounts set balance = $2 where id = $1 returning id', [id, balance]);
      return rows.length > 0;
    },
    async setAccountStatus(id, status) {
      const rows = await db().query('update accounts set status = $2 where id = $1 returning id', [id, status]);
      return rows.length > 0;
    },
    async debitAccount(id, amount) {
      // One statement: the row lock makes concurrent debits queue instead of overwriting each other.
      const [row] = await db().query<{ balance: number }>('update accounts set balance = balance - $2 where id = $1 returning balance', [
        id,
        amount,
      ]);
      return row ? Number(row.balance) : null;
    },
    async insertLedgerEntry(entry) {
      await db().query(
        `insert into ledger_entries (id, account_id, operation, widget_id, session_id, message_id, credits, total, created_at)
         values ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9)`,
        [entry.id, entry.accountId, entry.operation, entry.widgetId, entry.sessionId, entry.messageId, json(entry.credits), entry.total, entry.createdAt],
      );
    },
    async chargeAccount(entry) {
      // One round trip: the debit and its ledger row, the row only when the account exists.
      const [row] = await db().query<{ balance: number }>(
        `with debited as (update accounts set balance = balance - $8 where id = $2 returning balance),
              recorded as (
                insert into ledger_entries (id, account_id, operation, widget_id, session_id, message_id, credits, total, created_at)
                select $1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9 from debited
              )
         select balance from debited`,
        [entry.id, entry.accountId, entry.operation, entry.widgetId, entry.sessionId, entry.messageId, json(entry.credits), entry.total, entry.createdAt],
      );
      return row ? Number(row.balance) : null;
    },
    async listLedgerEntries(accountId, limit) {
      const rows = await db().query<LedgerEntryRow>(
        'select * from ledger_entries where account_id = $1 order by created_at desc, id desc limit $2',
        [accountId, limit],
      );
      return rows.map(toLedgerEntry);
    },
  };
}
