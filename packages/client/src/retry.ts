/** Which failures are retried and how long to wait; see {@link RetryOptions}. */
export interface RetryPolicy {
  limit: number;
  statuses: ReadonlySet<number>;
  baseDelayMs: number;
  maxDelayMs: number;
}

/**
 * Automatic retries. Only safe requests are retried: GETs, PUTs and DELETEs (running them twice leaves the same
 * state), and POSTs sent with an `idempotencyKey` (the server replays the first success of a key instead of
 * running the request again). Network errors and the listed statuses are retried; timeouts are not.
 */
export interface RetryOptions {
  /** Retries after the first attempt. Default 2. */
  limit?: number;
  /** Statuses worth another attempt. Default 429, 502, 503, 504. */
  statuses?: readonly number[];
  /** First backoff delay, doubled on each retry, with jitter. Default 300 ms. */
  baseDelayMs?: number;
  /**
   * Longest wait before a retry. A `Retry-After` asking for more than this is not waited for: the error is
   * thrown at once. Default 10,000 ms.
   */
  maxDelayMs?: number;
}

export const DEFAULT_RETRY: Readonly<Required<RetryOptions>> = {
  limit: 2,
  statuses: [429, 502, 503, 504],
  baseDelayMs: 300,
  maxDelayMs: 10_000,
};

export function resolveRetry(option: RetryOptions | false | undefined): RetryPolicy {
  const given: RetryOptions = option === false ? { limit: 0 } : (option ?? {});
  return {
    limit: given.limit ?? DEFAULT_RETRY.limit,
    statuses: new Set(given.statuses ?? DEFAULT_RETRY.statuses),
    baseDelayMs: given.baseDelayMs ?? DEFAULT_RETRY.baseDelayMs,
    maxDelayMs: given.maxDelayMs ?? DEFAULT_RETRY.maxDelayMs,
  };
}

/** `Retry-After` as milliseconds from `nowMs`: delay-seconds or an HTTP date (RFC 9110 section 10.2.3). */
export function parseRetryAfter(value: string | null, nowMs: number): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

/**
 * How long to wait before retry number `retry` (0 for the first), or undefined to give up. A server's
 * `Retry-After` wins over the backoff; jitter keeps many clients from retrying in step.
 */
export function retryDelay(policy: RetryPolicy, retry: number, retryAfterMs: number | undefined): number | undefined {
  if (retry >= policy.limit) return undefined;
  if (retryAfterMs !== undefined) return retryAfterMs <= policy.maxDelayMs ? retryAfterMs : undefined;
  const backoff = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  return backoff / 2 + Math.random() * (backoff / 2);
}
