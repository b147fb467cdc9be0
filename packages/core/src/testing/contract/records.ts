import { expect, it } from 'vitest';
import type { Store } from '../../store/store.js';
import { at, makeIdempotencyRecord } from '../fixtures.js';

export function recordContract(store: () => Store): void {
  it('creates a visitor record, then merges only the defined fields of later contexts', async () => {
    const created = await store().upsertVisitor('acct_v', 'visitor-1', { name: 'Ada', email: 'ada@example.com' }, at(1));
    expect(created).toEqual({ accountId: 'acct_v', visitorId: 'visitor-1', context: { name: 'Ada', email: 'ada@example.com' }, updatedAt: at(1) });

    const merged = await store().upsertVisitor('acct_v', 'visitor-1', { name: undefined, phone: '+33 1 23 45 67 89', company: 'Analytical' }, at(2));
    const expected = {
      accountId: 'acct_v',
      visitorId: 'visitor-1',
      context: { name: 'Ada', email: 'ada@example.com', phone: '+33 1 23 45 67 89', company: 'Analytical' },
      updatedAt: at(2),
    };
    expect(merged).toEqual(expected);
    expect(await store().getVisitor('acct_v', 'visitor-1')).toEqual(expected);

    await store().upsertVisitor('acct_v', 'visitor-1', { email: 'ada@lovelace.example' }, at(3));
    expect((await store().getVisitor('acct_v', 'visitor-1'))?.context).toEqual({ ...expected.context, email: 'ada@lovelace.example' });
  });

  it('keeps the visitors of different accounts apart', async () => {
    await store().upsertVisitor('acct_a', 'same-label', { name: 'On A' }, at(1));
    await store().upsertVisitor('acct_b', 'same-label', {}, at(1));
    expect((await store().getVisitor('acct_a', 'same-label'))?.context).toEqual({ name: 'On A' });
    expect((await store().getVisitor('acct_b', 'same-label'))?.context).toEqual({});
    expect(await store().getVisitor('acct_c', 'same-label')).toBeNull();
  });

  it('stores an idempotency record once: the first response wins', async () => {
    const record = makeIdempotencyRecord();
    expect(await store().putIdempotencyRecord(record)).toBe(true);
    expect(await store().putIdempotencyRecord({ ...record, status: 500, body: '{}' })).toBe(false);
    expect(await store().getIdempotencyRecord(record.scope, record.key)).toEqual(record);
    expect(await store().getIdempotencyRecord('another scope', record.key)).toBeNull();
  });

  it('settles a pending idempotency record with the response, or deletes it, once', async () => {
    const pending = makeIdempotencyRecord({ status: 0, body: '' });
    await store().putIdempotencyRecord(pending);
    expect(await store().settleIdempotencyRecord(pending.scope, pending.key, 'another-hash', { status: 201, body: '{}' })).toBe(false);
    expect(await store().settleIdempotencyRecord(pending.scope, pending.key, pending.requestHash, { status: 201, body: '{"a":1}' })).toBe(true);
    expect(await store().getIdempotencyRecord(pending.scope, pending.key)).toEqual({ ...pending, status: 201, body: '{"a":1}' });
    // Settled: neither replaced nor deleted any more.
    expect(await store().settleIdempotencyRecord(pending.scope, pending.key, pending.requestHash, null)).toBe(false);

    const failed = makeIdempotencyRecord({ status: 0, body: '' });
    await store().putIdempotencyRecord(failed);
    expect(await store().settleIdempotencyRecord(failed.scope, failed.key, failed.requestHash, null)).toBe(true);
    expect(await store().getIdempotencyRecord(failed.scope, failed.key)).toBeNull();
  });

  it('deletes idempotency records created strictly before a time', async () => {
    const old = makeIdempotencyRecord({ createdAt: at(1) });
    const boundary = makeIdempotencyRecord({ createdAt: at(2) });
    const fresh = makeIdempotencyRecord({ createdAt: at(3) });
    for (const record of [old, boundary, fresh]) await store().putIdempotencyRecord(record);
    expect(await store().deleteIdempotencyRecordsBefore(at(2))).toBe(1);
    expect(await store().getIdempotencyRecord(old.scope, old.key)).toBeNull();
    expect(await store().getIdempotencyRecord(boundary.scope, boundary.key)).toEqual(boundary);
    expect(await store().deleteIdempotencyRecordsBefore(at(2))).toBe(0);
  });

  it('creates a setting once and returns the stored value afterwards', async () => {
    expect(await store().getOrCreateSetting('cursor-key', () => 'first')).toBe('first');
    let called = false;
    const again = await store().getOrCreateSetting('cursor-key', () => {
      called = true;
      return 'second';
    });
    expect(again).toBe('first');
    expect(called).toBe(false);
    expect(await store().getOrCreateSetting('other', () => 'x')).toBe('x');
  });

  it('returns one value to 10 concurrent creators of the same setting', async () => {
    const values = await Promise.all(Array.from({ length: 10 }, (_, i) => store().getOrCreateSetting('race', () => `value-${i}`)));
    expect(new Set(values).size).toBe(1);
    expect(await store().getOrCreateSetting('race', () => 'late')).toBe(values[0]);
  });
}
