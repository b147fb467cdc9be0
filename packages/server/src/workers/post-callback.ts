import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/** DESIGN.md section 5: success is any 2xx within 10 s; redirects are not followed. */
export const DELIVERY_TIMEOUT_MS = 10_000;

export interface PostResult {
  ok: boolean;
  status: number | null;
  error: string | null;
}

/** Addresses a callback must never reach unless private callbacks are allowed (SSRF into the operator's network). */
const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  PRIVATE.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['::ffff:0:0', 96],
  ['64:ff9b::', 96],
] as const) {
  PRIVATE.addSubnet(net, prefix, 'ipv6');
}

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * Resolves like dns.lookup but refuses private, loopback and link-local answers. Checking at connect time (not
 * when the URL was saved) also defeats DNS rebinding: the address checked is the address connected to.
 */
const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    const list = (addresses as unknown as LookupAddress[]).filter((a) => !isPrivateAddress(a.address));
    if (list.length === 0) {
      return callback(Object.assign(new Error(`${hostname} resolves only to private addresses`), { code: 'EPRIVATE' }), '', 0);
    }
    if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
    callback(null, list[0]!.address, list[0]!.family);
  });
};

/** POSTs one delivery attempt. Never throws: every outcome is a result. */
export function postCallback(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: { allowPrivate: boolean; timeoutMs?: number },
): Promise<PostResult> {
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return resolve({ ok: false, status: null, error: 'invalid callback URL' });
    }
    const isHttps = target.protocol === 'https:';
    if (!isHttps && !(options.allowPrivate && target.protocol === 'http:')) {
      return resolve({ ok: false, status: null, error: 'callback URL must use https' });
    }
    const literal = target.hostname.replace(/^\[|\]$/g, '');
    if (!options.allowPrivate && isIP(literal) && isPrivateAddress(literal)) {
      return resolve({ ok: false, status: null, error: 'callback URL points to a private address' });
    }
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
        headers: { ...headers, 'content-length': Buffer.byteLength(body).toString() },
        ...(options.allowPrivate ? {} : { lookup: publicOnlyLookup }),
        agent: false,
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
