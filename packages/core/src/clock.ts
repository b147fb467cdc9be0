/** Time source port, so tests can move time (expiry, timestamps) without sleeping. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that only moves when told to. */
export function manualClock(start: Date | string = '2026-01-01T00:00:00.000Z'): Clock & {
  set(at: Date | string): void;
  advance(ms: number): void;
} {
  let current = new Date(start).getTime();
  return {
    now: () => new Date(current),
    set: (at) => {
      current = new Date(at).getTime();
    },
    advance: (ms) => {
      current += ms;
    },
  };
}
