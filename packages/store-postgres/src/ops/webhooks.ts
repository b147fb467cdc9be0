import type { WebhookOps } from '@svc/core/store-kit';
import { json, toSession, toWebhook, type SessionRow, type WebhookRow } from '../rows.js';
import type { Db } from './db.js';

/**
 * The expiry sweep: due active sessions, earliest first, skipping rows another transaction holds (a worker sweeping
 * beside us, or a turn changing the session: it is expired by the next sweep). `$3`/`$4` narrow it to one session,
 * which then waits for its lock instead (a read that found the session expired must record it).
 */
const EXPIRE_DUE = /* sql */ `
  with due as (
    select widget_id, id from sessions
     where status = 'active' and expires_at <= $1 and $3::text is null
     order by expires_at, widget_id, id
     limit $2
     for update skip locked
  ),
  one as (
    select widget_id, id from sessions
     where status = 'active' and expires_at <= $1 and widget_id = $3::text and id = $4::text
     for update
  ),
  expired as (
    update sessions s set status = 'expired', pending_form_id = null
      from (select * from due union all select * from one) target
     where s.widget_id = target.widget_id and s.id = target.id and s.status = 'active'
    returning s.*
  )
  select * from expired order by expires_at, widget_id, id`;

export function webhookOps(db: Db): WebhookOps {
  return {
    async insertWebhook(webhook) {
      await db().query(
        `insert into webhook_endpoints (id, account_id, url, events, secret, previous_secret, previous_secret_expires_at, created_at)
         values ($1, $2, $3, $4::jsonb, $5, $6, $7, $8)`,
        [
          webhook.id,
          webhook.accountId,
          webhook.url,
          json(webhook.events),
          webhook.secret,
          webhook.previousSecret,
          webhook.previousSecretExpiresAt,
          webhook.createdAt,
        ],
      );
    },
    async getWebhook(id) {
      const [row] = await db().query<WebhookRow>('select * from webhook_endpoints where id = $1', [id]);
      return row ? toWebhook(row) : null;
    },
    async listWebhooks(accountId) {
      const rows = await db().query<WebhookRow>('select * from webhook_endpoints where account_id = $1 order by created_at, id', [accountId]);
      return rows.map(toWebhook);
    },
    async deleteWebhook(id) {
      const rows = await db().query('delete from webhook_endpoints where id = $1 returning id', [id]);
      return rows.length > 0;
    },
    async setWebhookSecrets(id, secrets) {
      const [row] = await db().query<WebhookRow>(
        `update webhook_endpoints set secret = $2, previous_secret = $3, previous_secret_expires_at = $4 where id = $1 returning *`,
        [id, secrets.secret, secrets.previousSecret, secrets.previousSecretExpiresAt],
      );
      return row ? toWebhook(row) : null;
    },
    async expireDueSessions({ now, limit, session }) {
      const rows = await db().query<SessionRow>(EXPIRE_DUE, [now, Math.max(0, limit), session?.widgetId ?? null, session?.sessionId ?? null]);
      return rows.map(toSession);
    },
  };
}
