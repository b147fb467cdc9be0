import { describe, expect, it } from 'vitest';
import { timingSafeEqual } from './timing-safe-equal.js';

const bytes = (...values: number[]): Uint8Array => new Uint8Array(values);

describe('timingSafeEqual', () => {
  it('is true only for identical bytes', () => {
    expect(timingSafeEqual(bytes(1, 2, 3), bytes(1, 2, 3))).toBe(true);
    expect(timingSafeEqual(bytes(), bytes())).toBe(true);
    expect(timingSafeEqual(bytes(1, 2, 3), bytes(1, 2, 4))).toBe(false);
    expect(timingSafeEqual(bytes(0, 2, 3), bytes(1, 2, 3))).toBe(false);
  });

  it('answers false for unequal lengths instead of throwing (Node’s timingSafeEqual throws)', () => {
    expect(timingSafeEqual(bytes(1, 2, 3), bytes(1, 2, 3, 4))).toBe(false);
    expect(timingSafeEqual(bytes(1, 2, 3, 4), bytes(1, 2, 3))).toBe(false);
    // A prefix padded with zeros must not pass for the shorter value: the length itself is part of the comparison.
    expect(timingSafeEqual(bytes(1, 2, 0), bytes(1, 2))).toBe(false);
    expect(timingSafeEqual(bytes(), bytes(0))).toBe(false);
  });

  it('gives the same result whichever argument is longer', () => {
    const a = bytes(9, 9, 9, 9, 9, 9, 9, 9);
    const b = bytes(9, 9, 9);
    expect(timingSafeEqual(a, b)).toBe(timingSafeEqual(b, a));
  });
});
