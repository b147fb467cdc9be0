import { beforeEach, describe, expect, it } from 'vitest';
import { manualClock } from '../clock.js';
import { defaultIds } from '../ids.js';
import { isSvcError } from '../errors.js';
import { sha256Hex, timingSafeEqualStrings } from '../signing.js';
import { createMemoryStore } from '../store/memory-store.js';
import type { Store } from '../store/store.js';
import { makeAccount } from '../testing/fixtures.js';
import {
  CONSOLE_SESSION_IDLE_MS,
  CONSOLE_SESSION_MAX_MS,
  changePassword,
  createOperator,
  describeConsoleSession,
  LOGIN_THROTTLE,
  resolveConsoleSession,
  signIn,
  signOut,
  type OperatorContext,
  type PasswordHasher,
} from './operators.js';

/**
 * A salted SHA-256 stand-in for the server's scrypt (node:crypto is not available to core); it counts how often a
 * password is checked, which is what the timing rule is about.
 */
function countingHasher(): PasswordHasher & { verifications: number } {
  const hasher = {
    verifications: 0,
    async hash(password: string) {
      const salt = crypto.randomUUID();
      return `test$${salt}$${await sha256Hex(`${salt}:${password}`)}`;
    },
    async verify(password: string, encoded: string) {
      hasher.verifications++;
      const [, salt, digest] = encoded.split('$');
      return digest !== undefined && timingSafeEqualStrings(await sha256Hex(`${salt}:${password}`), digest);
    },
  };
  return hasher;
}

const PASSWORD = 'correct horse battery';

async function failure(promise: Promise<unknown>): Promise<{ code: string; field?: string; retryAfterSeconds?: number }> {
  try {
    await promise;
  } catch (error) {
    if (isSvcError(error)) return { code: error.code, ...(error.field ? { field: error.field } : {}), ...(error.retryAfterSeconds ? { retryAfterSeconds: error.retryAfterSeconds } : {}) };
    throw error;
  }
  throw new Error('expected a failure');
}

describe('operators', () => {
  let store: Store;
  let clock: ReturnType<typeof manualClock>;
  let passwords: ReturnType<typeof countingHasher>;
  let ctx: OperatorContext;
  const account = makeAccount();
  const client = { address: '203.0.113.5' };

  beforeEach(async () => {
    store = createMemoryStore();
    clock = manualClock('2026-05-01T10:00:00.000Z');
    passwords = countingHasher();
    ctx = { store, clock, ids: defaultIds, passwords };
    await store.insertAccount(account);
  });

  it('creates an operator with a normalised email, the agent role by default and only a hash of the password', async () => {
    const operator = await createOperator(ctx, account.id, { email: '  Ana@Shop.Example ', password: PASSWORD });
    expect(operator).toMatchObject({ accountId: account.id, email: 'ana@shop.example', name: 'ana', role: 'agent' });
    const stored = await store.getOperator(operator.id);
    expect(stored?.passwordHash).not.toContain(PASSWORD);
    expect(await passwords.verify(PASSWORD, stored!.passwordHash)).toBe(true);
  });

  it('refuses a taken email (any account), a short password and an unknown role, naming the field', async () => {
    await createOperator(ctx, account.id, { email: 'ana@shop.example', password: PASSWORD });
    await store.insertAccount(makeAccount({ id: 'acct_other' }));
    expect(await failure(createOperator(ctx, 'acct_other', { email: 'ANA@shop.example', password: PASSWORD }))).toEqual({ code: 'email_taken', field: 'email' });
    expect(await failure(createOperator(ctx, account.id, { email: 'bo@shop.example', password: 'short' }))).toMatchObject({ field: 'password' });
    expect(await failure(createOperator(ctx, account.id, { email: 'bo@shop.example', password: PASSWORD, role: 'admin' }))).toMatchObject({ field: 'role' });
    expect(await failure(createOperator(ctx, 'acct_missing', { email: 'bo@shop.example', password: PASSWORD }))).toMatchObject({ field: 'account' });
  });

  it('signs in to a session stored by its token hash, and resolves the token back to the operator', async () => {
    const operator = await createOperator(ctx, account.id, { email: 'ana@shop.example', password: PASSWORD, role: 'owner' });
    const signedIn = await signIn(ctx, { email: 'ANA@shop.example', password: PASSWORD }, client);
    expect(signedIn.token).toMatch(/^cst_[A-Za-z0-9]{43}$/);
    expect(await store.findConsoleSession(signedIn.token)).toBeNull();
    expect(await store.findConsoleSession(await sha256Hex(signedIn.token))).toEqual(signedIn.session);
    const resolved = await resolveConsoleSession(ctx, signedIn.token);
    expect(resolved?.operator.id).toBe(operator.id);
    expect(describeConsoleSession(resolved!)).toEqual({
      operator: { id: operator.id, email: 'ana@shop.example', name: 'ana', role: 'owner', accountId: account.id, createdAt: '2026-05-01T10:00:00.000Z' },
      csrfToken: signedIn.session.csrfToken,
    });
    expect(await resolveConsoleSession(ctx, 'cst_' + 'x'.repeat(43))).toBeNull();
    expect(await resolveConsoleSession(ctx, 'not a token')).toBeNull();
  });

  it('answers an unknown email exactly like a wrong password, after checking a password all the same', async () => {
    await createOperator(ctx, account.id, { email: 'ana@shop.example', password: PASSWORD });
    passwords.verifications = 0;
    expect(await failure(signIn(ctx, { email: 'ana@shop.example', password: 'wrong password!' }, client))).toEqual({ code: 'invalid_credentials' });
    expect(await failure(signIn(ctx, { email: 'nobody@shop.example', password: PASSWORD }, client))).toEqual({ code: 'invalid_credentials' });
    expect(passwords.verifications).toBe(2);
  });

  it('throttles an email after 5 failures in its window, even with the right password, until the window ends', async () => {
    await createOperator(ctx, account.id, { email: 'ana@shop.example', password: PASSWORD });
    clock.set('2026-05-01T10:05:00.000Z');
    for (let i = 0; i < LOGIN_THROTTLE.perEmail; i++) {
      expect((await failure(signIn(ctx, { email: 'ana@shop.example', password: `wrong ${i} password` }, { address: `198.51.100.${i}` }))).code).toBe(
        'invalid_credentials',
      );
    }
    passwords.verifications = 0;
    expect(await failure(signIn(ctx, { email: 'ana@shop.example', password: PASSWORD }, client))).toEqual({ code: 'rate_limited', retryAfterSeconds: 600 });
    expect(passwords.verifications).toBe(0);
    clock.set('2026-05-01T10:15:00.000Z');
    expect((await signIn(ctx, { email: 'ana@shop.example', password: PASSWORD }, client)).operator.email).toBe('ana@shop.example');
  });

  it('throttles an address after 20 failures whatever the emails tried', async () => {
    await createOperator(ctx, account.id, { email: 'ana@shop.example', password: PASSWORD });
    for (let i = 0; i < LOGIN_THROTTLE.perAddress; i++) {
      await failure(signIn(ctx, { email: `guess${i}@shop.example`, password: PASSWORD }, client));
    }
    expect((await failure(signIn(ctx, { email: 'ana@shop.example', password: PASSWORD }, client))).code).toBe('rate_limited');
    expect((await signIn(ctx, { email: 'ana@shop.example', password: PASSWORD }, { address: '192.0.2.1' })).operator.email).toBe('ana@shop.example');
  });

  it('expires an unused session, slides a used one, and never past its absolute lifetime', async () => {
    await createOperator(ctx, account.id, { email: 'ana@shop.example', password: PASSWORD });
    const idle = await signIn(ctx, { email: 'ana@shop.example', password: PASSWORD }, client);
    const used = await signIn(ctx, { email: 'ana@shop.example', password: PASSWORD }, client);
    const start = clock.now().getTime();
    for (let t = CONSOLE_SESSION_IDLE_MS / 2; t < CONSOLE_SESSION_MAX_MS; t += CONSOLE_SESSION_IDLE_MS / 2) {
      clock.set(new Date(start + t));
      expect(await resolveConsoleSession(ctx, used.token)).not.toBeNull();
    }
    expect(await resolveConsoleSession(ctx, idle.token)).toBeNull();
    expect(await store.findConsoleSession(idle.session.tokenHash)).toBeNull();
    clock.set(new Date(start + CONSOLE_SESSION_MAX_MS));
    expect(await resolveConsoleSession(ctx, used.token)).toBeNull();
  });

  it('signs out one session', async () => {
    await createOperator(ctx, account.id, { email: 'ana@shop.example', password: PASSWORD });
    const first = await signIn(ctx, { email: 'ana@shop.example', password: PASSWORD }, client);
    const second = await signIn(ctx, { email: 'ana@shop.example', password: PASSWORD }, client);
    await signOut(ctx, first.session);
    expect(await resolveConsoleSession(ctx, first.token)).toBeNull();
    expect(await resolveConsoleSession(ctx, second.token)).not.toBeNull();
  });

  it('changes the password after checking the current one, and ends every other session of the operator', async () => {
    await createOperator(ctx, account.id, { email: 'ana@shop.example', password: PASSWORD });
    await createOperator(ctx, account.id, { email: 'bo@shop.example', password: PASSWORD });
    const here = await signIn(ctx, { email: 'ana@shop.example', password: PASSWORD }, client);
    const elsewhere = await signIn(ctx, { email: 'ana@shop.example', password: PASSWORD }, client);
    const colleague = await signIn(ctx, { email: 'bo@shop.example', password: PASSWORD }, client);

    expect(await failure(changePassword(ctx, here, { currentPassword: 'not it at all', newPassword: 'a new long password' }))).toEqual({
      code: 'validation_failed',
      field: 'currentPassword',
    });
    expect(await failure(changePassword(ctx, here, { currentPassword: PASSWORD, newPassword: 'short' }))).toMatchObject({ field: 'newPassword' });
    expect(await resolveConsoleSession(ctx, elsewhere.token)).not.toBeNull();

    await changePassword(ctx, here, { currentPassword: PASSWORD, newPassword: 'a new long password' });
    expect(await resolveConsoleSession(ctx, here.token)).not.toBeNull();
    expect(await resolveConsoleSession(ctx, elsewhere.token)).toBeNull();
    expect(await resolveConsoleSession(ctx, colleague.token)).not.toBeNull();
    expect((await failure(signIn(ctx, { email: 'ana@shop.example', password: PASSWORD }, client))).code).toBe('invalid_credentials');
    expect((await signIn(ctx, { email: 'ana@shop.example', password: 'a new long password' }, client)).operator.email).toBe('ana@shop.example');
  });
});
