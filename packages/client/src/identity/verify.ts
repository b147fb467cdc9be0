import { decodeProtectedHeader, jwtVerify, type JWTPayload } from 'jose';
import {
  epochSeconds,
  IDENTITY_TOKEN_ALGORITHM,
  isValidSub,
  MAX_IDENTITY_TOKEN_LIFETIME_SECONDS,
  secretKey,
  type IdentityTokenClaims,
} from './claims.js';
import { IdentityTokenError } from './errors.js';

/** Clocks of the signing server and this one may differ a little; a token is not refused for that. */
export const DEFAULT_CLOCK_TOLERANCE_SECONDS = 30;

export interface VerifyIdentityTokenOptions {
  /** The widget's identity secrets, current first; several during a rotation. At least one. */
  secrets: readonly string[];
  /** The time to check against; default now. */
  now?: Date;
  /** Leeway for `exp`, `nbf` and `iat`; default 30 s. */
  clockToleranceSeconds?: number;
}

function fail(reason: ConstructorParameters<typeof IdentityTokenError>[0], message: string, claim?: string, cause?: unknown): never {
  throw new IdentityTokenError(reason, message, { claim, cause });
}

/** jose's errors, told apart by their stable `code`, as failure reasons. */
function fromJose(error: unknown): never {
  const { code, claim, reason } = error as { code?: unknown; claim?: string; reason?: string };
  if (code === 'ERR_JWT_EXPIRED') fail('expired', 'The identity token has expired; fetch a fresh one from the signing server.', 'exp', error);
  if (code === 'ERR_JWT_CLAIM_VALIDATION_FAILED') {
    if (reason === 'missing') fail('claim_missing', `The identity token has no "${claim}" claim; "sub" and "exp" are required.`, claim, error);
    if (claim === 'nbf') fail('not_yet_valid', 'The identity token is not valid yet (nbf); check the signing server\'s clock.', claim, error);
    fail('claim_invalid', `The identity token's "${claim}" claim is invalid: ${(error as Error).message}.`, claim, error);
  }
  if (typeof code === 'string' && code.startsWith('ERR_J')) fail('malformed', `The identity token is not a valid JWT: ${(error as Error).message}.`, undefined, error);
  throw error;
}

function optional(payload: JWTPayload, claim: string, type: 'string' | 'boolean'): void {
  if (payload[claim] !== undefined && typeof payload[claim] !== type) fail('claim_invalid', `The identity token's "${claim}" claim must be a ${type}.`, claim);
}

/** What jose does not check: claim types, `iat` in the future, and the 24-hour lifetime. */
function checkClaims(payload: JWTPayload, now: number, tolerance: number): IdentityTokenClaims {
  const { sub, exp, iat } = payload;
  if (!isValidSub(sub)) fail('claim_invalid', 'The identity token\'s "sub" claim must be 1-255 printable characters.', 'sub');
  optional(payload, 'email', 'string');
  optional(payload, 'email_verified', 'boolean');
  optional(payload, 'name', 'string');
  if (iat !== undefined && iat > now + tolerance) fail('not_yet_valid', 'The identity token was issued in the future (iat); check the signing server\'s clock.', 'iat');
  // Measured from iat when there is one and from now in any case, so no token outlives 24 h from here.
  const lifetime = Math.max(exp! - (iat ?? now), exp! - now - tolerance);
  if (lifetime > MAX_IDENTITY_TOKEN_LIFETIME_SECONDS) {
    fail('lifetime_too_long', `The identity token lives ${lifetime} s; issue tokens valid for at most ${MAX_IDENTITY_TOKEN_LIFETIME_SECONDS} s (24 h).`, 'exp');
  }
  const claims: IdentityTokenClaims = { sub, exp: exp! };
  for (const name of ['email', 'email_verified', 'name', 'iat'] as const) {
    if (payload[name] !== undefined) Object.assign(claims, { [name]: payload[name] });
  }
  return claims;
}

/**
 * Verifies a widget identity token: HS256 only, signed with one of `secrets`, `sub` and `exp` present, not
 * expired, living at most 24 hours. Resolves to its claims or rejects with an {@link IdentityTokenError}
 * whose `reason` says why.
 *
 * @example
 * import { verifyIdentityToken } from '@svc/client/identity';
 *
 * const claims = await verifyIdentityToken(request.headers.get('x-identity-token')!, {
 *   secrets: widget.identitySecrets,
 * });
 * console.log(claims.sub, claims.email_verified);
 */
export async function verifyIdentityToken(token: string, options: VerifyIdentityTokenOptions): Promise<IdentityTokenClaims> {
  if (options.secrets.length === 0) throw new TypeError('verifyIdentityToken needs at least one secret.');
  const keys = options.secrets.map(secretKey);
  const tolerance = options.clockToleranceSeconds ?? DEFAULT_CLOCK_TOLERANCE_SECONDS;
  const currentDate = options.now ?? new Date();
  if (typeof token !== 'string' || token.split('.').length !== 3) {
    fail('malformed', 'The identity token is not a JWT: expected three base64url parts, header.payload.signature.');
  }
  let alg: unknown;
  try {
    alg = decodeProtectedHeader(token).alg;
  } catch (error) {
    fail('malformed', 'The identity token\'s header is not base64url-encoded JSON.', undefined, error);
  }
  // Checked before any key is tried: "none" and asymmetric algorithms never reach signature verification.
  if (alg !== IDENTITY_TOKEN_ALGORITHM) {
    fail('algorithm_not_allowed', `The identity token is signed with ${JSON.stringify(alg)}; only HS256 is accepted.`);
  }
  for (const key of keys) {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, key, {
        algorithms: [IDENTITY_TOKEN_ALGORITHM],
        currentDate,
        clockTolerance: tolerance,
        requiredClaims: ['sub', 'exp'],
      }));
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED') continue;
      fromJose(error);
    }
    return checkClaims(payload, epochSeconds(currentDate), tolerance);
  }
  return fail('signature_invalid', 'The identity token\'s signature matches none of the widget\'s identity secrets; sign with the current secret.');
}
