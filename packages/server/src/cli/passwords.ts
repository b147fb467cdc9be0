import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import type { PasswordHasher } from '@svc/core';

/**
 * Operator passwords hashed with scrypt (RFC 7914) from node:crypto. A hash reads
 * `scrypt$ln=15,r=8,p=1$<salt>$<digest>` (base64url): the parameters and a per-hash 16-byte salt travel with it, so
 * raising the cost later leaves stored hashes verifiable.
 *
 * Default cost: N = 2^15, r = 8, p = 1 (32 MiB, tens of milliseconds): OWASP's floor for scrypt is N = 2^17 at
 * p = 1 or N = 2^15 at p = 3; with the sign-in throttle (5 failures per email per 15 minutes) online guessing is
 * bounded by the throttle, and this cost bounds offline guessing should the database leak.
 */
export interface ScryptCost {
  /** log2 of N. */
  ln: number;
  r: number;
  p: number;
}

export const DEFAULT_SCRYPT_COST: ScryptCost = { ln: 15, r: 8, p: 1 };
const KEY_LENGTH = 32;
// A stored hash is trusted data, but a corrupted one must not make verification allocate gigabytes.
const MAX_COST: ScryptCost = { ln: 20, r: 32, p: 16 };

function derive(password: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  const options: ScryptOptions = { N: 2 ** cost.ln, r: cost.r, p: cost.p, maxmem: 128 * 2 ** cost.ln * cost.r * 2 + 1024 * 1024 };
  return new Promise((resolve, reject) => scrypt(password.normalize('NFC'), salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key))));
}

function parse(encoded: string): { cost: ScryptCost; salt: Buffer; digest: Buffer } | null {
  const match = /^scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9_-]{16,64})\$([A-Za-z0-9_-]{16,128})$/.exec(encoded);
  if (!match) return null;
  const cost = { ln: Number(match[1]), r: Number(match[2]), p: Number(match[3]) };
  if (cost.ln < 1 || cost.ln > MAX_COST.ln || cost.r < 1 || cost.r > MAX_COST.r || cost.p < 1 || cost.p > MAX_COST.p) return null;
  return { cost, salt: Buffer.from(match[4]!, 'base64url'), digest: Buffer.from(match[5]!, 'base64url') };
}

/** @example const passwords = scryptPasswords(); const hash = await passwords.hash('correct horse battery'); */
export function scryptPasswords(cost: ScryptCost = DEFAULT_SCRYPT_COST): PasswordHasher {
  return {
    async hash(password) {
      const salt = randomBytes(16);
      const digest = await derive(password, salt, cost);
      return `scrypt$ln=${cost.ln},r=${cost.r},p=${cost.p}$${salt.toString('base64url')}$${digest.toString('base64url')}`;
    },
    async verify(password, encoded) {
      const parsed = parse(encoded);
      if (!parsed) return false;
      const digest = await derive(password, parsed.salt, parsed.cost);
      return digest.length === parsed.digest.length && timingSafeEqual(digest, parsed.digest);
    },
  };
}
