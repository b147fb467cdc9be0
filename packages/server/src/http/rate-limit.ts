import type { Context, MiddlewareHandler } from 'hono';
import { isIP } from 'node:net';
import { SvcError, type Clock, type Store } from '@svc/core';
import type { AppEnv } from './auth.js';
import { errorBody } from './respond.js';

export interface RateLimitOptions {
  store: Store;
  clock: Clock;
  /** Requests allowed per window and client address. */
  limit: number;
  windowMs: number;
  /** Reverse proxies in front of the server that append to X-Forwarded-For (0: use the socket's peer). */
  trustedProxyHops: number;
  /** Whether the request names a server key (exempt unless it turns out invalid); default: an `sk_live_` X-API-Key. */
  claimsServerKey?: (c: Context<AppEnv>) => boolean;
}

/**
 * The per-address limit of DESIGN.md section 4, applied BEFORE authentication: every request counts under its
 * client address except those carrying a server key (the operator's own backends), which count only when the key
 * turns out not to be valid. So unknown and invalid keys are throttled too, and a flood is refused before any key
 * lookup. Counters live in the store (fixed windows), so N instances share one limit; the process itself keeps
 * nothing per client, so no attacker can grow its memory. Answers 429 `rate_limited` with `Retry-After` and the
 * IETF `RateLimit-*` headers.
 */
export function rateLimit(options: RateLimitOptions): MiddlewareHandler<AppEnv> {
  const { store, clock, limit, windowMs } = options;
  let prunedWindow = 0;

  async function hit(address: string): Promise<{ over: boolean; headers: Record<string, string> }> {
    const now = clock.now().getTime();
    const windowStart = Math.floor(now / windowMs) * windowMs;
    if (windowStart !== prunedWindow) {
      // Once per window and process: earlier windows can no longer count. Failures only delay the cleanup.
      prunedWindow = windowStart;
      store.deleteRateCountersBefore(new Date(windowStart)).catch(() => undefined);
    }
    const count = await store.incrementRateCounter(`addr:${address}`, new Date(windowStart));
    const resetSeconds = Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000));
    const headers: Record<string, string> = {
      'RateLimit-Limit': String(limit),
      'RateLimit-Remaining': String(Math.max(0, limit - count)),
      'RateLimit-Reset': String(resetSeconds),
    };
    if (count > limit) headers['Retry-After'] = String(resetSeconds);
    return { over: count > limit, headers };
  }

  const tooMany = (headers: Record<string, string>): SvcError =>
    new SvcError('rate_limited', `Too many requests from this address; retry in ${headers['Retry-After']} s.`);

  return async (c, next) => {
    const address = clientAddress(c, options.trustedProxyHops);
    const claimsServerKey = options.claimsServerKey ? options.claimsServerKey(c) : (c.req.header('x-api-key')?.trim().startsWith('sk_live_') ?? false);

    if (!claimsServerKey) {
      const { over, headers } = await hit(address);
      if (over) {
        for (const [name, value] of Object.entries(headers)) c.header(name, value);
        throw tooMany(headers);
      }
      await next();
      for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
      return;
    }

    await next();
    if (c.get('principal') !== undefined || c.get('admin') !== undefined || c.res.status !== 401) return;
    // A server-key-shaped key that is unknown or revoked: counted like any anonymous request.
    const { over, headers } = await hit(address);
    if (!over) {
      for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
      return;
    }
    const { status, body } = errorBody(tooMany(headers));
    c.res = undefined as unknown as Response; // replace the 401 rather than merge its headers into the 429
    c.res = c.json(body, status, headers);
  };
}

/**
 * The client's address. Without trusted proxies it is the socket's peer. Behind `trustedProxyHops` proxies that
 * each append the address they received from to X-Forwarded-For, it is the entry that many places from the right:
 * entries further left were written by the client and prove nothing (rotating them must not reset a limit).
 * IPv6 clients are counted per /64, the block one subscriber usually holds.
 */
export function clientAddress(c: Context<AppEnv>, trustedProxyHops: number): string {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  const peer = env?.incoming?.socket?.remoteAddress ?? 'unknown';
  if (trustedProxyHops <= 0) return addressKey(peer);
  const hops = (c.req.raw.headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (hops.length === 0) return addressKey(peer);
  const chosen = stripPort(hops[Math.max(0, hops.length - trustedProxyHops)]!);
  // A trusted proxy writes addresses; anything else means the header is not what we think it is.
  return isIP(chosen) === 0 ? addressKey(peer) : addressKey(chosen);
}

function stripPort(entry: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(entry);
  if (bracketed) return bracketed[1]!;
  const v4WithPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(entry);
  return v4WithPort ? v4WithPort[1]! : entry;
}

/** IPv4 as is (IPv4-mapped IPv6 unwrapped); IPv6 reduced to its /64. */
function addressKey(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (isIP(address) !== 6) return address;
  const [head = '', tail = ''] = address.toLowerCase().split('%')[0]!.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === '' ? [] : tail.split(':');
  const groups = address.includes('::') ? [...left, ...new Array<string>(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}
