/**
 * Why a delivery was rejected, machine-readable. Each reason has its own message with the remedy; tests assert
 * both. `malformed_timestamp` is kept apart from `missing_header` because the fix differs: the header is there,
 * but something (a proxy, a test helper sending milliseconds) changed it.
 */
export const CALLBACK_VERIFICATION_REASONS = [
  'missing_header',
  'malformed_signature',
  'malformed_timestamp',
  'timestamp_too_old',
  'timestamp_too_new',
  'signature_mismatch',
  'invalid_body',
] as const;

export type CallbackVerificationReason = (typeof CALLBACK_VERIFICATION_REASONS)[number];

const ERROR_NAME = 'CallbackVerificationError';

/**
 * A delivery that must not be trusted. Answer it with a 4xx (the sender retries, spec 6) and do not act on it.
 * Programming mistakes (no secret, a negative tolerance) throw `TypeError` instead, so they are never mistaken for
 * a bad delivery.
 */
export class CallbackVerificationError extends Error {
  override readonly name = ERROR_NAME;
  readonly reason: CallbackVerificationReason;

  constructor(reason: CallbackVerificationReason, message: string) {
    super(message);
    this.reason = reason;
  }
}

/**
 * Recognises the error by its name and reason rather than `instanceof`, which fails when a bundle holds two copies
 * of this package.
 *
 * @example
 * try { await verifyCallback(delivery, { secret }); }
 * catch (error) { if (isCallbackVerificationError(error)) console.warn(error.reason); else throw error; }
 */
export function isCallbackVerificationError(error: unknown): error is CallbackVerificationError {
  if (typeof error !== 'object' || error === null) return false;
  const { name, reason } = error as { name?: unknown; reason?: unknown };
  return name === ERROR_NAME && (CALLBACK_VERIFICATION_REASONS as readonly unknown[]).includes(reason);
}
