import type { StoreOps } from '@svc/core/store-kit';
import { toDelivery, type DeliveryRow } from '../rows.js';
import type { Db } from './db.js';

type DeliveryOps = Pick<
  StoreOps,
  'insertDelivery' | 'getDelivery' | 'claimDeliveries' | 'recordDeliveryAttempt' | 'listDeliveries' | 'requeueDelivery'
>;

/** Pending deliveries due now whose lease is free or expired; see CLAIM_TURN_JOBS for the shape. */
const CLAIM_DELIVERIES = /* sql */ `
  with claimed as (
    update deliveries set lease_owner = $1, lease_expires_at = $3
     where id in (
       select id from deliveries
        where status = 'pending' and next_attempt_at <= $2 and (lease_expires_at is null or lease_expires_at <= $2)
        order by next_attempt_at, created_at, id
        limit $4
        for update skip locked
     )
    returning *
  )
  select * from claimed order by next_attempt_at, created_at, id`;

/**
 * One attempt: success delivers; a failure with a next attempt stays pending until then; a failure without one
 * is final. The lease is released either way.
 */
const RECORD_ATTEMPT = /* sql */ `
  update deliveries
     set attempts = attempts + 1, last_status = $5, last_error = $6, lease_owner = null, lease_expires_at = null,
         status = case when $3 then 'delivered' when $4::timestamptz is null then 'failed' else 'pending' end,
         delivered_at = case when $3 then $2 else delivered_at end,
         next_attempt_at = case when not $3 and $4::timestamptz is not null then $4::timestamptz else next_attempt_at end
   where id = $1
  returning *`;

export function deliveryOps(db: Db): DeliveryOps {
  return {
    async insertDelivery(delivery) {
      await db().query(
        `insert into deliveries (id, account_id, key_id, widget_id, session_id, message_id, event, payload, url, status, attempts,
           next_attempt_at, lease_owner, lease_expires_at, last_status, last_error, created_at, delivered_at, webhook_id)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)`,
        [
          delivery.id,
          delivery.accountId,
          delivery.keyId,
          delivery.widgetId,
          delivery.sessionId,
          delivery.messageId,
          delivery.event,
          delivery.payload,
          delivery.url,
          delivery.status,
          delivery.attempts,
          delivery.nextAttemptAt,
          delivery.leaseOwner,
          delivery.leaseExpiresAt,
          delivery.lastStatus,
          delivery.lastError,
          delivery.createdAt,
          delivery.deliveredAt,
          delivery.webhookId,
        ],
      );
    },
    async getDelivery(id) {
      const [row] = await db().query<DeliveryRow>('select * from deliveries where id = $1', [id]);
      return row ? toDelivery(row) : null;
    },
    async claimDeliveries({ owner, now, leaseMs, limit }) {
      const rows = await db().query<DeliveryRow>(CLAIM_DELIVERIES, [owner, now, new Date(now.getTime() + leaseMs), Math.max(0, limit)]);
      return rows.map(toDelivery);
    },
    async recordDeliveryAttempt(id, { at, ok, status, error, nextAttemptAt }) {
      const [row] = await db().query<DeliveryRow>(RECORD_ATTEMPT, [id, at, ok, nextAttemptAt, status, error]);
      return row ? toDelivery(row) : null;
    },
    async listDeliveries({ status, accountId, limit }) {
      const rows = await db().query<DeliveryRow>(
        `select * from deliveries
          where ($1::text is null or status = $1) and ($2::text is null or account_id = $2)
          order by created_at desc, id desc
          limit $3`,
        [status ?? null, accountId ?? null, Math.max(0, limit)],
      );
      return rows.map(toDelivery);
    },
    async requeueDelivery(id, at) {
      // Any status: a replay starts over with a fresh retry budget, as if newly written.
      const rows = await db().query(
        `update deliveries
            set status = 'pending', attempts = 0, next_attempt_at = $2, lease_owner = null, lease_expires_at = null,
                last_status = null, last_error = null, delivered_at = null
          where id = $1
          returning id`,
        [id, at],
      );
      return rows.length > 0;
    },
  };
}
