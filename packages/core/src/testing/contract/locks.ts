import { expect, it } from 'vitest';
import type { Store } from '../../store/store.js';

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export function lockContract(store: () => Store): void {
  it('runs holders of one name one at a time, in arrival order', async () => {
    const events: string[] = [];
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        store().withLock('session:wgt_1/sess_1', async () => {
          events.push(`start ${i}`);
          // Later callers wait less, so any overtaking or overlap would show in the order.
          await pause(20 - i);
          events.push(`end ${i}`);
        }),
      ),
    );
    expect(events).toEqual(Array.from({ length: 20 }, (_, i) => [`start ${i}`, `end ${i}`]).flat());
  });

  it('returns what fn returns, releases the lock when fn throws, and passes the error on', async () => {
    expect(await store().withLock('named', async () => 42)).toBe(42);
    const failure = new Error('turn failed');
    await expect(store().withLock('named', () => Promise.reject(failure))).rejects.toBe(failure);
    expect(await store().withLock('named', async () => 'still usable')).toBe('still usable');
  });

  it('lets holders of different names run at the same time', async () => {
    let releaseFirst = (): void => {};
    const firstHolds = new Promise<void>((resolve) => {
      releaseFirst = resolve;
    });
    const first = store().withLock('lock:a', () => firstHolds.then(() => 'a'));
    // Would never finish if 'lock:b' waited for 'lock:a'.
    const second = await Promise.race([store().withLock('lock:b', async () => 'b'), pause(5_000).then(() => 'timed out')]);
    expect(second).toBe('b');
    releaseFirst();
    expect(await first).toBe('a');
  });

  it('works with transactions inside the lock', async () => {
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        store().withLock('with-tx', () => store().transaction(async (tx) => tx.getOrCreateSetting('locked', () => `v${i}`))),
      ),
    );
    expect(results).toEqual(['v0', 'v0', 'v0', 'v0', 'v0']);
  });
}
