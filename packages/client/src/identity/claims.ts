/** DESIGN.md section 4: identity tokens live at most 24 hours. */
export const MAX_IDENTITY_TOKEN_LIFETIME_SECONDS = 86_400;

/**
 * RFC 7518 section 3.2: an HS256 key must be at least as long as the hash output, 32 bytes. Shorter secrets
 * are refused on both sides rather than silently accepted.
 */
export const MIN_SECRET_BYTES = 32;

/** The only algorithm signed and accepted: one shared secret per widget, no key confusion possible. */
export const IDENTITY_TOKEN_ALGORITHM = 'HS256';

/** The claims of a widget identity token (spec 2.3; DESIGN.md section 4). */
export interface IdentityTokenClaims {
  /** Who the visitor is in the signer's system: 1-255 printable characters. */
  sub: string;
  email?: string;
  /** True only when the signer confirmed the address. */
  email_verified?: boolean;
  name?: string;
  /** Issued at, seconds since the epoch. */
  iat?: number;
  /** Expiry, seconds since the epoch; required. */
  exp: number;
}

/** Spec 2.3 "printable": no control, format, surrogate, private-use or unassigned characters; as core's identitySchema. */
const PRINTABLE = /^[^\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}]+$/u;

export function isValidSub(value: unknown): value is string {
  return typeof value === 'string' && value.length >= 1 && value.length <= 255 && PRINTABLE.test(value);
}

/** The secret's UTF-8 bytes, exactly as the console shows it: no decoding, so every signer derives the same key. */
export function secretKey(secret: string): Uint8Array {
  const key = new TextEncoder().encode(typeof secret === 'string' ? secret : '');
  if (key.length < MIN_SECRET_BYTES) {
    throw new TypeError(`An identity secret must be a string of at least ${MIN_SECRET_BYTES} bytes; use the widget's identity secret.`);
  }
  return key;
}

export const epochSeconds = (date: Date): number => Math.floor(date.getTime() / 1000);
