import type { OperatorOps } from '@svc/core/store-kit';
import { toConsoleSession, toOperator, type ConsoleSessionRow, type OperatorRow } from '../rows.js';
import type { Db } from './db.js';

/** Operators, console sessions and sign-in failure counters (migration 7). */
export function operatorOps(db: Db): OperatorOps {
  const deletedCount = async (sql: string, params: unknown[]): Promise<number> => {
    const [row] = await db().query<{ count: number }>(`with deleted as (${sql} returning 1) select count(*)::int as count from deleted`, params);
    return row?.count ?? 0;
  };
  return {
    async insertOperator(operator) {
      // A taken email is an answer, not an error; a repeated id still fails (the primary key).
      const rows = await db().query(
        `insert into operators (id, account_id, email, name, role, password_hash, created_at, password_changed_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8)
         on conflict (email) do nothing returning id`,
        [
          operator.id,
          operator.accountId,
          operator.email,
          operator.name,
          operator.role,
          operator.passwordHash,
          operator.createdAt,
          operator.passwordChangedAt,
        ],
      );
      return rows.length > 0;
    },
    async getOperator(id) {
      const [row] = await db().query<OperatorRow>('select * from operators where id = $1', [id]);
      return row ? toOperator(row) : null;
    },
    async findOperatorByEmail(email) {
      const [row] = await db().query<OperatorRow>('select * from operators where email = $1', [email]);
      return row ? toOperator(row) : null;
    },
    async listOperators(accountId) {
      const rows = await db().query<OperatorRow>('select * from operators where account_id = $1 order by created_at, id', [accountId]);
      return rows.map(toOperator);
    },
    async setOperatorPassword(id, passwordHash, changedAt) {
      const rows = await db().query('update operators set password_hash = $2, password_changed_at = $3 where id = $1 returning id', [
        id,
        passwordHash,
        changedAt,
      ]);
      return rows.length > 0;
    },

    async insertConsoleSession(session) {
      await db().query(
        `insert into console_sessions (id, token_hash, operator_id, account_id, csrf_token, created_at, expires_at, last_seen_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [
          session.id,
          session.tokenHash,
          session.operatorId,
          session.accountId,
          session.csrfToken,
          session.createdAt,
          session.expiresAt,
          session.lastSeenAt,
        ],
      );
    },
    async findConsoleSession(tokenHash) {
      const [row] = await db().query<ConsoleSessionRow>('select * from console_sessions where token_hash = $1', [tokenHash]);
      return row ? toConsoleSession(row) : null;
    },
    async touchConsoleSession(id, lastSeenAt, expiresAt) {
      const rows = await db().query('update console_sessions set last_seen_at = $2, expires_at = $3 where id = $1 returning id', [
        id,
        lastSeenAt,
        expiresAt,
      ]);
      return rows.length > 0;
    },
    async deleteConsoleSession(id) {
      const rows = await db().query('delete from console_sessions where id = $1 returning id', [id]);
      return rows.length > 0;
    },
    async deleteOperatorSessions(operatorId, keepId) {
      return deletedCount('delete from console_sessions where operator_id = $1 and id is distinct from $2', [operatorId, keepId ?? null]);
    },
    async deleteExpiredConsoleSessions(now) {
      return deletedCount('delete from console_sessions where expires_at <= $1', [now]);
    },

    async recordLoginFailure(key, windowStart) {
      // One statement: concurrent failures from every instance serialise on the row and none is lost.
      const [row] = await db().query<{ count: number }>(
        `insert into login_failures (key, window_start, count) values ($1, $2, 1)
         on conflict (key, window_start) do update set count = login_failures.count + 1
         returning count`,
        [key, windowStart],
      );
      return row!.count;
    },
    async countLoginFailures(key, windowStart) {
      const [row] = await db().query<{ count: number }>('select count from login_failures where key = $1 and window_start = $2', [key, windowStart]);
      return row?.count ?? 0;
    },
    async deleteLoginFailuresBefore(before) {
      return deletedCount('delete from login_failures where window_start < $1', [before]);
    },
  };
}
