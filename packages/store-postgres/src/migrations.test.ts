import { createMemoryStore } from '@svc/core';
import { describe, expect, it } from 'vitest';
import { migrate } from './migrate.js';
import { MIGRATIONS } from './migrations.js';

describe('MIGRATIONS', () => {
  it('are numbered 1, 2, 3… in order, with names', () => {
    expect(MIGRATIONS.map((migration) => migration.version)).toEqual(MIGRATIONS.map((_, index) => index + 1));
    for (const migration of MIGRATIONS) expect(migration.name).toMatch(/^[a-z0-9_]+$/);
  });
});

describe('migrate', () => {
  it('only accepts stores made by this package', async () => {
    await expect(migrate(createMemoryStore())).rejects.toThrow(TypeError);
  });
});
