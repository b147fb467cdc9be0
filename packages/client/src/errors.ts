import type { ErrorCode } from '@svc/core/schemas';

/**
 * Failures the client detects itself, always with `status` 0 or the status of a response it could not read:
 * - `network_error`: no response (DNS, refused or reset connection, CORS); retried where safe.
 * - `timeout`: no complete response within `timeoutMs`; not retried, the server may still be working on it.
 * - `invalid_response`: a response that is not the service's JSON envelope (a proxy's HTML page, a cut body).
 */
export type ClientErrorCode = 'network_error' | 'timeout' | 'invalid_response';

/** The service's codes (DESIGN.md section 4), the client's own, and room for codes a newer server adds. */
export type SvcApiErrorCode = ErrorCode | ClientErrorCode | (string & {});

export interface SvcApiErrorInit {
  status: number;
  code: SvcApiErrorCode;
  message: string;
  field?: string | undefined;
  requestId?: string | undefined;
  body?: unknown;
  cause?: unknown;
}

const BRAND = 'SvcApiError';

/**
 * The one error every client method rejects with (a caller's own abort excepted: that rejects with the
 * signal's reason, as `fetch` does).
 *
 * @example
 * try {
 *   await client.messages.send(widgetId, sessionId, { content: 'Hi' });
 * } catch (error) {
 *   if (isSvcApiError(error) && error.code === 'session_not_active') await startOver();
 *   else throw error;
 * }
 */
export class SvcApiError extends Error {
  override readonly name = BRAND;
  /** HTTP status; 0 when no response arrived (`network_error`, `timeout`). */
  readonly status: number;
  readonly code: SvcApiErrorCode;
  /** Dotted path of the offending input, e.g. `identity.sub`, when the server names one. */
  readonly field: string | undefined;
  /** The `X-Request-Id` response header: quote it when reporting a problem. */
  readonly requestId: string | undefined;
  /** The parsed response body (the raw text when it was not JSON); undefined without a response. */
  readonly body: unknown;

  constructor(init: SvcApiErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.field = init.field;
    this.requestId = init.requestId;
    this.body = init.body;
  }
}

/**
 * True for a {@link SvcApiError}, also one thrown by another copy of this package (no `instanceof`).
 *
 * @example
 * if (isSvcApiError(error) && error.status === 404) return null;
 */
export function isSvcApiError(value: unknown): value is SvcApiError {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { name?: unknown }).name === BRAND &&
    typeof (value as { code?: unknown }).code === 'string' &&
    typeof (value as { status?: unknown }).status === 'number'
  );
}
