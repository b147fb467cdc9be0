import type { AdminContext } from '../context.js';
import { SvcError, type ErrorCode } from '../errors.js';

/** What every operator operation works with: a view of the core's one context (context.ts). */
export type { AdminContext } from '../context.js';

/**
 * Whoever runs `svc` on the database administers every account; operators of the console and holders of an
 * `admin` key administer one. Operations on an account's resource take the caller's scope: an account id, or
 * this marker for the command line.
 */
export const ANY_ACCOUNT: unique symbol = Symbol('any account');
export type AccountScope = string | typeof ANY_ACCOUNT;

/**
 * The resource if `scope` may address it. A missing resource named on the command line is a wrong flag (400, the
 * CLI's long-standing answer); for an account's operator another account's resource is reported exactly as a
 * missing one (404), so ids of other tenants cannot be probed.
 */
export function owned<T extends { accountId: string }>(
  scope: AccountScope,
  found: T | null,
  missing: { code: ErrorCode; message: string; field: string; cliCode?: ErrorCode },
): T {
  if (found && (scope === ANY_ACCOUNT || found.accountId === scope)) return found;
  const code = scope === ANY_ACCOUNT ? (missing.cliCode ?? 'validation_failed') : missing.code;
  throw new SvcError(code, missing.message, { field: missing.field });
}

/** The account id a listing is limited to: none for the command line. */
export function accountFilter(scope: AccountScope): string | undefined {
  return scope === ANY_ACCOUNT ? undefined : scope;
}

/** A URL deliveries will be sent to (a key's callback URL, a webhook endpoint), normalised, or a 400 naming `field`. */
export function deliveryUrl(ctx: AdminContext, url: string, what: { label: string; field: string }): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new SvcError('validation_failed', `${what.label} "${url}" is not an absolute URL.`, { field: what.field });
  }
  // Names are checked again when each delivery connects (DNS can change); addresses can be refused right away.
  const problem = ctx.urlProblem(parsed);
  if (problem) throw new SvcError('validation_failed', `${problem}.`, { field: what.field });
  return parsed.toString();
}
