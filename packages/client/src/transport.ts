import { createFetch } from 'ofetch';
import { isSvcApiError, SvcApiError } from './errors.js';
import { readResponse, type RawResult } from './response.js';
import { parseRetryAfter, retryDelay, type RetryPolicy } from './retry.js';
import type { CallOptions, ListQuery, PostOptions } from './types.js';

export interface TransportOptions {
  baseUrl: string;
  apiKey: string;
  fetch: typeof globalThis.fetch | undefined;
  timeoutMs: number;
  retry: RetryPolicy;
  headers: Record<string, string>;
}

/** Sends API requests with the client's headers, timeout and retry policy; resolves to checked envelopes. */
export interface Transport {
  /** A GET; with a `query` the response must be a list page. */
  get<R>(path: string, options: CallOptions | undefined, query?: ListQuery): Promise<R>;
  post<R>(path: string, body: object | undefined, options: PostOptions | undefined): Promise<R>;
  put<R>(path: string, body: object, options: CallOptions | undefined): Promise<R>;
  delete<R>(path: string, options: CallOptions | undefined): Promise<R>;
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

interface Request {
  method: Method;
  path: string;
  query: ListQuery | undefined;
  body: object | undefined;
  options: PostOptions | undefined;
  page: boolean;
}

type Attempt = { result: RawResult } | { error: SvcApiError; retryAfterMs?: number | undefined };

export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export function createTransport(options: TransportOptions): Transport {
  // Looked up per call, not captured: test tools and polyfills may replace globalThis.fetch after start-up.
  const $fetch = createFetch({ fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)) });

  async function attempt(request: Request, headers: Headers): Promise<Attempt> {
    const signal = request.options?.signal;
    signal?.throwIfAborted();
    const timeoutMs = request.options?.timeoutMs ?? options.timeoutMs;
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const forwardAbort = (): void => controller.abort(signal!.reason);
    signal?.addEventListener('abort', forwardAbort, { once: true });
    const label = `${request.method} ${request.path}`;
    try {
      const response = await $fetch.raw<string, 'text'>(request.path, {
        method: request.method,
        baseURL: options.baseUrl,
        // ofetch drops undefined values from the query string.
        query: request.query as Record<string, unknown> | undefined,
        body: request.body,
        headers,
        signal: controller.signal,
        retry: false,
        ignoreResponseError: true,
        responseType: 'text',
      });
      try {
        return { result: readResponse(response, response._data ?? '', request.page) };
      } catch (error) {
        if (!isSvcApiError(error)) throw error;
        return { error, retryAfterMs: parseRetryAfter(response.headers.get('retry-after'), Date.now()) };
      }
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (timedOut) return { error: new SvcApiError({ status: 0, code: 'timeout', message: `${label}: no response within ${timeoutMs} ms`, cause: error }) };
      const cause = (error as { cause?: unknown }).cause ?? error;
      const message = `${label}: could not reach the server: ${cause instanceof Error ? cause.message : String(cause)}`;
      return { error: new SvcApiError({ status: 0, code: 'network_error', message, cause }) };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', forwardAbort);
    }
  }

  async function send(request: Request): Promise<RawResult> {
    const call = request.options;
    const headers = new Headers({ accept: 'application/json', 'x-api-key': options.apiKey });
    for (const extra of [options.headers, call?.headers]) for (const [name, value] of Object.entries(extra ?? {})) headers.set(name, value);
    if (call?.idempotencyKey !== undefined) headers.set('idempotency-key', call.idempotencyKey);
    // Only requests that may run twice are retried: the idempotent methods (RFC 9110 section 9.2.2: GET, PUT,
    // DELETE), and POSTs the server de-duplicates by key.
    const safe = request.method !== 'POST' || call?.idempotencyKey !== undefined;
    for (let retry = 0; ; retry++) {
      const outcome = await attempt(request, headers);
      if ('result' in outcome) return outcome.result;
      const { error } = outcome;
      const retriable = safe && (error.code === 'network_error' || options.retry.statuses.has(error.status));
      const delay = retriable ? retryDelay(options.retry, retry, outcome.retryAfterMs) : undefined;
      if (delay === undefined) throw error;
      await sleep(delay, call?.signal);
    }
  }

  const call = <R>(method: Method, path: string, body: object | undefined, callOptions: PostOptions | undefined, query?: ListQuery): Promise<R> =>
    send({ method, path, query, body, options: callOptions, page: query !== undefined }) as Promise<R>;
  return {
    get: (path, callOptions, query) => call('GET', path, undefined, callOptions, query),
    post: (path, body, callOptions) => call('POST', path, body, callOptions),
    put: (path, body, callOptions) => call('PUT', path, body, callOptions),
    delete: (path, callOptions) => call('DELETE', path, undefined, callOptions),
  };
}
