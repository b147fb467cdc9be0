/**
 * Widget identity tokens (DESIGN.md section 4): HS256 JWTs signed with the widget's identity secret, verified
 * over Web Crypto so the same code runs in Node, browsers and edge runtimes. The server verifies with it; the
 * client package signs tokens and re-exports this verifier.
 */

/** DESIGN.md section 4: identity tokens live at most 24 hours. */
export const MAX_IDENTITY_TOKEN_LIFETIME_SECONDS = 86_400;

/**
 * RFC 7518 section 3.2: an HS256 key must be at least as long as the hash output, 32 bytes. Shorter secrets
 * are refused on both sides rather than silently accepted.
 */
export const MIN_SECRET_BYTES = 32;

/** The only algorithm signed and accepted: one shared secret per widget, no key confusion possible. */
export const IDENTITY_TOKEN_ALGORITHM = 'HS256';

/** Clocks of the signing server and this one may differ a little; a token is not refused for that. */
export const DEFAULT_CLOCK_TOLERANCE_SECONDS = 30;

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

/** Why an identity token was refused; machine-readable, one per distinct failure. */
export type IdentityTokenFailure =
  | 'malformed'
  | 'algorithm_not_allowed'
  | 'signature_invalid'
  | 'expired'
  | 'not_yet_valid'
  | 'claim_missing'
  | 'claim_invalid'
  | 'lifetime_too_long';

const BRAND = 'IdentityTokenError';

/**
 * A refused identity token. `reason` says why (and `claim` which claim, where one is at fault); the message
 * says what to do about it. Only the signer's side can fix these: the visitor cannot.
 *
 * @example
 * try {
 *   claims = await verifyIdentityToken(token, { secrets });
 * } catch (error) {
 *   if (isIdentityTokenError(error) && error.reason === 'expired') return askForAFreshToken();
 *   throw error;
 * }
 */
export class IdentityTokenError extends Error {
  override readonly name = BRAND;
  readonly reason: IdentityTokenFailure;
  readonly claim: string | undefined;

  constructor(reason: IdentityTokenFailure, message: string, options: { claim?: string | undefined; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.reason = reason;
    this.claim = options.claim;
  }
}

/** True for an {@link IdentityTokenError}, also one from another copy of this package (no `instanceof`). */
export function isIdentityTokenError(value: unknown): value is IdentityTokenError {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { name?: unknown }).name === BRAND &&
    typeof (value as { reason?: unknown }).reason === 'string'
  );
}

/** Spec 2.3 "printable": no control, format, surrogate, private-use or unassigned characters; as identitySchema. */
const PRINTABLE = /^[^\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}]+$/u;

export function isValidIdentitySub(value: unknown): value is string {
  return typeof value === 'string' && value.length >= 1 && value.length <= 255 && PRINTABLE.test(value);
}

/** The secret's UTF-8 bytes, exactly as the console shows it: no decoding, so every signer derives the same key. */
export function identitySecretBytes(secret: string): Uint8Array<ArrayBuffer> {
  const key = new TextEncoder().encode(typeof secret === 'string' ? secret : '');
  if (key.length < MIN_SECRET_BYTES) {
    throw new TypeError(`An identity secret must be a string of at least ${MIN_SECRET_BYTES} bytes; use the widget's identity secret.`);
  }
  return key;
}

export const epochSeconds = (date: Date): number => Math.floor(date.getTime() / 1000);

export interface VerifyIdentityTokenOptions {
  /** The widget's identity secrets, current first; several during a rotation. At least one. */
  secrets: readonly string[];
  /** The time to check against; default now. */
  now?: Date;
  /** Leeway for `exp`, `nbf` and `iat`; default 30 s. */
  clockToleranceSeconds?: number;
}

function fail(reason: IdentityTokenFailure, message: string, claim?: string, cause?: unknown): never {
  throw new IdentityTokenError(reason, message, { claim, cause });
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;

function base64urlBytes(part: string): Uint8Array<ArrayBuffer> {
  if (!BASE64URL.test(part) || part.length % 4 === 1) throw new TypeError('not base64url');
  const base64 = part.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(part.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function base64urlJson(part: string): unknown {
  return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(base64urlBytes(part)));
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function optional(payload: Record<string, unknown>, claim: string, type: 'string' | 'boolean'): void {
  if (payload[claim] !== undefined && typeof payload[claim] !== type) fail('claim_invalid', `The identity token's "${claim}" claim must be a ${type}.`, claim);
}

/** The registered time claims (RFC 7519 section 4.1), then the token's own rules: claim types, 24-hour lifetime. */
function checkClaims(payload: Record<string, unknown>, now: number, tolerance: number): IdentityTokenClaims {
  for (const claim of ['sub', 'exp']) {
    if (!(claim in payload)) fail('claim_missing', `The identity token has no "${claim}" claim; "sub" and "exp" are required.`, claim);
  }
  for (const claim of ['iat', 'nbf', 'exp']) {
    if (payload[claim] !== undefined && (typeof payload[claim] !== 'number' || !Number.isFinite(payload[claim]))) {
      fail('claim_invalid', `The identity token's "${claim}" claim must be a number of seconds since the epoch.`, claim);
    }
  }
  const { sub, iat, nbf } = payload as { sub: unknown; iat?: number; nbf?: number };
  const exp = payload.exp as number;
  if (nbf !== undefined && nbf > now + tolerance) fail('not_yet_valid', "The identity token is not valid yet (nbf); check the signing server's clock.", 'nbf');
  if (exp <= now - tolerance) fail('expired', 'The identity token has expired; fetch a fresh one from the signing server.', 'exp');
  if (!isValidIdentitySub(sub)) fail('claim_invalid', 'The identity token\'s "sub" claim must be 1-255 printable characters.', 'sub');
  optional(payload, 'email', 'string');
  optional(payload, 'email_verified', 'boolean');
  optional(payload, 'name', 'string');
  if (iat !== undefined && iat > now + tolerance) fail('not_yet_valid', "The identity token was issued in the future (iat); check the signing server's clock.", 'iat');
  // Measured from iat when there is one and from now in any case, so no token outlives 24 h from here.
  const lifetime = Math.max(exp - (iat ?? now), exp - now - tolerance);
  if (lifetime > MAX_IDENTITY_TOKEN_LIFETIME_SECONDS) {
    fail('lifetime_too_long', `The identity token lives ${lifetime} s; issue tokens valid for at most ${MAX_IDENTITY_TOKEN_LIFETIME_SECONDS} s (24 h).`, 'exp');
  }
  const claims: IdentityTokenClaims = { sub, exp };
  for (const name of ['email', 'email_verified', 'name', 'iat'] as const) {
    if (payload[name] !== undefined) Object.assign(claims, { [name]: payload[name] });
  }
  return claims;
}

/**
 * Verifies a widget identity token: HS256 only, signed with one of `secrets`, `sub` and `exp` present, not
 * expired, living at most 24 hours. Resolves to its claims or rejects with an {@link IdentityTokenError}
 * whose `reason` says why. The signature is checked (in constant time, by Web Crypto) before any claim, so a
 * forged token learns nothing about them.
 *
 * @example
 * const claims = await verifyIdentityToken(request.headers.get('x-identity-token')!, {
 *   secrets: widget.identitySecrets,
 * });
 * console.log(claims.sub, claims.email_verified);
 */
export async function verifyIdentityToken(token: string, options: VerifyIdentityTokenOptions): Promise<IdentityTokenClaims> {
  if (options.secrets.length === 0) throw new TypeError('verifyIdentityToken needs at least one secret.');
  const keys = options.secrets.map(identitySecretBytes);
  const tolerance = options.clockToleranceSeconds ?? DEFAULT_CLOCK_TOLERANCE_SECONDS;
  const now = epochSeconds(options.now ?? new Date());
  const parts = typeof token === 'string' ? token.split('.') : [];
  if (parts.length !== 3) fail('malformed', 'The identity token is not a JWT: expected three base64url parts, header.payload.signature.');
  const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
  let header: unknown;
  try {
    header = base64urlJson(headerPart);
  } catch (error) {
    fail('malformed', "The identity token's header is not base64url-encoded JSON.", undefined, error);
  }
  if (!isObject(header)) fail('malformed', "The identity token's header is not a JSON object.");
  // Checked before any key is tried: "none" and asymmetric algorithms never reach signature verification.
  if (header.alg !== IDENTITY_TOKEN_ALGORITHM) {
    fail('algorithm_not_allowed', `The identity token is signed with ${JSON.stringify(header.alg)}; only HS256 is accepted.`);
  }
  if (header.crit !== undefined) fail('malformed', 'The identity token names critical header parameters ("crit"), which are not supported.');
  let signature: Uint8Array<ArrayBuffer>;
  try {
    signature = base64urlBytes(signaturePart);
  } catch (error) {
    fail('malformed', "The identity token's signature is not base64url.", undefined, error);
  }
  const signed = new TextEncoder().encode(`${headerPart}.${payloadPart}`);
  for (const secret of keys) {
    const key = await crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
    if (!(await crypto.subtle.verify('HMAC', key, signature, signed))) continue;
    let payload: unknown;
    try {
      payload = base64urlJson(payloadPart);
    } catch (error) {
      fail('malformed', "The identity token's payload is not base64url-encoded JSON.", undefined, error);
    }
    if (!isObject(payload)) fail('malformed', "The identity token's payload is not a JSON object.");
    return checkClaims(payload, now, tolerance);
  }
  return fail('signature_invalid', "The identity token's signature matches none of the widget's identity secrets; sign with the current secret.");
}
