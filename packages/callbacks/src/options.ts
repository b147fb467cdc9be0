import { importSecret } from './hmac.js';

/** Spec 8: suggested callback timestamp tolerance. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** One secret, or several while rotating (any one of them may have signed). */
export type CallbackSecretOptions =
  | { secret: string; secrets?: undefined }
  | { secrets: readonly string[]; secret?: undefined };

export type VerifyCallbackOptions = CallbackSecretOptions & {
  /**
   * How far `X-Svc-Timestamp` may be from now, in seconds, in either direction. Default 300 (spec 8). `0` means
   * "this very second", not "no check": there is no way to switch the check off. Negative, NaN or infinite
   * values throw a `TypeError`.
   */
  toleranceSeconds?: number;
  /** The current time, for tests. A function is read on each delivery (middleware lives for the process). */
  now?: Date | (() => Date);
};

/** Options with every default applied and every secret imported once. */
export interface ResolvedOptions {
  keys: Promise<CryptoKey[]>;
  toleranceSeconds: number;
  now: () => Date;
}

/**
 * The one place defaults are applied, with `??` so an explicit 0 is kept (Stripe's `tolerance || 0` turns 0 into
 * "disabled"). Misconfiguration is a `TypeError` at once, never a delivery rejected (or accepted) later.
 */
export function resolveOptions(options: VerifyCallbackOptions): ResolvedOptions {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('Pass options with the callback secret: verifyCallback(delivery, { secret: process.env.SVC_CALLBACK_SECRET })');
  }
  const toleranceSeconds = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (typeof toleranceSeconds !== 'number' || !Number.isFinite(toleranceSeconds) || toleranceSeconds < 0) {
    throw new TypeError(
      `toleranceSeconds must be a finite number of seconds >= 0 (got ${String(toleranceSeconds)}); omit it for the default of ${DEFAULT_TOLERANCE_SECONDS}`,
    );
  }
  const now = options.now ?? (() => new Date());
  return { keys: Promise.all(secretsOf(options).map(importSecret)), toleranceSeconds, now: typeof now === 'function' ? now : () => now };
}

function secretsOf(options: VerifyCallbackOptions): readonly string[] {
  const { secret, secrets } = options;
  if (secret !== undefined && secrets !== undefined) {
    throw new TypeError('Pass either secret or secrets, not both: secrets: [newSecret, oldSecret] covers a rotation');
  }
  const list = secrets ?? (secret === undefined ? [] : [secret]);
  if (!Array.isArray(list) || list.length === 0) {
    throw new TypeError(
      'No callback secret: pass { secret } (the callback secret shown when the API key was created) or { secrets: [...] } while rotating. ' +
        'If it comes from an environment variable, check that the variable is set.',
    );
  }
  for (const value of list) {
    if (typeof value !== 'string' || value.length === 0) {
      throw new TypeError('Every callback secret must be a non-empty string; check the environment variable that holds it');
    }
  }
  return list;
}
