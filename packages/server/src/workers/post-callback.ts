import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { callbackUrlProblem, isPublicAddress, normaliseHost } from './address-policy.js';

/** DESIGN.md section 5: success is any 2xx within 10 s; redirects are not followed. */
export const DELIVERY_TIMEOUT_MS = 10_000;

export interface PostResult {
  ok: boolean;
  status: number | null;
  error: string | null;
}

/**
 * How a delivery connects. Production sets only `allowPrivate` (from SVC_ALLOW_PRIVATE_CALLBACKS); the rest exist
 * so tests can run the default policy end to end without sending traffic off the machine.
 */
export interface ConnectOptions {
  allowPrivate: boolean;
  /** Name resolution, all answers; defaults to `dns.lookup`. */
  resolve?: (hostname: string) => Promise<LookupAddress[]>;
  /**
   * Test only: the address a policy-approved address is actually dialled at (a loopback receiver). It is called
   * only after the policy approved the address, so a test can see what the policy let through.
   */
  dialApproved?: (approved: string) => string;
  /** Test only: extra trusted certificate (a test receiver's self-signed one). */
  ca?: string;
}

const systemResolve = (hostname: string): Promise<LookupAddress[]> =>
  new Promise((resolve, reject) => dnsLookup(hostname, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))));

/**
 * Resolves like dns.lookup but drops answers the policy refuses. Checking at connect time (not when the URL was
 * saved) also defeats DNS rebinding: the address checked is the address connected to.
 */
export function policyLookup(options: ConnectOptions): LookupFunction {
  const resolve = options.resolve ?? systemResolve;
  return (hostname, lookupOptions, callback) => {
    resolve(hostname).then(
      (answers) => {
        const approved = options.allowPrivate ? answers : answers.filter((a) => isPublicAddress(a.address));
        if (approved.length === 0) {
          const error = Object.assign(new Error(`${hostname} resolves only to private or reserved addresses`), { code: 'EPRIVATE' });
          return callback(error, '', 0);
        }
        const dialled = approved.map((a) => {
          const address = options.dialApproved ? options.dialApproved(a.address) : a.address;
          return { address, family: isIP(address) };
        });
        if ((lookupOptions as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, dialled);
        callback(null, dialled[0]!.address, dialled[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
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
    // An address literal is dialled without a lookup, so the policy (and a test's dial mapping) applies here.
    const literal = normaliseHost(target.hostname);
    const dialTarget = isIP(literal) !== 0 && options.dialApproved ? options.dialApproved(literal) : undefined;
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
        lookup: policyLookup(options),
        agent: false,
        ...(dialTarget === undefined ? {} : { hostname: dialTarget }),
        ...(options.ca === undefined ? {} : { ca: options.ca }),
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
