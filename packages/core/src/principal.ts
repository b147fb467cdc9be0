import type { IdentityClaims } from './agent.js';
import type { ApiKey, Principal } from './domain.js';

/**
 * The caller a key record stands for, with the visitor identity verified for this one request (none by default):
 * the server's key check makes it, and so does anything that calls the core as a key holder would.
 */
export function principalOf(key: ApiKey, identity: IdentityClaims | null = null): Principal {
  return {
    accountId: key.accountId,
    keyId: key.id,
    kind: key.kind,
    scopes: key.scopes,
    callbackUrl: key.callbackUrl,
    replyFormat: key.replyFormat,
    widgetId: key.widgetId,
    identity,
  };
}
