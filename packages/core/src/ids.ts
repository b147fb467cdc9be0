/** Id generation port and its default: prefixed, random, URL-safe; message ids sort by creation time. */
export interface Ids {
  /** `prefix_` followed by 128 bits of randomness, base62. */
  random(prefix: string): string;
  /** `msg_` ids: 48-bit millisecond time then 80 random bits, Crockford base32 (ULID layout), so they sort. */
  sortable(prefix: string, at: Date): string;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * Random bytes are drawn from the platform's CSPRNG a pool at a time (as Node's own `randomBytes` does): one
 * `getRandomValues` call per id costs more than the rest of making it. Every byte is handed out once.
 */
const POOL_BYTES = 4096;
let pool = new Uint8Array(0);
let poolOffset = 0;

function randomBytes(n: number): Uint8Array {
  if (n > POOL_BYTES) return crypto.getRandomValues(new Uint8Array(n));
  if (poolOffset + n > pool.length) {
    pool = crypto.getRandomValues(new Uint8Array(POOL_BYTES));
    poolOffset = 0;
  }
  const bytes = pool.subarray(poolOffset, poolOffset + n);
  poolOffset += n;
  return bytes;
}

/** 22 base62 characters carry 130.9 bits; drawn by rejection sampling so every character is uniform. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

function ulidBody(at: Date): string {
  let time = at.getTime();
  let timePart = '';
  for (let i = 0; i < 10; i++) {
    timePart = CROCKFORD[time % 32] + timePart;
    time = Math.floor(time / 32);
  }
  let randomPart = '';
  for (const byte of randomBytes(16)) randomPart += CROCKFORD[byte % 32];
  return timePart + randomPart;
}

export const defaultIds: Ids = {
  random: (prefix) => `${prefix}_${randomBase62(22)}`,
  sortable: (prefix, at) => `${prefix}_${ulidBody(at)}`,
};
