import type { Context, MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { CONSOLE_SESSION_MAX_MS, sha256Hex, SvcError, timingSafeEqualStrings, type AdminApi, type ConsoleSession, type Operator, type OperatorRole, type Store } from '@svc/core';
import type { AppEnv } from './auth.js';

/** The console's session cookie (DESIGN.md section 10). */
export const CONSOLE_COOKIE = 'svc_console';

/**
 * Who calls the admin API: a console operator (session cookie) or a server key with the `admin` scope, which acts as
 * the owner of its account. Every admin operation is scoped to `accountId`.
 */
export interface AdminCaller {
  accountId: string;
  role: OperatorRole;
  /** The signed-in operator and session (cookie), or null for a server key. */
  operator: Operator | null;
  session: ConsoleSession | null;
  /** The server key, or null for an operator. */
  keyId: string | null;
  /** Shown on operator replies: the operator's name, or the key's. */
  name: string;
}

const SERVER_KEY = /^sk_live_[A-Za-z0-9]{16,128}$/;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** `Authorization: Bearer sk_live_…` or `X-API-Key: sk_live_…`. */
function presentedKey(c: Context<AppEnv>): string | undefined {
  const bearer = /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
  return bearer ?? c.req.header('x-api-key')?.trim();
}

/** True when the request names a server key (the request limiter exempts those, as on the public API). */
export function claimsAdminKey(c: Context<AppEnv>): boolean {
  return presentedKey(c)?.startsWith('sk_live_') ?? false;
}

/**
 * The browser is on this very machine (`localhost`, 127.0.0.0/8, `::1`): the one place a console runs over plain
 * HTTP, so the cookie drops `Secure` there only (browsers would refuse to send it back otherwise on some setups).
 */
function isLoopbackHost(c: Context<AppEnv>): boolean {
  const host = new URL(c.req.url).hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

export function setConsoleCookie(c: Context<AppEnv>, token: string): void {
  setCookie(c, CONSOLE_COOKIE, token, {
    httpOnly: true,
    sameSite: 'Strict',
    path: '/',
    secure: !isLoopbackHost(c),
    maxAge: Math.floor(CONSOLE_SESSION_MAX_MS / 1000),
  });
}

export function clearConsoleCookie(c: Context<AppEnv>): void {
  deleteCookie(c, CONSOLE_COOKIE, { httpOnly: true, sameSite: 'Strict', path: '/', secure: !isLoopbackHost(c) });
}

/**
 * A browser's `Origin`, when it sends one, must be this server's own (the console is served from here): a page on
 * another site cannot sign anybody in or write through their cookie. Compared with the Host the request came to.
 */
export function assertSameOrigin(c: Context<AppEnv>): void {
  const origin = c.req.header('origin');
  if (origin === undefined) return;
  let host: string | null = null;
  try {
    host = new URL(origin).host;
  } catch {
    // "null" (opaque origins) and garbage are refused below.
  }
  if (host === null || host !== (c.req.header('host') ?? new URL(c.req.url).host)) {
    throw new SvcError('csrf_failed', `Requests from ${origin} may not use the console's session; use the console on this server.`);
  }
}

/**
 * Authenticates an admin request: a server key with the `admin` scope, or the console cookie. Cookie-authenticated
 * writes must echo the session's CSRF token in `X-CSRF-Token` (and come from this origin); a key is never sent by a
 * browser on its own, so key calls need neither.
 */
export function adminAuth(ctx: { store: Pick<Store, 'findApiKeyByHash'>; admin: Pick<AdminApi, 'resolveConsoleSession'> }): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const key = presentedKey(c);
    if (key !== undefined && key !== '') {
      const record = SERVER_KEY.test(key) ? await ctx.store.findApiKeyByHash(await sha256Hex(key)) : null;
      if (!record || record.revokedAt !== null) {
        throw new SvcError('invalid_api_key', 'The API key is not valid or has been revoked.');
      }
      if (record.kind !== 'secret' || !record.scopes.includes('admin')) {
        throw new SvcError('insufficient_scope', 'The admin API needs a server key with the admin scope (or a console session).');
      }
      c.set('admin', { accountId: record.accountId, role: 'owner', operator: null, session: null, keyId: record.id, name: record.name ?? 'Support' });
      return next();
    }
    const token = getCookie(c, CONSOLE_COOKIE);
    const signedIn = token ? await ctx.admin.resolveConsoleSession(token) : null;
    if (!signedIn) {
      if (token) clearConsoleCookie(c);
      throw new SvcError('authentication_required', 'Sign in to the console, or send a server key with the admin scope.');
    }
    if (!SAFE_METHODS.has(c.req.method)) {
      assertSameOrigin(c);
      const csrf = c.req.header('x-csrf-token') ?? '';
      if (!timingSafeEqualStrings(csrf, signedIn.session.csrfToken)) {
        throw new SvcError('csrf_failed', 'Send the X-CSRF-Token header the console received when signing in.');
      }
    }
    const { operator, session } = signedIn;
    c.set('admin', { accountId: operator.accountId, role: operator.role, operator, session, keyId: null, name: operator.name });
    await next();
  };
}

/** Role check after authentication: `agent`s only work conversations (DESIGN.md section 10). */
export function requireRole(roles: readonly OperatorRole[]): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const caller = c.get('admin');
    if (!roles.includes(caller.role)) {
      throw new SvcError('insufficient_role', `This needs the ${roles.join(' or ')} role; you are signed in as ${caller.role}.`);
    }
    await next();
  };
}
