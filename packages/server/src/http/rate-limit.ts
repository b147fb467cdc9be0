import type { MiddlewareHandler } from 'hono';
import { SvcError, type Clock } from '@svc/core';
import type { AppEnv } from './auth.js';

export interface RateLimitOptions {
  /** Requests allowed per window and client. */
  limit: number;
  windowMs: number;
  clock: Clock;
  /** Which requests count, and under which client key; undefined means "not limited". */
  keyOf: (c: Parameters<MiddlewareHandler<AppEnv>>[0]) => string | undefined;
}

interface Window {
  startedAt: number;
  count: number;
}

/**
 * Fixed-window limiter kept in process memory: cheap, and enough to blunt a browser-side flood against public
 * keys (several instances each apply it; a shared limiter would need the database on every request).
 * Answers 429 `rate_limited` with `Retry-After` and the IETF `RateLimit-*` headers.
 */
export function rateLimit(options: RateLimitOptions): MiddlewareHandler<AppEnv> {
  const windows = new Map<string, Window>();
  let lastPrune = 0;

  return async (c, next) => {
    const key = options.keyOf(c);
    if (key === undefined) return next();
    const now = options.clock.now().getTime();
    if (now - lastPrune > options.windowMs) {
      for (const [k, w] of windows) if (now - w.startedAt >= options.windowMs) windows.delete(k);
      lastPrune = now;
    }
    let window = windows.get(key);
    if (!window || now - window.startedAt >= options.windowMs) {
      window = { startedAt: now, count: 0 };
      windows.set(key, window);
    }
    window.count++;
    const resetSeconds = Math.max(1, Math.ceil((window.startedAt + options.windowMs - now) / 1000));
    const remaining = Math.max(0, options.limit - window.count);
    const headers = {
      'RateLimit-Limit': String(options.limit),
      'RateLimit-Remaining': String(remaining),
      'RateLimit-Reset': String(resetSeconds),
    };
    if (window.count > options.limit) {
      for (const [name, value] of Object.entries(headers)) c.header(name, value);
      c.header('Retry-After', String(resetSeconds));
      throw new SvcError('rate_limited', `Too many requests; retry in ${resetSeconds} s.`);
    }
    await next();
    for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
  };
}

/** The client address as the socket saw it, or the first X-Forwarded-For hop when the operator trusts a proxy. */
export function clientAddress(c: Parameters<MiddlewareHandler<AppEnv>>[0], trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return env?.incoming?.socket?.remoteAddress ?? 'unknown';
}
