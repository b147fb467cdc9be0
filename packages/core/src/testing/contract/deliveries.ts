import { expect, it } from 'vitest';
import type { Delivery } from '../../store/turn-job-store.js';
import type { Store } from '../../store/store.js';
import { at, makeDelivery, makeTurnJob } from '../fixtures.js';

const LEASE_MS = 30_000;

const ids = (deliveries: Delivery[]): string[] => deliveries.map((delivery) => delivery.id);

function leasedTo(delivery: Delivery, owner: string, now: Date): Delivery {
  return { ...delivery, leaseOwner: owner, leaseExpiresAt: new Date(now.getTime() + LEASE_MS) };
}

/** A delivery as `requeueDelivery(…, at)` leaves it: pending from `at` with a fresh retry budget. */
function requeued(delivery: Delivery, from: Date): Delivery {
  return {
    ...delivery,
    status: 'pending',
    attempts: 0,
    nextAttemptAt: from,
    leaseOwner: null,
    leaseExpiresAt: null,
    lastStatus: null,
    lastError: null,
    deliveredAt: null,
  };
}

export function deliveryContract(store: () => Store): void {
  const claim = (owner: string, now: Date, limit = 10): Promise<Delivery[]> =>
    store().claimDeliveries({ owner, now, leaseMs: LEASE_MS, limit });

  it('round-trips deliveries with every field, keeping the payload byte for byte', async () => {
    const pending = makeDelivery();
    const failed = makeDelivery({
      messageId: null,
      event: 'message.failed',
      payload: '{"event":"message.failed",\n  "messageId":null,"error":{"code":"agent_unavailable","message":"d\\u00e9j\u00e0"} }',
      status: 'failed',
      attempts: 4,
      nextAttemptAt: at(6),
      lastStatus: 503,
      lastError: 'HTTP 503',
      createdAt: at(1),
    });
    const delivered = makeDelivery({ status: 'delivered', attempts: 1, lastStatus: 204, deliveredAt: at(2) });
    const leased = makeDelivery({ leaseOwner: 'wrk_a', leaseExpiresAt: at(20), attempts: 2, lastError: 'ECONNRESET' });
    for (const delivery of [pending, failed, delivered, leased]) await store().insertDelivery(delivery);
    for (const delivery of [pending, failed, delivered, leased]) expect(await store().getDelivery(delivery.id)).toEqual(delivery);
    expect((await store().getDelivery(failed.id))?.payload).toBe(failed.payload);
    expect((await store().getDelivery(pending.id))?.payload).toBe(pending.payload);
    expect(await store().getDelivery('dlv_missing')).toBeNull();
    await expect(store().insertDelivery({ ...pending, url: 'https://example.com/other' })).rejects.toThrow();
  });

  it('claims pending deliveries that are due, oldest due first, leasing them without counting an attempt', async () => {
    const dueLater = makeDelivery({ nextAttemptAt: at(5), createdAt: at(0) });
    const dueFirst = makeDelivery({ nextAttemptAt: at(1), createdAt: at(3) });
    const dueLaterButOlder = makeDelivery({ nextAttemptAt: at(5), createdAt: at(-1) });
    const notYetDue = makeDelivery({ nextAttemptAt: at(5.001) });
    const delivered = makeDelivery({ status: 'delivered', attempts: 1, lastStatus: 200, deliveredAt: at(0) });
    const failed = makeDelivery({ status: 'failed', attempts: 4, lastStatus: 500 });
    for (const delivery of [dueLater, dueFirst, dueLaterButOlder, notYetDue, delivered, failed]) await store().insertDelivery(delivery);

    const now = at(5);
    const claimed = await claim('wrk_a', now);
    expect(claimed).toEqual([dueFirst, dueLaterButOlder, dueLater].map((delivery) => leasedTo(delivery, 'wrk_a', now)));
    for (const delivery of claimed) expect(await store().getDelivery(delivery.id)).toEqual(delivery);
    expect(await claim('wrk_b', now)).toEqual([]);
  });

  it('honours the limit and retakes a delivery once its lease expired', async () => {
    const deliveries = [1, 2, 3].map((n) => makeDelivery({ nextAttemptAt: at(n) }));
    for (const delivery of deliveries) await store().insertDelivery(delivery);
    const [first, second, third] = deliveries as [Delivery, Delivery, Delivery];

    expect(ids(await claim('wrk_a', at(3), 2))).toEqual([first.id, second.id]);
    expect(ids(await claim('wrk_b', at(4)))).toEqual([third.id]);
    expect(await claim('wrk_c', at(32.999))).toEqual([]);
    // wrk_a's leases end at at(33), wrk_b's at at(34).
    expect(await claim('wrk_c', at(33))).toEqual([first, second].map((delivery) => leasedTo(delivery, 'wrk_c', at(33))));
    expect(await claim('wrk_c', at(0), 0)).toEqual([]);
  });

  it('records a failed attempt: pending until the next attempt, lease released, then delivered on success', async () => {
    const delivery = makeDelivery();
    await store().insertDelivery(delivery);
    await claim('wrk_a', at(0));

    const afterFailure = await store().recordDeliveryAttempt(delivery.id, { at: at(1), ok: false, status: 500, error: 'HTTP 500', nextAttemptAt: at(2) });
    const pending: Delivery = {
      ...delivery,
      status: 'pending',
      attempts: 1,
      lastStatus: 500,
      lastError: 'HTTP 500',
      nextAttemptAt: at(2),
      leaseOwner: null,
      leaseExpiresAt: null,
    };
    expect(afterFailure).toEqual(pending);
    expect(await store().getDelivery(delivery.id)).toEqual(pending);
    expect(await claim('wrk_b', at(1.999))).toEqual([]);
    expect(ids(await claim('wrk_b', at(2)))).toEqual([delivery.id]);

    const afterNetworkError = await store().recordDeliveryAttempt(delivery.id, {
      at: at(3),
      ok: false,
      status: null,
      error: 'connect ECONNREFUSED',
      nextAttemptAt: at(8),
    });
    expect(afterNetworkError).toEqual({ ...pending, attempts: 2, lastStatus: null, lastError: 'connect ECONNREFUSED', nextAttemptAt: at(8) });
    await claim('wrk_b', at(8));

    const delivered = await store().recordDeliveryAttempt(delivery.id, { at: at(9), ok: true, status: 204, error: null, nextAttemptAt: null });
    const expected: Delivery = { ...pending, status: 'delivered', attempts: 3, lastStatus: 204, lastError: null, nextAttemptAt: at(8), deliveredAt: at(9) };
    expect(delivered).toEqual(expected);
    expect(await store().getDelivery(delivery.id)).toEqual(expected);
    expect(await claim('wrk_c', at(10 ** 7))).toEqual([]);
  });

  it('marks a delivery failed when a failed attempt has no next one', async () => {
    const delivery = makeDelivery({ attempts: 3, lastStatus: 503, lastError: 'HTTP 503' });
    await store().insertDelivery(delivery);
    await claim('wrk_a', at(0));
    const failed = await store().recordDeliveryAttempt(delivery.id, { at: at(6), ok: false, status: 503, error: 'HTTP 503', nextAttemptAt: null });
    const expected: Delivery = { ...delivery, status: 'failed', attempts: 4, leaseOwner: null, leaseExpiresAt: null };
    expect(failed).toEqual(expected);
    expect(await store().getDelivery(delivery.id)).toEqual(expected);
    expect(await claim('wrk_b', at(10 ** 7))).toEqual([]);
    expect(await store().recordDeliveryAttempt('dlv_missing', { at: at(6), ok: true, status: 200, error: null, nextAttemptAt: null })).toBeNull();
  });

  it('requeues a delivery of any status with a fresh retry budget, due from the given time', async () => {
    const failed = makeDelivery({ status: 'failed', attempts: 4, nextAttemptAt: at(6), lastStatus: 503, lastError: 'HTTP 503' });
    const delivered = makeDelivery({ status: 'delivered', attempts: 1, lastStatus: 200, deliveredAt: at(1) });
    const leased = makeDelivery({ attempts: 2, leaseOwner: 'wrk_a', leaseExpiresAt: at(1000), lastStatus: 500, lastError: 'HTTP 500' });
    const all = [failed, delivered, leased];
    for (const delivery of all) await store().insertDelivery(delivery);

    for (const delivery of all) expect(await store().requeueDelivery(delivery.id, at(50))).toBe(true);
    for (const delivery of all) expect(await store().getDelivery(delivery.id)).toEqual(requeued(delivery, at(50)));
    expect(await claim('wrk_b', at(49))).toEqual([]);
    expect(new Set(ids(await claim('wrk_b', at(50))))).toEqual(new Set(ids(all)));
    expect(await store().requeueDelivery('dlv_missing', at(50))).toBe(false);
  });

  it('lists deliveries newest first, filtered by status and account', async () => {
    const a1 = makeDelivery({ accountId: 'acct_a', createdAt: at(1) });
    const b1 = makeDelivery({ accountId: 'acct_b', status: 'failed', attempts: 4, createdAt: at(2) });
    const a2 = makeDelivery({ accountId: 'acct_a', status: 'failed', attempts: 4, createdAt: at(3) });
    const a3 = makeDelivery({ accountId: 'acct_a', status: 'delivered', attempts: 1, deliveredAt: at(4), createdAt: at(4) });
    // Same instant: the larger id is the newer.
    const a4 = makeDelivery({ accountId: 'acct_a', createdAt: at(5) });
    const a5 = makeDelivery({ accountId: 'acct_a', createdAt: at(5) });
    for (const delivery of [a3, a1, a5, b1, a4, a2]) await store().insertDelivery(delivery);

    expect(await store().listDeliveries({ limit: 10 })).toEqual([a5, a4, a3, a2, b1, a1]);
    expect(await store().listDeliveries({ limit: 2 })).toEqual([a5, a4]);
    expect(await store().listDeliveries({ status: 'failed', limit: 10 })).toEqual([a2, b1]);
    expect(await store().listDeliveries({ accountId: 'acct_a', limit: 10 })).toEqual([a5, a4, a3, a2, a1]);
    expect(await store().listDeliveries({ status: 'failed', accountId: 'acct_b', limit: 10 })).toEqual([b1]);
    expect(await store().listDeliveries({ status: 'pending', accountId: 'acct_b', limit: 10 })).toEqual([]);
    expect(await store().listDeliveries({ accountId: 'acct_none', limit: 10 })).toEqual([]);
  });

  it('never hands one delivery to two concurrent claimers', async () => {
    const deliveries = Array.from({ length: 30 }, (_, i) => makeDelivery({ nextAttemptAt: at(i) }));
    for (const delivery of deliveries) await store().insertDelivery(delivery);
    const rounds = await Promise.all(Array.from({ length: 4 }, (_, i) => claim(`wrk_${i}`, at(100), 10)));
    const rest = await claim('wrk_last', at(100), 100);
    const claimed = [...rounds.flat(), ...rest];
    expect(claimed).toHaveLength(deliveries.length);
    expect(new Set(ids(claimed))).toEqual(new Set(ids(deliveries)));
    for (const delivery of claimed) expect((await store().getDelivery(delivery.id))?.leaseOwner).toBe(delivery.leaseOwner);
  });

  it('writes, claims and records with its transaction: all or nothing', async () => {
    const earlierJob = makeTurnJob({ sessionId: 'sess_tx_earlier' });
    const earlierDelivery = makeDelivery();
    await store().insertTurnJob(earlierJob);
    await store().insertDelivery(earlierDelivery);
    const job = makeTurnJob({ sessionId: 'sess_tx' });
    const delivery = makeDelivery();

    const failure = new Error('crash before commit');
    const attempt = store().transaction(async (tx) => {
      await tx.insertTurnJob(job);
      await tx.insertDelivery(delivery);
      expect(ids(await tx.claimDeliveries({ owner: 'wrk_tx', now: at(1), leaseMs: LEASE_MS, limit: 10 }))).toHaveLength(2);
      await tx.recordDeliveryAttempt(earlierDelivery.id, { at: at(1), ok: true, status: 200, error: null, nextAttemptAt: null });
      await tx.finishTurnJob(earlierJob.id, { status: 'done', error: null, at: at(1) });
      await tx.requeueDelivery(earlierDelivery.id, at(99));
      throw failure;
    });
    await expect(attempt).rejects.toBe(failure);
    expect(await store().getTurnJob(job.id)).toBeNull();
    expect(await store().getDelivery(delivery.id)).toBeNull();
    expect(await store().getTurnJob(earlierJob.id)).toEqual(earlierJob);
    expect(await store().getDelivery(earlierDelivery.id)).toEqual(earlierDelivery);

    await store().transaction(async (tx) => {
      await tx.insertTurnJob(job);
      await tx.insertDelivery(delivery);
    });
    expect(await store().getTurnJob(job.id)).toEqual(job);
    expect(await store().getDelivery(delivery.id)).toEqual(delivery);
  });
}
