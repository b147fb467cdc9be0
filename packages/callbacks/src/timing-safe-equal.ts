/**
 * Compares two byte strings in time that depends only on their lengths, never on where they first differ, so an
 * attacker cannot recover a valid signature byte by byte from response times. Unequal lengths give `false`
 * (Node's `timingSafeEqual` throws instead) after the same full loop.
 */
export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  const length = Math.max(a.length, b.length);
  let difference = a.length ^ b.length;
  for (let i = 0; i < length; i++) difference |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return difference === 0;
}
