import type { GuardOps } from '@svc/core/store-kit';
import type { Db } from './db.js';

/** Does a live public key (of widget $2, when not null) allow origin $1? Served by the partial GIN index api_keys_public_origins. */
export const PUBLIC_ORIGIN_QUERY = `select 1 from api_keys
  where kind = 'public' and revoked_at is null and allowed_origins @> jsonb_build_array($1::text)
    and ($2::text is null or widget_id = $2)
  limit 1`;

/** Rate-limit counters and the CORS origin lookup (migration 4). */
export function guardOps(db: Db): GuardOps {
  return {
    async incrementRateCounter(key, windowStart) {
      // One statement: concurrent increments from every instance serialise on the row and none is lost.
      const [row] = await db().query<{ count: number }>(
        `insert into rate_limit_counters (key, window_start, count) values ($1, $2, 1)
         on conflict (key, window_start) do update set count = rate_limit_counters.count + 1
         returning count`,
        [key, windowStart],
      );
      return row!.count;
    },
    async deleteRateCountersBefore(before) {
      const [row] = await db().query<{ count: number }>(
        `with deleted as (delete from rate_limit_counters where window_start < $1 returning 1)
         select count(*)::int as count from deleted`,
        [before],
      );
      return row?.count ?? 0;
    },
    async publicKeyAllowsOrigin(origin, widgetId) {
      // One index probe, whatever the number of keys.
      const rows = await db().query(PUBLIC_ORIGIN_QUERY, [origin, widgetId ?? null]);
      return rows.length > 0;
    },
  };
}
