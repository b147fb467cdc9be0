import { defineProject } from 'vitest/config';
import { sourceResolution } from '../../vitest.source.js';

export default defineProject({
  ...sourceResolution,
  test: {
    name: 'store-postgres',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Starting PGlite (a WASM PostgreSQL) takes several seconds, more when files run in parallel.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
