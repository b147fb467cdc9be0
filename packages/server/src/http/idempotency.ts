import type { Context, MiddlewareHandler } from 'hono';
import { IDEMPOTENCY_WINDOW_MS, sha256Hex, SvcError, type Clock, type Store } from '@svc/core';
import type { AppEnv } from './auth.js';

export { IDEMPOTENCY_WINDOW_MS };

const KEY_PATTERN = /^[\x21-\x7E]{1,255}$/;

/**
 * Turn endpoints record their key in the transaction that accepts the turn (DESIGN.md section 3a): the engine does
 * it, scoped to the caller's identity too, and a repeat waits for the first turn's job. This middleware leaves them
 * alone.
 */
const TURN_PATH = /\/conversations\/[^/]+\/(messages|form-submissions|chat)$/;

/** The `Idempotency-Key` of a POST, validated; undefined when none was sent. */
export function idempotencyKey(c: Context<AppEnv>): string | undefined {
  const key = c.req.header('idempotency-key');
  if (c.req.method !== 'POST' || key === undefined) return undefined;
  if (!KEY_PATTERN.test(key)) {
    throw new SvcError('validation_failed', 'Idempotency-Key must be 1-255 visible ASCII characters.', { field: 'Idempotency-Key' });
  }
  return key;
}

/** What the engine needs to make a turn idempotent: the key and the hash of the exact body it came with. */
export async function turnIdempotency(c: Context<AppEnv>): Promise<{ key: string; requestHash: string } | undefined> {
  const key = idempotencyKey(c);
  return key === undefined ? undefined : { key, requestHash: await sha256Hex(await c.req.text()) };
}

/**
 * `Idempotency-Key` on the other POSTs (create session, end, rate, knowledge writes). Only successful responses are
 * recorded: a refused request ran nothing, so sending it again (after fixing the cause) must be allowed to succeed.
 * No lock is held across the request: two concurrent first uses of one key may both run, and the first to record
 * wins; these operations are safe to repeat (resume, end, rate and upserts converge). A replay bills nothing and
 * says so: its `meta.creditsConsumed` is 0.
 */
export function idempotency(store: Store, clock: Clock): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const key = idempotencyKey(c);
    if (key === undefined || TURN_PATH.test(c.req.path)) return next();
    const scope = `${c.get('principal').keyId} POST ${c.req.path}`;
    const requestHash = await sha256Hex(await c.req.text());

    const existing = await store.getIdempotencyRecord(scope, key);
    const fresh = existing && clock.now().getTime() - existing.createdAt.getTime() < IDEMPOTENCY_WINDOW_MS;
    if (existing && fresh) {
      if (existing.requestHash !== requestHash) {
        throw new SvcError('idempotency_key_reused', 'This Idempotency-Key was used with a different request body; use a new key.', {
          field: 'Idempotency-Key',
        });
      }
      c.res = new Response(replayedBody(existing.body), {
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
        jobId: null,
        createdAt: clock.now(),
      });
    }
  };
}

/** The first response as it was, except that a replay consumed nothing (issue 10: it reported the first's credits). */
function replayedBody(body: string): string {
  try {
    const parsed = JSON.parse(body) as { meta?: { creditsConsumed?: number } };
    if (parsed.meta && typeof parsed.meta === 'object') parsed.meta.creditsConsumed = 0;
    return JSON.stringify(parsed);
  } catch {
    return body;
  }
}
