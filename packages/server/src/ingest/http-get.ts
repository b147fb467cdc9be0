import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { policyRequestOptions, type ConnectOptions } from '../net/connect.js';

/** One response of one GET (no redirect followed). */
export interface Hop {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body when `wantBody` asked for it; null otherwise (the connection was closed unread). */
  body: Buffer | null;
  /**
   * The body passed `maxBytes` (announced or while reading): reading stopped there, and `body` is null, or with
   * `truncate` its first `maxBytes`.
   */
  tooLarge: boolean;
  /** Bytes of body received, whether kept or not. */
  received: number;
}

export interface GetOptions {
  connect: ConnectOptions;
  headers: Record<string, string>;
  /** Epoch milliseconds by which the whole response (headers and body) must have arrived. */
  deadline: number;
  maxBytes: number;
  /** Keep the first `maxBytes` of a longer body instead of none (robots.txt). */
  truncate?: boolean;
  signal?: AbortSignal;
  /** Whether to read the body of a response with this status and these headers. */
  wantBody: (status: number, headers: IncomingHttpHeaders) => boolean;
}

/** A failed exchange: `code` is `ETIMEDOUT` for the deadline, `EPRIVATE` for an address the policy refused, or Node's. */
export class GetError extends Error {
  override readonly name = 'GetError';
  constructor(
    message: string,
    readonly code: string,
    readonly received: number,
  ) {
    super(message);
  }
}

/**
 * One GET through the address policy's connection (every DNS answer judged, the approved address dialled; the caller
 * judged the URL). Resolves with the response, rejects with a GetError, or with the signal's reason when aborted.
 */
export function getOnce(target: URL, options: GetOptions): Promise<Hop> {
  return new Promise((resolve, reject) => {
    let received = 0;
    let settled = false;
    const finish = (outcome: { hop: Hop } | { error: unknown }): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if ('hop' in outcome) resolve(outcome.hop);
      else reject(outcome.error);
    };
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(target, { method: 'GET', headers: options.headers, ...policyRequestOptions(target, options.connect) }, (res: IncomingMessage) => {
      const status = res.statusCode ?? 0;
      const headers = res.headers;
      const chunks: Buffer[] = [];
      const close = (tooLarge: boolean): void => {
        const body = tooLarge && options.truncate ? Buffer.concat(chunks).subarray(0, options.maxBytes) : null;
        finish({ hop: { status, headers, body, tooLarge, received } });
        res.destroy();
        req.destroy();
      };
      if (!options.wantBody(status, headers)) return close(false);
      const announced = Number(headers['content-length']);
      if (!options.truncate && Number.isFinite(announced) && announced > options.maxBytes) return close(true);
      res.on('data', (chunk: Buffer) => {
        received += chunk.length;
        chunks.push(chunk);
        if (received > options.maxBytes) close(true);
      });
      res.on('end', () => finish({ hop: { status, headers, body: Buffer.concat(chunks), tooLarge: false, received } }));
      res.on('error', (error: NodeJS.ErrnoException) => finish({ error: new GetError(error.message, error.code ?? 'ERESPONSE', received) }));
      res.on('aborted', () => finish({ error: new GetError('the connection closed before the whole page arrived', 'ECONNRESET', received) }));
    });
    const remaining = Math.max(0, options.deadline - Date.now());
    // Timers run before I/O callbacks: when another read's extraction held the event loop past the deadline, the
    // bytes that arrived meanwhile are taken in (setImmediate runs after the I/O poll) before the read is given up.
    const timer = setTimeout(() => {
      setImmediate(() => {
        finish({ error: new GetError(`no complete response within the page deadline`, 'ETIMEDOUT', received) });
        req.destroy();
      });
    }, remaining);
    const onAbort = (): void => {
      finish({ error: options.signal?.reason ?? new Error('aborted') });
      req.destroy();
    };
    if (options.signal?.aborted) return onAbort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', (error: NodeJS.ErrnoException) => finish({ error: new GetError(error.message, error.code ?? 'EREQUEST', received) }));
    req.end();
  });
}
