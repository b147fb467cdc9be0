import { createMemoryStore } from '@svc/core/testing';
import { describe, expect, it } from 'vitest';
import { migrate } from './migrate.js';
import { MIGRATIONS } from './migrations.js';

describe('MIGRATIONS', () => {
  it('are numbered in ascending order without repeats, with names', () => {
    // Branches are assigned version numbers ahead of merging, so a branch may lack a lower number for a while.
    const versions = MIGRATIONS.map((migration) => migration.version);
    expect(versions).toEqual([...new Set(versions)].sort((a, b) => a - b));
    expect(versions[0]).toBe(1);
    for (const migration of MIGRATIONS) expect(migration.name).toMatch(/^[a-z0-9_]+$/);
  });
});

describe('migrate', () => {
  it('only accepts stores made by this package', async () => {
    await expect(migrate(createMemoryStore())).rejects.toThrow(TypeError);
  });
});
