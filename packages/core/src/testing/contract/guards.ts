import { expect, it } from 'vitest';
import type { Store } from '../../store/store.js';
import { at, makeApiKey } from '../fixtures.js';

export function guardContract(store: () => Store): void {
  it('counts requests per client and window, atomically under concurrency', async () => {
    const window = at(60);
    const counts = await Promise.all(Array.from({ length: 25 }, () => store().incrementRateCounter('203.0.113.7', window)));
    expect([...counts].sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    expect(await store().incrementRateCounter('203.0.113.8', window)).toBe(1);
    expect(await store().incrementRateCounter('203.0.113.7', at(120))).toBe(1);
  });

  it('deletes the counters of past windows only', async () => {
    await store().incrementRateCounter('a', at(0));
    await store().incrementRateCounter('b', at(0));
    await store().incrementRateCounter('a', at(60));
    expect(await store().deleteRateCountersBefore(at(60))).toBe(2);
    expect(await store().incrementRateCounter('a', at(60))).toBe(2);
    expect(await store().incrementRateCounter('a', at(0))).toBe(1);
  });

  it('finds whether a live public key allows an origin, optionally for one widget', async () => {
    await store().insertApiKey(makeApiKey({ kind: 'public', widgetId: 'wgt_a', allowedOrigins: ['https://shop.example', 'https://www.shop.example'] }));
    await store().insertApiKey(makeApiKey({ kind: 'public', widgetId: 'wgt_b', allowedOrigins: ['https://b.example'], revokedAt: at(5) }));
    await store().insertApiKey(makeApiKey({ kind: 'secret', widgetId: null, allowedOrigins: ['https://server.example'] }));
    expect(await store().publicKeyAllowsOrigin('https://www.shop.example')).toBe(true);
    expect(await store().publicKeyAllowsOrigin('https://shop.example', 'wgt_a')).toBe(true);
    expect(await store().publicKeyAllowsOrigin('https://shop.example', 'wgt_b')).toBe(false);
    expect(await store().publicKeyAllowsOrigin('https://b.example')).toBe(false); // revoked
    expect(await store().publicKeyAllowsOrigin('https://server.example')).toBe(false); // not a public key
    expect(await store().publicKeyAllowsOrigin('https://shop.example.evil')).toBe(false);
    expect(await store().publicKeyAllowsOrigin('https://SHOP.example')).toBe(false);
  });
}
