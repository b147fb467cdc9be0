import type { MiddlewareHandler } from 'hono';
import { sha256Hex, SvcError, type Clock, type Store } from '@svc/core';
import type { AppEnv } from './auth.js';

/** DESIGN.md section 4: a repeat within 24 h replays the first response, runs nothing twice, bills once. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

const KEY_PATTERN = /^[\x21-\x7E]{1,255}$/;

/**
 * `Idempotency-Key` on POSTs. Only successful responses are recorded: a refused request ran nothing, so
 * sending it again (after fixing the cause) must be allowed to succeed. Repeats wait for the first to finish.
 */
export function idempotency(store: Store, clock: Clock): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const key = c.req.header('idempotency-key');
    if (c.req.method !== 'POST' || key === undefined) return next();
    if (!KEY_PATTERN.test(key)) {
      throw new SvcError('validation_failed', 'Idempotency-Key must be 1-255 visible ASCII characters.', { field: 'Idempotency-Key' });
    }
    const scope = `${c.get('principal').keyId} POST ${c.req.path}`;
    const requestHash = await sha256Hex(await c.req.text());

    await store.withLock(`idempotency:${scope}:${key}`, async () => {
      const existing = await store.getIdempotencyRecord(scope, key);
      if (existing && clock.now().getTime() - existing.createdAt.getTime() < IDEMPOTENCY_WINDOW_MS) {
        if (existing.requestHash !== requestHash) {
          throw new SvcError('idempotency_key_reused', 'This Idempotency-Key was used with a different request body; use a new key.', {
            field: 'Idempotency-Key',
          });
        }
        c.res = new Response(existing.body, {
          status: existing.status,
          headers: { 'content-type': 'application/json', 'idempotent-replayed': 'true', 'x-request-id': c.get('requestId') },
        });
        return;
      }
      await next();
      if (c.res.status >= 200 && c.res.status < 300) {
        if (existing) await store.deleteIdempotencyRecordsBefore(new Date(clock.now().getTime() - IDEMPOTENCY_WINDOW_MS));
        await store.putIdempotencyRecord({
          scope,
          key,
          requestHash,
          status: c.res.status,
          body: await c.res.clone().text(),
          createdAt: clock.now(),
        });
      }
    });
  };
}
