import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { startPollLoop } from './poll-loop.js';

describe('a worker loop whose rounds fail', () => {
  it('backs off instead of retrying every poll, reports the first failure, and polls at its pace again once a round succeeds (regression: 8 stack traces a second during a database outage)', async () => {
    let ticks = 0;
    let failing = true;
    const reported: number[] = [];
    const loop = startPollLoop({
      pollMs: 10,
      maxBackoffMs: 1_000,
      tick: async () => {
        ticks += 1;
        if (failing) throw new Error('connection terminated');
        return false;
      },
      onError: (_error, failures) => reported.push(failures),
    });
    await sleep(600);
    // Without back-off: ~60 rounds. With it: 10, 20, 40, 80, 160, 320 ms sleeps.
    expect(ticks).toBeGreaterThanOrEqual(4);
    expect(ticks).toBeLessThanOrEqual(8);
    expect(reported).toEqual([1]);
    failing = false;
    loop.wake();
    await sleep(200);
    const recovered = ticks;
    await sleep(200);
    // Back at one round per 10 ms poll (tolerance for a loaded machine).
    expect(ticks - recovered).toBeGreaterThanOrEqual(5);
    await loop.stop();
  });
});
