import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { callbackUrlProblem } from '../net/address-policy.js';
import { policyRequestOptions, type ConnectOptions } from '../net/connect.js';

export type { ConnectOptions };

/** DESIGN.md section 5: success is any 2xx within 10 s; redirects are not followed. */
export const DELIVERY_TIMEOUT_MS = 10_000;

export interface PostResult {
  ok: boolean;
  status: number | null;
  error: string | null;
}

/** POSTs one delivery attempt. Never throws: every outcome is a result. */
export function postCallback(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: ConnectOptions & { timeoutMs?: number },
): Promise<PostResult> {
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return resolve({ ok: false, status: null, error: 'invalid callback URL' });
    }
    const problem = callbackUrlProblem(target, options.allowPrivate);
    if (problem) return resolve({ ok: false, status: null, error: problem });
    const isHttps = target.protocol === 'https:';
    const send = isHttps ? httpsRequest : httpRequest;
    const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
    let settled = false;
    const done = (result: PostResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const req = send(
      target,
      {
        method: 'POST',
        headers: { ...headers, host: target.host, 'content-length': Buffer.byteLength(body).toString() },
        ...policyRequestOptions(target, options),
      },
      (res: IncomingMessage) => {
        const status = res.statusCode ?? 0;
        // The body is not needed; drain it so the socket closes.
        res.resume();
        res.on('end', () => done({ ok: status >= 200 && status < 300, status, error: status >= 200 && status < 300 ? null : `HTTP ${status}` }));
        res.on('error', (error) => done({ ok: false, status, error: error.message }));
      },
    );
    // The whole exchange, not just the connection, must finish within the limit.
    const timer = setTimeout(() => {
      req.destroy(new Error(`no 2xx within ${timeoutMs} ms`));
    }, timeoutMs);
    req.on('error', (error) => done({ ok: false, status: null, error: error.message }));
    req.end(body);
  });
}
