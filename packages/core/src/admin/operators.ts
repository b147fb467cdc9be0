import { SvcError } from '../errors.js';
import { randomBase62 } from '../ids.js';
import {
  changePasswordRequestSchema,
  createOperatorRequestSchema,
  loginRequestSchema,
  type ConsoleSessionView,
  type OperatorView,
} from '../schemas/operator.js';
import { parseInput } from '../schemas/validate.js';
import { sha256Hex } from '../signing.js';
import type { ConsoleSession, Operator } from '../store/operator-store.js';

/**
 * Operators and their console sessions (DESIGN.md section 10): creating operators, signing in (throttled, the same
 * answer for an unknown email as for a wrong password), resolving a session cookie, signing out, and changing a
 * password, which signs the operator out everywhere else.
 */

/**
 * The password hashing port. The server's is scrypt (node:crypto); core stays free of Node APIs. `hash` returns a
 * self-describing string (algorithm, parameters, salt, digest) that `verify` reads back, so parameters can be raised
 * later without invalidating stored hashes. `verify` compares in constant time and answers false for a string it
 * cannot read.
 */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(password: string, encoded: string): Promise<boolean>;
}

export type { OperatorContext } from '../context.js';
import type { OperatorContext } from '../context.js';

/** Sign-in throttle (DESIGN.md section 10): failures per email and per client address in fixed 15-minute windows. */
export const LOGIN_THROTTLE = { perEmail: 5, perAddress: 20, windowMs: 15 * 60_000 } as const;

/** A console session ends after this long unused… */
export const CONSOLE_SESSION_IDLE_MS = 12 * 3600_000;
/** …and this long after sign-in whatever happens. */
export const CONSOLE_SESSION_MAX_MS = 7 * 24 * 3600_000;
/** Use is recorded at most this often, so reading pages does not write on every request. */
const TOUCH_INTERVAL_MS = 5 * 60_000;

const TOKEN_SHAPE = /^cst_[A-Za-z0-9]{43}$/;

export interface SignedIn {
  operator: Operator;
  session: ConsoleSession;
  /** The cookie's value: shown once, stored only as its SHA-256. */
  token: string;
}

export function describeOperator(operator: Operator): OperatorView {
  return {
    id: operator.id,
    email: operator.email,
    name: operator.name,
    role: operator.role,
    accountId: operator.accountId,
    createdAt: operator.createdAt.toISOString(),
  };
}

export function describeConsoleSession(signedIn: { operator: Operator; session: ConsoleSession }): ConsoleSessionView {
  return { operator: describeOperator(signedIn.operator), csrfToken: signedIn.session.csrfToken };
}

/**
 * Adds an operator to an account. Input as `POST /admin/v1/operators` takes it; the email is unique across the
 * service (409 `email_taken`), the role defaults to `agent`, the password is stored only as its hash.
 *
 * @example
 * const operator = await createOperator(ctx, 'acct_…', { email: 'ana@shop.example', role: 'owner', password });
 */
export async function createOperator(ctx: OperatorContext, accountId: string, input: unknown): Promise<Operator> {
  const request = parseInput(createOperatorRequestSchema, input);
  const account = await ctx.store.getAccount(accountId);
  if (!account) throw new SvcError('validation_failed', `Account ${accountId} does not exist.`, { field: 'account' });
  const now = ctx.clock.now();
  const operator: Operator = {
    id: ctx.ids.random('op'),
    accountId: account.id,
    email: request.email,
    name: request.name ?? request.email.split('@')[0]!,
    role: request.role,
    passwordHash: await ctx.passwords.hash(request.password),
    createdAt: now,
    passwordChangedAt: now,
  };
  if (!(await ctx.store.insertOperator(operator))) {
    throw new SvcError('email_taken', `An operator with the email ${request.email} already exists.`, { field: 'email' });
  }
  return operator;
}

export async function listOperators(ctx: Pick<OperatorContext, 'store'>, accountId: string): Promise<Operator[]> {
  return ctx.store.listOperators(accountId);
}

/** A hash of a password nobody knows, per hasher: an unknown email costs one verification, like a known one. */
const decoys = new WeakMap<PasswordHasher, Promise<string>>();
function decoyHash(passwords: PasswordHasher): Promise<string> {
  let decoy = decoys.get(passwords);
  if (!decoy) {
    decoy = passwords.hash(randomBase62(32));
    decoys.set(passwords, decoy);
  }
  return decoy;
}

interface ThrottleWindow {
  start: Date;
  retryAfterSeconds: number;
}

function throttleWindow(now: Date): ThrottleWindow {
  const start = Math.floor(now.getTime() / LOGIN_THROTTLE.windowMs) * LOGIN_THROTTLE.windowMs;
  return { start: new Date(start), retryAfterSeconds: Math.max(1, Math.ceil((start + LOGIN_THROTTLE.windowMs - now.getTime()) / 1000)) };
}

const emailKey = (email: string) => `email:${email}`;
const addressKey = (address: string) => `addr:${address}`;

/** Refuses before any password is checked once the email or the address has used up its failures for the window. */
async function assertNotThrottled(ctx: OperatorContext, keys: Array<{ key: string; limit: number }>, window: ThrottleWindow): Promise<void> {
  for (const { key, limit } of keys) {
    if ((await ctx.store.countLoginFailures(key, window.start)) >= limit) {
      throw new SvcError('rate_limited', `Too many failed sign-ins; try again in ${window.retryAfterSeconds} s.`, {
        retryAfterSeconds: window.retryAfterSeconds,
      });
    }
  }
}

async function recordFailure(ctx: OperatorContext, keys: string[], window: ThrottleWindow): Promise<void> {
  for (const key of keys) await ctx.store.recordLoginFailure(key, window.start);
  // Earlier windows can no longer count; a failed cleanup only delays it.
  await ctx.store.deleteLoginFailuresBefore(window.start).catch(() => undefined);
}

/**
 * Signs an operator in. Wrong password and unknown email get the same 401 `invalid_credentials` after the same
 * work (a decoy hash is verified for an unknown email). After {@link LOGIN_THROTTLE} failures for the email or the
 * client address in the current window, 429 `rate_limited` with `retryAfterSeconds`, before any password check.
 */
export async function signIn(ctx: OperatorContext, input: unknown, client: { address: string }): Promise<SignedIn> {
  const { email, password } = parseInput(loginRequestSchema, input);
  const now = ctx.clock.now();
  const window = throttleWindow(now);
  await assertNotThrottled(
    ctx,
    [
      { key: emailKey(email), limit: LOGIN_THROTTLE.perEmail },
      { key: addressKey(client.address), limit: LOGIN_THROTTLE.perAddress },
    ],
    window,
  );
  const operator = await ctx.store.findOperatorByEmail(email);
  const matches = await ctx.passwords.verify(password, operator?.passwordHash ?? (await decoyHash(ctx.passwords)));
  if (!operator || !matches) {
    await recordFailure(ctx, [emailKey(email), addressKey(client.address)], window);
    throw new SvcError('invalid_credentials', 'The email or the password is wrong.');
  }
  const token = `cst_${randomBase62(43)}`;
  const session: ConsoleSession = {
    id: ctx.ids.random('cs'),
    tokenHash: await sha256Hex(token),
    operatorId: operator.id,
    accountId: operator.accountId,
    csrfToken: randomBase62(32),
    createdAt: now,
    expiresAt: new Date(now.getTime() + CONSOLE_SESSION_IDLE_MS),
    lastSeenAt: now,
  };
  await ctx.store.insertConsoleSession(session);
  await ctx.store.deleteExpiredConsoleSessions(now).catch(() => undefined);
  return { operator, session, token };
}

/**
 * The operator and session a cookie's token stands for, or null (unknown, expired, or its operator is gone). Use
 * slides the expiry forward, never past {@link CONSOLE_SESSION_MAX_MS} after sign-in.
 */
export async function resolveConsoleSession(
  ctx: Pick<OperatorContext, 'store' | 'clock'>,
  token: string,
): Promise<{ operator: Operator; session: ConsoleSession } | null> {
  if (!TOKEN_SHAPE.test(token)) return null;
  const session = await ctx.store.findConsoleSession(await sha256Hex(token));
  if (!session) return null;
  const now = ctx.clock.now();
  if (session.expiresAt.getTime() <= now.getTime()) {
    await ctx.store.deleteConsoleSession(session.id);
    return null;
  }
  const operator = await ctx.store.getOperator(session.operatorId);
  if (!operator) return null;
  if (now.getTime() - session.lastSeenAt.getTime() >= TOUCH_INTERVAL_MS) {
    const expiresAt = new Date(Math.min(now.getTime() + CONSOLE_SESSION_IDLE_MS, session.createdAt.getTime() + CONSOLE_SESSION_MAX_MS));
    await ctx.store.touchConsoleSession(session.id, now, expiresAt);
    return { operator, session: { ...session, lastSeenAt: now, expiresAt } };
  }
  return { operator, session };
}

export async function signOut(ctx: Pick<OperatorContext, 'store'>, session: ConsoleSession): Promise<void> {
  await ctx.store.deleteConsoleSession(session.id);
}

/**
 * Replaces the operator's password after checking the current one (400 naming `currentPassword`; failures count
 * towards the sign-in throttle, so a stolen session cannot be used to guess it), then ends every other session of
 * the operator: whoever else held one is signed out.
 */
export async function changePassword(ctx: OperatorContext, signedIn: { operator: Operator; session: ConsoleSession }, input: unknown): Promise<void> {
  const { currentPassword, newPassword } = parseInput(changePasswordRequestSchema, input);
  const operator = await ctx.store.getOperator(signedIn.operator.id);
  if (!operator) throw new SvcError('authentication_required', 'Your operator account no longer exists; sign in again.');
  const window = throttleWindow(ctx.clock.now());
  const keys = [emailKey(operator.email)];
  await assertNotThrottled(ctx, [{ key: keys[0]!, limit: LOGIN_THROTTLE.perEmail }], window);
  if (!(await ctx.passwords.verify(currentPassword, operator.passwordHash))) {
    await recordFailure(ctx, keys, window);
    throw new SvcError('validation_failed', 'currentPassword is not your current password.', { field: 'currentPassword' });
  }
  const passwordHash = await ctx.passwords.hash(newPassword);
  await ctx.store.transaction(async (tx) => {
    await tx.setOperatorPassword(operator.id, passwordHash, ctx.clock.now());
    await tx.deleteOperatorSessions(operator.id, signedIn.session.id);
  });
}
