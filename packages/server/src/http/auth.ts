import type { MiddlewareHandler } from 'hono';
import { createHash } from 'node:crypto';
import { isIdentityTokenError, verifyIdentityToken } from '@svc/core/schemas';
import { principalOf, SvcError, type ApiKey, type Clock, type IdentityClaims, type Principal, type Store } from '@svc/core';
import type { ServerServices } from './server-services.js';
import type { AdminCaller } from './admin-auth.js';

export type AppEnv = {
  Variables: {
    principal: Principal;
    /** Admin API calls (`/admin/v1`): the operator or admin key, resolved by `adminAuth`. */
    admin: AdminCaller;
    requestId: string;
    /** Set when the request's Origin may read the response (public keys from an allowed origin). */
    corsOrigin: string;
    /** The adapter's own services (stream settings, metrics, the client's address). */
    server: ServerServices;
  };
};

const KEY_SHAPE = /^(sk|pk)_live_[A-Za-z0-9]{16,128}$/;

/**
 * Resolves `X-API-Key` to a principal. Keys are looked up by their SHA-256, so the stored hash is never compared
 * byte by byte against the secret, and an unknown key costs the same as a known one.
 *
 * Public keys (`pk_live_`) are for browsers: they must come from one of the key's allowed origins, and may
 * carry the visitor's identity as a signed token in `X-Identity-Token` (never in the URL).
 */
export function apiKeyAuth(store: Store, clock: Clock): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const key = c.req.header('x-api-key')?.trim();
    if (!key) throw new SvcError('missing_api_key', 'Send your API key in the X-API-Key header.');
    // The same digest as core's sha256Hex, computed synchronously: every request pays for it.
    const record = KEY_SHAPE.test(key) ? await store.findApiKeyByHash(createHash('sha256').update(key).digest('hex')) : null;
    if (!record || record.revokedAt !== null) {
      throw new SvcError('invalid_api_key', 'The API key is not valid or has been revoked; check the X-API-Key header.');
    }
    let identity: IdentityClaims | null = null;
    if (record.kind === 'public') {
      // Browsers omit Origin on same-origin GETs (a site serving the API from its own origin, or /demo).
      const origin =
        c.req.header('origin') ?? (c.req.header('sec-fetch-site') === 'same-origin' ? new URL(c.req.url).origin : undefined);
      if (!origin || !record.allowedOrigins.includes(origin)) {
        throw new SvcError('origin_not_allowed', `This public key may not be used from ${origin ?? 'a request without an Origin'}; add the origin to the key.`);
      }
      c.set('corsOrigin', origin);
      identity = await identityFromToken(store, clock, record, c.req.header('x-identity-token'));
    } else if (c.req.header('x-identity-token') !== undefined) {
      throw new SvcError('validation_failed', 'Identity tokens are for public (widget) keys; server keys send an "identity" object.', {
        field: 'X-Identity-Token',
      });
    }
    c.set('principal', principalOf(record, identity));
    await next();
  };
}

async function identityFromToken(store: Store, clock: Clock, key: ApiKey, token: string | undefined): Promise<IdentityClaims | null> {
  if (token === undefined || token === '') return null;
  const widget = key.widgetId ? await store.getWidget(key.widgetId) : null;
  const now = clock.now();
  const secrets = (widget?.identitySecrets ?? []).filter((s) => s.retiresAt === null || s.retiresAt > now).map((s) => s.secret);
  if (secrets.length === 0) {
    throw new SvcError('invalid_identity_token', 'This widget has no identity secret, so it accepts no identity tokens.');
  }
  try {
    const claims = await verifyIdentityToken(token, { secrets, now });
    const identity: IdentityClaims = { sub: claims.sub };
    if (claims.email !== undefined) identity.email = claims.email;
    if (claims.email_verified !== undefined) identity.email_verified = claims.email_verified;
    if (claims.name !== undefined) identity.name = claims.name;
    return identity;
  } catch (error) {
    if (isIdentityTokenError(error)) {
      throw new SvcError('invalid_identity_token', error.message, { field: 'X-Identity-Token' });
    }
    throw error;
  }
}
