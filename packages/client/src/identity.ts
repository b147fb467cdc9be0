/**
 * `@svc/client/identity`: widget identity tokens, for servers only (the secret must never reach a browser).
 * The service verifies with the same {@link verifyIdentityToken} that tests {@link createIdentityToken}.
 */
export { createIdentityToken } from './identity/sign.js';
export type { CreateIdentityTokenOptions } from './identity/sign.js';
export { DEFAULT_CLOCK_TOLERANCE_SECONDS, verifyIdentityToken } from './identity/verify.js';
export type { VerifyIdentityTokenOptions } from './identity/verify.js';
export { IdentityTokenError, isIdentityTokenError } from './identity/errors.js';
export type { IdentityTokenFailure } from './identity/errors.js';
export { IDENTITY_TOKEN_ALGORITHM, MAX_IDENTITY_TOKEN_LIFETIME_SECONDS, MIN_SECRET_BYTES } from './identity/claims.js';
export type { IdentityTokenClaims } from './identity/claims.js';
