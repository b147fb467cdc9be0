import { APICallError, InvalidResponseDataError, JSONParseError, RetryError, TypeValidationError } from 'ai';
import { abortable } from '../abort.js';

/** Why an embedding or rerank call failed, for logs and for the caller's choice to retry later or go without. */
export type RetrievalFailureReason =
  /** The provider answered 429 (after the retries, for embeddings). */
  | 'rate_limited'
  /** Any other error status, or the server could not be reached. */
  | 'provider_error'
  /** A 2xx whose body is not the provider's documented format. */
  | 'malformed_response'
  /** A vector whose length is not the configured dimensions: stored vectors of two lengths cannot be compared. */
  | 'wrong_dimensions'
  /** No answer within the provider's deadline (`timeoutMs`). */
  | 'timeout';

/**
 * The one error the retrieval providers reject with, besides the caller's own abort reason. Recognisable without
 * `instanceof` through `name` and `reason`, like the LLM agent's error.
 */
export class RetrievalProviderError extends Error {
  override readonly name = 'RetrievalProviderError';
  readonly reason: RetrievalFailureReason;
  /** The provider as configured: `openai`, `openai-compatible`, `cohere`, `jina`, `compatible`. */
  readonly provider: string;
  /** HTTP status of the provider's last answer, when there was one. */
  readonly statusCode: number | undefined;

  constructor(
    reason: RetrievalFailureReason,
    message: string,
    options: { provider: string; statusCode?: number | undefined; cause?: unknown },
  ) {
    super(message, { cause: options.cause });
    this.reason = reason;
    this.provider = options.provider;
    this.statusCode = options.statusCode;
  }
}

/** Who is calling, for messages: `provider` as configured, `label` e.g. "openai embeddings (text-embedding-3-small)". */
export interface CallLabel {
  provider: string;
  label: string;
}

/** The reason an HTTP status stands for. */
export function reasonOfStatus(status: number): RetrievalFailureReason {
  if (status === 429) return 'rate_limited';
  return status >= 200 && status < 300 ? 'malformed_response' : 'provider_error';
}

/**
 * Turns what an AI SDK call threw into a {@link RetrievalProviderError} naming the provider, the HTTP status, the
 * URL and the provider's own message.
 */
export function fromSdkError(error: unknown, who: CallLabel): RetrievalProviderError {
  if (error instanceof RetrievalProviderError) return error;
  const retried = RetryError.isInstance(error);
  const last = retried ? error.lastError : error;
  const attempts = retried ? `${error.errors.length} attempts failed; last: ` : '';
  if (APICallError.isInstance(last)) {
    const status = last.statusCode;
    const what = status === undefined ? 'no HTTP answer' : `HTTP ${status}`;
    const why = validationIssue(last.cause);
    return new RetrievalProviderError(
      status === undefined ? 'provider_error' : reasonOfStatus(status),
      `${who.label}: ${attempts}${what} from ${last.url}: ${last.message}${why === undefined ? '' : ` (${why})`}`,
      { provider: who.provider, statusCode: status, cause: error },
    );
  }
  const detail = last instanceof Error ? last.message : String(last);
  const malformed = JSONParseError.isInstance(last) || TypeValidationError.isInstance(last) || InvalidResponseDataError.isInstance(last);
  return new RetrievalProviderError(
    malformed ? 'malformed_response' : 'provider_error',
    `${who.label}: ${attempts}${malformed ? 'malformed response: ' : ''}${detail}`,
    { provider: who.provider, cause: error },
  );
}

/** The first schema mismatch of a 2xx body the SDK refused, e.g. "data: Invalid input: expected array…". */
function validationIssue(cause: unknown): string | undefined {
  if (!TypeValidationError.isInstance(cause)) return undefined;
  const issues = (cause.cause as { issues?: unknown } | undefined)?.issues;
  const first = Array.isArray(issues) ? (issues[0] as { path?: unknown; message?: unknown } | undefined) : undefined;
  if (typeof first?.message !== 'string') return cause.message.split('\n')[0];
  const path = Array.isArray(first.path) ? first.path.join('.') : '';
  return `${path === '' ? 'body' : path}: ${first.message}`;
}

export interface DeadlineOptions {
  who: CallLabel;
  timeoutMs: number;
  /** The caller's signal: when it aborts, the call rejects with its reason, unwrapped. */
  signal?: AbortSignal | undefined;
  /** What the work learned before the deadline, added to the timeout's message (e.g. "last answer: HTTP 500"). */
  progress?: () => string | undefined;
}

/**
 * Runs `work` with a signal that aborts at the deadline or when the caller's signal does, and settles as soon as
 * either happens even if the work ignores its signal (a stalled response body): a hang becomes an error someone
 * can see.
 */
export async function withDeadline<T>(work: (signal: AbortSignal) => Promise<T>, options: DeadlineOptions): Promise<T> {
  options.signal?.throwIfAborted();
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal === undefined ? deadline : AbortSignal.any([options.signal, deadline]);
  try {
    return await abortable(work(signal), signal);
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    if (deadline.aborted) {
      const progress = options.progress?.();
      throw new RetrievalProviderError(
        'timeout',
        `${options.who.label}: no answer within ${options.timeoutMs} ms${progress === undefined ? '' : ` (${progress})`}`,
        { provider: options.who.provider, cause: error },
      );
    }
    throw error;
  }
}

/** A deadline in milliseconds: a positive integer, or a RangeError naming the option. */
export function checkTimeout(timeoutMs: number): number {
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) throw new RangeError(`timeoutMs must be a positive integer; got ${timeoutMs}`);
  return timeoutMs;
}
