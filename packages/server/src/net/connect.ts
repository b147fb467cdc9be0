import type { RequestOptions } from 'node:https';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { isPublicAddress, normaliseHost } from './address-policy.js';

/**
 * How an outbound request connects (callbacks, webhooks, the site reader). Production sets only `allowPrivate`
 * (SVC_ALLOW_PRIVATE_URLS); the rest exist so tests can run the default policy end to end without sending traffic
 * off the machine.
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

/**
 * The connection half of `http(s).request` options for `target`: the policy's lookup (every DNS answer judged, the
 * approved address dialled), no shared agent (a pooled socket would skip the lookup), and for an address literal,
 * which Node dials without a lookup, the test's dial mapping. The URL itself is judged before, by the caller's
 * `*UrlProblem` of address-policy.ts.
 */
export function policyRequestOptions(target: URL, options: ConnectOptions): RequestOptions {
  const literal = normaliseHost(target.hostname);
  const dialTarget = isIP(literal) !== 0 && options.dialApproved ? options.dialApproved(literal) : undefined;
  return {
    lookup: policyLookup(options),
    agent: false,
    ...(dialTarget === undefined ? {} : { hostname: dialTarget }),
    ...(options.ca === undefined ? {} : { ca: options.ca }),
  };
}
