import type { MiddlewareHandler } from 'hono';
import { sha256Hex, SvcError, type Principal, type Store } from '@svc/core';

export type AppEnv = {
  Variables: {
    principal: Principal;
    requestId: string;
  };
};

const KEY_SHAPE = /^(sk|pk)_live_[A-Za-z0-9]{16,128}$/;

/**
 * Resolves `X-API-Key` to a principal. Keys are looked up by their SHA-256, so the stored hash is never compared
 * byte by byte against the secret, and an unknown key costs the same as a known one.
 */
export function apiKeyAuth(store: Store): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const key = c.req.header('x-api-key')?.trim();
    if (!key) throw new SvcError('missing_api_key', 'Send your API key in the X-API-Key header.');
    const record = KEY_SHAPE.test(key) ? await store.findApiKeyByHash(await sha256Hex(key)) : null;
    if (!record || record.revokedAt !== null) {
      throw new SvcError('invalid_api_key', 'The API key is not valid or has been revoked; check the X-API-Key header.');
    }
    c.set('principal', {
      accountId: record.accountId,
      keyId: record.id,
      kind: record.kind,
      scopes: record.scopes,
      callbackUrl: record.callbackUrl,
      replyFormat: record.replyFormat,
      widgetId: record.widgetId,
    });
    await next();
  };
}
