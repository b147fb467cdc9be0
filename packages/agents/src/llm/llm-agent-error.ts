import { APICallError, InvalidResponseDataError, JSONParseError, NoContentGeneratedError, RetryError, TypeValidationError } from 'ai';

/** Why a turn failed, for logs and alerts; the visitor only ever sees the engine's `agent_unavailable`. */
export type LlmFailureReason =
  /** The provider kept answering 429 until the retries ran out. */
  | 'rate_limited'
  /** The provider answered an error status (after retries when it was retryable), or could not be reached. */
  | 'provider_error'
  /** The provider answered 2xx with a body that is not the format its API documents. */
  | 'malformed_response'
  /** The model produced no text and no form, farewell or products to stand in for one. */
  | 'empty_answer'
  | 'unexpected';

/**
 * The one error the LLM agent rejects with (besides the caller's own abort reason). Recognisable without
 * `instanceof` through `name` and `reason`, since the engine may see it through another copy of this package.
 */
export class LlmAgentError extends Error {
  override readonly name = 'LlmAgentError';
  readonly reason: LlmFailureReason;
  /** HTTP status of the provider's last answer, when there was one. */
  readonly statusCode: number | undefined;

  constructor(reason: LlmFailureReason, message: string, options: { cause?: unknown; statusCode?: number } = {}) {
    super(message, { cause: options.cause });
    this.reason = reason;
    this.statusCode = options.statusCode;
  }
}

/**
 * Turns whatever `generateText` threw into an {@link LlmAgentError} naming the model, the HTTP status, the URL
 * and the provider's own message, e.g. "openai.chat:gpt-4o-mini: 3 attempts failed; last: HTTP 429 from
 * https://api.openai.com/v1/chat/completions: Rate limit reached for…".
 */
export function toLlmAgentError(error: unknown, model: string): LlmAgentError {
  if (error instanceof LlmAgentError) return error;
  const retried = RetryError.isInstance(error);
  const failure = describe(retried ? error.lastError : error);
  const attempts = retried ? `${error.errors.length} attempts failed; last: ` : '';
  return new LlmAgentError(failure.reason, `${model}: ${attempts}${failure.detail}`, {
    cause: error,
    ...(failure.statusCode === undefined ? {} : { statusCode: failure.statusCode }),
  });
}

interface Failure {
  reason: LlmFailureReason;
  detail: string;
  statusCode?: number;
}

function describe(error: unknown): Failure {
  if (APICallError.isInstance(error)) {
    const statusCode = error.statusCode;
    const status = statusCode === undefined ? 'no HTTP answer' : `HTTP ${statusCode}`;
    const detail = `${status} from ${error.url}: ${error.message}`;
    // A 2xx that still failed is a body the provider handler could not parse into its documented shape.
    const ok = statusCode !== undefined && statusCode >= 200 && statusCode < 300;
    const reason = ok ? 'malformed_response' : statusCode === 429 ? 'rate_limited' : 'provider_error';
    return statusCode === undefined ? { reason, detail } : { reason, detail, statusCode };
  }
  const detail = error instanceof Error ? error.message : String(error);
  if (
    JSONParseError.isInstance(error) ||
    TypeValidationError.isInstance(error) ||
    InvalidResponseDataError.isInstance(error) ||
    NoContentGeneratedError.isInstance(error)
  ) {
    return { reason: 'malformed_response', detail: `malformed response: ${detail}` };
  }
  return { reason: 'unexpected', detail };
}
