import { describe, expect, it } from 'vitest';
import { createKeyedMutex } from './keyed-mutex.js';

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('createKeyedMutex', () => {
  it('serves waiters of one key in arrival order, never overlapping', async () => {
    const mutex = createKeyedMutex();
    const events: string[] = [];
    await Promise.all(
      [30, 1, 15, 0, 5].map((wait, i) =>
        mutex.run('k', async () => {
          events.push(`in ${i}`);
          await pause(wait);
          events.push(`out ${i}`);
        }),
      ),
    );
    expect(events).toEqual(['in 0', 'out 0', 'in 1', 'out 1', 'in 2', 'out 2', 'in 3', 'out 3', 'in 4', 'out 4']);
  });

  it('releases on throw and keeps serving later waiters', async () => {
    const mutex = createKeyedMutex();
    const failed = mutex.run('k', async () => {
      throw new Error('boom');
    });
    const next = mutex.run('k', async () => 'next');
    await expect(failed).rejects.toThrow('boom');
    await expect(next).resolves.toBe('next');
  });

  it('runs different keys concurrently', async () => {
    const mutex = createKeyedMutex();
    let release = (): void => {};
    const held = mutex.run('a', () => new Promise<void>((resolve) => (release = resolve)));
    await expect(mutex.run('b', async () => 'b')).resolves.toBe('b');
    release();
    await held;
  });

  it('forgets a key once nobody holds or waits for it', async () => {
    const mutex = createKeyedMutex();
    await Promise.all(Array.from({ length: 50 }, (_, i) => mutex.run(`key-${i % 5}`, () => pause(1))));
    await mutex.run('thrower', async () => undefined).catch(() => undefined);
    expect(mutex.size).toBe(0);
  });
});
