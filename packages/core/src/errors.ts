/**
 * Every failure the service reports, with its HTTP status. The table is the single source: the HTTP adapter,
 * the client and the OpenAPI document read statuses from here (DESIGN.md section 4).
 */
export const ERROR_STATUS = {
  invalid_json: 400,
  validation_failed: 400,
  invalid_cursor: 400,
  callback_not_configured: 400,
  form_rejected: 400,
  invalid_identity: 400,
  missing_api_key: 401,
  invalid_api_key: 401,
  invalid_identity_token: 401,
  authentication_required: 401,
  invalid_credentials: 401,
  insufficient_credits: 402,
  insufficient_scope: 403,
  identity_scope_required: 403,
  origin_not_allowed: 403,
  identity_mismatch: 403,
  csrf_failed: 403,
  insufficient_role: 403,
  widget_not_found: 404,
  session_not_found: 404,
  knowledge_base_not_found: 404,
  product_not_found: 404,
  document_not_found: 404,
  source_not_found: 404,
  message_not_found: 404,
  question_group_not_found: 404,
  not_found: 404,
  method_not_allowed: 405,
  session_id_taken: 409,
  session_not_active: 409,
  session_active: 409,
  message_not_rateable: 409,
  question_group_closed: 409,
  email_taken: 409,
  idempotency_key_reused: 422,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal_error: 500,
  agent_unavailable: 502,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** Brand checked by {@link isSvcError}, so errors are recognised across duplicated package copies. */
const BRAND = 'SvcError';

export interface SvcErrorOptions {
  /** Dotted path of the offending input field, e.g. `identity.sub`. */
  field?: string;
  cause?: unknown;
  /** For `rate_limited`: when to try again, sent as `Retry-After`. */
  retryAfterSeconds?: number;
}

export class SvcError extends Error {
  override readonly name = BRAND;
  readonly code: ErrorCode;
  readonly status: number;
  readonly field: string | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(code: ErrorCode, message: string, options: SvcErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.field = options.field;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  toJSON(): { code: ErrorCode; message: string; field?: string } {
    return this.field === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, field: this.field };
  }
}

export function isSvcError(value: unknown): value is SvcError {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { name?: unknown }).name === BRAND &&
    typeof (value as { code?: unknown }).code === 'string' &&
    (value as { code: string }).code in ERROR_STATUS
  );
}

/**
 * Turns anything thrown into a SvcError. Unknown failures become `internal_error` with a generic message:
 * their details belong in the log, never in a response.
 */
export function toSvcError(value: unknown): SvcError {
  if (isSvcError(value)) return value;
  return new SvcError('internal_error', 'The server failed to process the request. It has been logged; try again.', {
    cause: value,
  });
}
