import { SignJWT } from 'jose';
import { epochSeconds, IDENTITY_TOKEN_ALGORITHM, identitySecretBytes, isValidIdentitySub, MAX_IDENTITY_TOKEN_LIFETIME_SECONDS, type IdentityTokenClaims } from '@svc/core/schemas';

export interface CreateIdentityTokenOptions {
  /** The widget's identity secret (at least 32 bytes). */
  secret: string;
  /** The visitor's id in your system: 1-255 printable characters. */
  sub: string;
  email?: string;
  /** Set true only if you confirmed the address. */
  emailVerified?: boolean;
  name?: string;
  /** Lifetime in whole seconds, 1 to 86,400 (24 h). */
  ttlSeconds: number;
  /** The signing time; default now. */
  now?: Date;
}

/**
 * Signs a widget identity token on your server: a JWT (HS256) with `sub`, `email`, `email_verified`, `name`,
 * `iat` and `exp`. Hand it to the widget (`Svc.identify`, the token provider or the identity endpoint); never
 * sign in the browser, where the secret would be exposed.
 *
 * @example
 * import { createIdentityToken } from '@svc/client/identity';
 *
 * const token = await createIdentityToken({
 *   secret: process.env.SVC_IDENTITY_SECRET!,
 *   sub: user.id,
 *   email: user.email,
 *   emailVerified: user.emailVerified,
 *   ttlSeconds: 3600,
 * });
 */
export async function createIdentityToken(options: CreateIdentityTokenOptions): Promise<string> {
  const { ttlSeconds } = options;
  if (!Number.isInteger(ttlSeconds) || ttlSeconds < 1 || ttlSeconds > MAX_IDENTITY_TOKEN_LIFETIME_SECONDS) {
    throw new RangeError(`ttlSeconds must be a whole number of seconds from 1 to ${MAX_IDENTITY_TOKEN_LIFETIME_SECONDS} (24 h), got ${ttlSeconds}.`);
  }
  if (!isValidIdentitySub(options.sub)) throw new TypeError('sub must be 1-255 printable characters.');
  const key = identitySecretBytes(options.secret);
  const iat = epochSeconds(options.now ?? new Date());
  const claims: IdentityTokenClaims = {
    sub: options.sub,
    ...(options.email === undefined ? {} : { email: options.email }),
    ...(options.emailVerified === undefined ? {} : { email_verified: options.emailVerified }),
    ...(options.name === undefined ? {} : { name: options.name }),
    iat,
    exp: iat + ttlSeconds,
  };
  return new SignJWT({ ...claims }).setProtectedHeader({ alg: IDENTITY_TOKEN_ALGORITHM, typ: 'JWT' }).sign(key);
}
