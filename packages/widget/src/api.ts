/**
 * The widget's HTTP layer: the public key on every request, the identity token in a header only (never in a URL),
 * JSON in and out, and one error type carrying the server's `{ error: { code, message, field } }` (DESIGN.md 4).
 */

export class ApiError extends Error {
  // Declared, not defined: assigned once in the constructor, with no class field declarations in the bundle.
  /** HTTP status; 0 when the request never got an answer (offline, DNS, CORS refusal). */
  declare readonly status: number;
  declare readonly code: string;
  declare readonly field?: string;
  /** Seconds to wait, from `Retry-After` on a 429. */
  declare readonly retryAfter?: number;

  constructor(status: number, code: string, message: string, field?: string, retryAfter?: number) {
    super(message);
    Object.assign(this, { status, code, field, retryAfter });
  }
}

export interface ApiOptions {
  base: string;
  apiKey: string;
  /** The identity token to send now, if any. */
  token(): string | null;
  /** Aborted when the widget is destroyed, so no answer lands in a widget that is gone. */
  signal: AbortSignal;
}

export interface RequestOptions {
  body?: unknown;
  /** `Idempotency-Key` (a retried POST is then safe: the server replays the first success), `Last-Event-ID`. */
  headers?: Record<string, string>;
  /** Instead of the widget's signal: the event stream ends when the panel closes (and on destroy, by its owner). */
  signal?: AbortSignal;
}

/** Resolves with the answer's JSON, or its body for an event stream (a streamed turn, the session's events). */
export type Api = <T>(method: 'GET' | 'POST', path: string, options?: RequestOptions) => Promise<T>;

/** `Retry-After` is seconds or an HTTP date (RFC 9110 10.2.3); missing or unreadable means 10 s. At most an hour. */
export function parseRetryAfter(header: string | null): number {
  const seconds = Number(header) || (Date.parse(header ?? '') - Date.now()) / 1000;
  return Math.min(Math.max(Math.ceil(seconds) || 10, 1), 3600);
}

export function createApi(options: ApiOptions): Api {
  return async function request<T>(method: 'GET' | 'POST', path: string, { body, headers: extra, signal }: RequestOptions = {}) {
    const headers: Record<string, string> = { 'X-API-Key': options.apiKey, ...extra };
    const token = options.token();
    if (token) headers['X-Identity-Token'] = token;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    let response: Response;
    signal ??= options.signal;
    try {
      // Credentials stay at fetch's default: no cookies go to another origin; the public key authenticates.
      response = await fetch(options.base + path, {
        method,
        headers,
        // Undefined without a body (what JSON.stringify gives for undefined), which fetch takes as none.
        body: JSON.stringify(body),
        signal,
      });
    } catch (cause) {
      if (signal.aborted) throw cause;
      throw new ApiError(0, 'network_error', '');
    }
    // A streamed turn (`response_type: "stream"`): the caller reads the events; refusals before it are JSON.
    if (response.ok && response.headers.get('Content-Type')?.startsWith('text/event-stream')) return response.body as T;
    let json: unknown = null;
    try {
      json = await response.json();
    } catch {
      // An empty or non-JSON body: the status alone tells what happened.
    }
    if (!response.ok) {
      const { code, message, field } = (json as { error?: Partial<Record<'code' | 'message' | 'field', string>> } | null)?.error ?? {};
      throw new ApiError(
        response.status,
        String(code ?? `http_${response.status}`),
        String(message ?? `HTTP ${response.status}`),
        field === undefined ? undefined : String(field),
        response.status === 429 ? parseRetryAfter(response.headers.get('Retry-After')) : undefined,
      );
    }
    return json as T;
  };
}
