/**
 * `@svc/client/identity`: widget identity tokens, for servers only (the secret must never reach a browser).
 * The service verifies with the same {@link verifyIdentityToken} (from @svc/core, over Web Crypto) that tests
 * {@link createIdentityToken}.
 */
export { createIdentityToken } from './identity/sign.js';
export type { CreateIdentityTokenOptions } from './identity/sign.js';
export {
  DEFAULT_CLOCK_TOLERANCE_SECONDS,
  IDENTITY_TOKEN_ALGORITHM,
  IdentityTokenError,
  MAX_IDENTITY_TOKEN_LIFETIME_SECONDS,
  MIN_SECRET_BYTES,
  isIdentityTokenError,
  verifyIdentityToken,
} from '@svc/core/schemas';
export type { IdentityTokenClaims, IdentityTokenFailure, VerifyIdentityTokenOptions } from '@svc/core/schemas';
