import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_SCRYPT_COST, scryptPasswords } from './passwords.js';

// Each hash costs tens of milliseconds and 32 MiB: on a shared, loaded machine a handful of them can take seconds.
vi.setConfig({ testTimeout: 30_000 });

describe('scrypt password hashes', () => {
  const passwords = scryptPasswords();

  it('stores the algorithm, its parameters and a per-hash salt, and verifies only the same password', async () => {
    const first = await passwords.hash('correct horse battery');
    const second = await passwords.hash('correct horse battery');
    expect(first).toMatch(/^scrypt\$ln=15,r=8,p=1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(second).not.toBe(first);
    expect(first).not.toContain('correct horse');
    expect(await passwords.verify('correct horse battery', first)).toBe(true);
    expect(await passwords.verify('correct horse battery', second)).toBe(true);
    expect(await passwords.verify('correct horse batterY', first)).toBe(false);
    expect(await passwords.verify('', first)).toBe(false);
  });

  it('verifies hashes made with other parameters (raising the cost later keeps old hashes valid)', async () => {
    const cheap = await scryptPasswords({ ln: 10, r: 8, p: 1 }).hash('an older password');
    expect(cheap).toMatch(/^scrypt\$ln=10,r=8,p=1\$/);
    expect(await passwords.verify('an older password', cheap)).toBe(true);
    expect(DEFAULT_SCRYPT_COST).toEqual({ ln: 15, r: 8, p: 1 });
  });

  it('answers false, without throwing, for a malformed or absurdly expensive hash', async () => {
    const valid = await passwords.hash('correct horse battery');
    for (const encoded of ['', 'plain', valid.replace('scrypt$', 'bcrypt$'), valid.replace('ln=15', 'ln=40'), valid.slice(0, -10)]) {
      expect(await passwords.verify('correct horse battery', encoded)).toBe(false);
    }
  });
});
