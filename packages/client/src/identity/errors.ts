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

/**
 * True for an {@link IdentityTokenError}, also one from another copy of this package (no `instanceof`).
 *
 * @example
 * if (isIdentityTokenError(error)) log.warn({ reason: error.reason }, 'identity token refused');
 */
export function isIdentityTokenError(value: unknown): value is IdentityTokenError {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { name?: unknown }).name === BRAND &&
    typeof (value as { reason?: unknown }).reason === 'string'
  );
}
