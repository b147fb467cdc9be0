import type { IdempotencyRecord, StoreOps } from '@svc/core/store-kit';
import { json, toVisitor, type VisitorRow } from '../rows.js';
import type { Db } from './db.js';

type RecordOps = Pick<
  StoreOps,
  | 'upsertVisitor'
  | 'getVisitor'
  | 'getIdempotencyRecord'
  | 'putIdempotencyRecord'
  | 'settleIdempotencyRecord'
  | 'deleteIdempotencyRecordsBefore'
  | 'getOrCreateSetting'
>;

interface IdempotencyRow {
  scope: string;
  key: string;
  request_hash: string;
  status: number;
  body: string;
  job_id: string | null;
  created_at: Date;
}

export function recordOps(db: Db): RecordOps {
  return {
    async upsertVisitor(accountId, visitorId, context, at) {
      // `||` merges JSON objects key by key; JSON.stringify has already dropped the undefined fields.
      const [row] = await db().query<VisitorRow>(
        `insert into visitors (account_id, visitor_id, context, updated_at) values ($1, $2, $3::jsonb, $4)
         on conflict (account_id, visitor_id)
           do update set context = visitors.context || excluded.context, updated_at = excluded.updated_at
         returning *`,
        [accountId, visitorId, json(context), at],
      );
      if (!row) throw new Error('Upserting a visitor returned no row');
      return toVisitor(row);
    },
    async getVisitor(accountId, visitorId) {
      const [row] = await db().query<VisitorRow>('select * from visitors where account_id = $1 and visitor_id = $2', [accountId, visitorId]);
      return row ? toVisitor(row) : null;
    },

    async getIdempotencyRecord(scope, key) {
      const [row] = await db().query<IdempotencyRow>('select * from idempotency_records where scope = $1 and key = $2', [scope, key]);
      return row ? toIdempotencyRecord(row) : null;
    },
    async putIdempotencyRecord(record) {
      const rows = await db().query(
        `insert into idempotency_records (scope, key, request_hash, status, body, job_id, created_at) values ($1, $2, $3, $4, $5, $6, $7)
         on conflict (scope, key) do nothing
         returning key`,
        [record.scope, record.key, record.requestHash, record.status, record.body, record.jobId, record.createdAt],
      );
      return rows.length > 0;
    },
    async settleIdempotencyRecord(scope, key, requestHash, response) {
      const rows =
        response === null
          ? await db().query(
              'delete from idempotency_records where scope = $1 and key = $2 and request_hash = $3 and status = 0 returning key',
              [scope, key, requestHash],
            )
          : await db().query(
              `update idempotency_records set status = $4, body = $5
                where scope = $1 and key = $2 and request_hash = $3 and status = 0 returning key`,
              [scope, key, requestHash, response.status, response.body],
            );
      return rows.length > 0;
    },
    async deleteIdempotencyRecordsBefore(before) {
      const [row] = await db().query<{ count: number }>(
        `with deleted as (delete from idempotency_records where created_at < $1 returning 1)
         select count(*)::int as count from deleted`,
        [before],
      );
      return row?.count ?? 0;
    },

    async getOrCreateSetting(name, create) {
      const read = async (): Promise<string | undefined> =>
        (await db().query<{ value: string }>('select value from settings where name = $1', [name]))[0]?.value;
      const existing = await read();
      if (existing !== undefined) return existing;
      // A concurrent creator may insert between the read and the insert: the insert then does nothing (after waiting
      // for that creator to commit) and the value it stored is the one everybody returns.
      const [inserted] = await db().query<{ value: string }>(
        'insert into settings (name, value) values ($1, $2) on conflict (name) do nothing returning value',
        [name, create()],
      );
      const value = inserted?.value ?? (await read());
      if (value === undefined) throw new Error(`Setting ${name} vanished while being created`);
      return value;
    },
  };
}

function toIdempotencyRecord(row: IdempotencyRow): IdempotencyRecord {
  return {
    scope: row.scope,
    key: row.key,
    requestHash: row.request_hash,
    status: row.status,
    body: row.body,
    jobId: row.job_id,
    createdAt: row.created_at,
  };
}
