import type { Context, MiddlewareHandler } from 'hono';
import { IDEMPOTENCY_WINDOW_MS, sha256Hex, SvcError, type Clock, type Store } from '@svc/core';
import type { AppEnv } from './auth.js';
import { multipartDigest } from './upload.js';

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

/** How long a repeat waits for the first request to finish; past it the first is taken for abandoned (crashed). */
export const PENDING_ABANDONED_MS = 30_000;
const POLL_MS = 25;

/**
 * `Idempotency-Key` on the other POSTs (create session, end, rate, knowledge writes). The first request records the
 * key as pending before it runs, and its response once it succeeded; a failure deletes the record, since a refused
 * request ran nothing and a corrected retry must be allowed to succeed. A concurrent repeat polls the record (no lock
 * held, no connection kept) until the first settles, then replays it; a pending record older than
 * {@link PENDING_ABANDONED_MS} belonged to a process that died and is taken over. A replay bills nothing and says so:
 * its `meta.creditsConsumed` is 0.
 */
export function idempotency(store: Store, clock: Clock): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const key = idempotencyKey(c);
    if (key === undefined || TURN_PATH.test(c.req.path)) return next();
    const scope = `${c.get('principal').keyId} POST ${c.req.path}`;
    // An upload is identified by its fields and files (a retry has a new multipart boundary), anything else by its bytes.
    const requestHash = (await multipartDigest(c)) ?? (await sha256Hex(await c.req.text()));
    const waitingSince = performance.now();

    for (;;) {
      const now = clock.now();
      if (await store.putIdempotencyRecord({ scope, key, requestHash, status: 0, body: '', jobId: null, createdAt: now })) {
        try {
          await next();
        } catch (error) {
          await store.settleIdempotencyRecord(scope, key, requestHash, null);
          throw error;
        }
        const ok = c.res.status >= 200 && c.res.status < 300;
        await store.settleIdempotencyRecord(scope, key, requestHash, ok ? { status: c.res.status, body: await c.res.clone().text() } : null);
        return;
      }
      const existing = await store.getIdempotencyRecord(scope, key);
      if (!existing) continue; // Deleted meanwhile (the first failed): this one runs.
      const age = now.getTime() - existing.createdAt.getTime();
      if (age >= IDEMPOTENCY_WINDOW_MS) {
        await store.deleteIdempotencyRecordsBefore(new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS));
        continue;
      }
      if (existing.requestHash !== requestHash) {
        throw new SvcError('idempotency_key_reused', 'This Idempotency-Key was used with a different request body; use a new key.', {
          field: 'Idempotency-Key',
        });
      }
      if (existing.status !== 0) {
        c.res = new Response(replayedBody(existing.body), {
          status: existing.status,
          headers: { 'content-type': 'application/json', 'idempotent-replayed': 'true', 'x-request-id': c.get('requestId') },
        });
        return;
      }
      if (age >= PENDING_ABANDONED_MS || performance.now() - waitingSince >= PENDING_ABANDONED_MS) {
        await store.settleIdempotencyRecord(scope, key, requestHash, null);
        continue;
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
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
