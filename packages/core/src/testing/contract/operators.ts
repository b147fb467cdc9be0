import { expect, it } from 'vitest';
import type { Store } from '../../store/store.js';
import { at, makeConsoleSession, makeOperator } from '../fixtures.js';

/** Operators, their console sessions and the sign-in failure counters (DESIGN.md section 10). */
export function operatorContract(store: () => Store): void {
  it('stores operators with every field, finds them by id and email, lists one account\'s oldest first', async () => {
    const first = makeOperator({ accountId: 'acct_a', createdAt: at(2), role: 'agent' });
    const second = makeOperator({ accountId: 'acct_a', createdAt: at(5) });
    const other = makeOperator({ accountId: 'acct_b' });
    for (const operator of [second, other, first]) expect(await store().insertOperator(operator)).toBe(true);

    expect(await store().getOperator(first.id)).toEqual(first);
    expect(await store().getOperator('op_missing')).toBeNull();
    expect(await store().findOperatorByEmail(second.email)).toEqual(second);
    expect(await store().findOperatorByEmail('nobody@operators.example')).toBeNull();
    expect(await store().listOperators('acct_a')).toEqual([first, second]);
    expect(await store().listOperators('acct_b')).toEqual([other]);
    await expect(store().insertOperator({ ...first, email: 'fresh@operators.example' })).rejects.toThrow();
  });

  it('refuses a second operator with a taken email, in any account, without writing it', async () => {
    const taken = makeOperator({ accountId: 'acct_a' });
    await store().insertOperator(taken);
    const again = makeOperator({ accountId: 'acct_b', email: taken.email });
    expect(await store().insertOperator(again)).toBe(false);
    expect(await store().getOperator(again.id)).toBeNull();
    expect(await store().listOperators('acct_b')).toEqual([]);
  });

  it('replaces a password hash and records when', async () => {
    const operator = makeOperator();
    await store().insertOperator(operator);
    expect(await store().setOperatorPassword(operator.id, 'scrypt$new', at(90))).toBe(true);
    expect(await store().getOperator(operator.id)).toEqual({ ...operator, passwordHash: 'scrypt$new', passwordChangedAt: at(90) });
    expect(await store().setOperatorPassword('op_missing', 'scrypt$new', at(90))).toBe(false);
  });

  it('finds console sessions by token hash, moves their expiry, and deletes them', async () => {
    const session = makeConsoleSession();
    await store().insertConsoleSession(session);
    expect(await store().findConsoleSession(session.tokenHash)).toEqual(session);
    expect(await store().findConsoleSession('hash_missing')).toBeNull();
    await expect(store().insertConsoleSession({ ...makeConsoleSession(), tokenHash: session.tokenHash })).rejects.toThrow();

    expect(await store().touchConsoleSession(session.id, at(600), at(7200))).toBe(true);
    expect(await store().findConsoleSession(session.tokenHash)).toEqual({ ...session, lastSeenAt: at(600), expiresAt: at(7200) });
    expect(await store().touchConsoleSession('cs_missing', at(600), at(7200))).toBe(false);

    expect(await store().deleteConsoleSession(session.id)).toBe(true);
    expect(await store().deleteConsoleSession(session.id)).toBe(false);
    expect(await store().findConsoleSession(session.tokenHash)).toBeNull();
  });

  it("ends every session of an operator but the one kept, and no other operator's", async () => {
    const kept = makeConsoleSession({ operatorId: 'op_a' });
    const others = [makeConsoleSession({ operatorId: 'op_a' }), makeConsoleSession({ operatorId: 'op_a' })];
    const colleague = makeConsoleSession({ operatorId: 'op_b' });
    for (const session of [kept, ...others, colleague]) await store().insertConsoleSession(session);

    expect(await store().deleteOperatorSessions('op_a', kept.id)).toBe(2);
    expect(await store().findConsoleSession(kept.tokenHash)).toEqual(kept);
    for (const session of others) expect(await store().findConsoleSession(session.tokenHash)).toBeNull();
    expect(await store().findConsoleSession(colleague.tokenHash)).toEqual(colleague);
    expect(await store().deleteOperatorSessions('op_a')).toBe(1);
    expect(await store().findConsoleSession(kept.tokenHash)).toBeNull();
  });

  it('deletes the sessions expired at or before an instant', async () => {
    const expired = makeConsoleSession({ expiresAt: at(100) });
    const live = makeConsoleSession({ expiresAt: at(101) });
    await store().insertConsoleSession(expired);
    await store().insertConsoleSession(live);
    expect(await store().deleteExpiredConsoleSessions(at(100))).toBe(1);
    expect(await store().findConsoleSession(expired.tokenHash)).toBeNull();
    expect(await store().findConsoleSession(live.tokenHash)).toEqual(live);
  });

  it('counts sign-in failures per key and window, atomically, and deletes past windows', async () => {
    const window = at(900);
    const counts = await Promise.all(Array.from({ length: 12 }, () => store().recordLoginFailure('email:a@x.example', window)));
    expect([...counts].sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    expect(await store().countLoginFailures('email:a@x.example', window)).toBe(12);
    expect(await store().countLoginFailures('email:b@x.example', window)).toBe(0);
    expect(await store().countLoginFailures('email:a@x.example', at(1800))).toBe(0);

    await store().recordLoginFailure('addr:203.0.113.9', at(0));
    expect(await store().deleteLoginFailuresBefore(window)).toBe(1);
    expect(await store().countLoginFailures('addr:203.0.113.9', at(0))).toBe(0);
    expect(await store().countLoginFailures('email:a@x.example', window)).toBe(12);
  });
}
