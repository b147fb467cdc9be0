import { defineProject } from 'vitest/config';
import { sourceResolution } from '../vitest.source.js';

/**
 * What a self-hoster and an npm user get: the release directory run with plain `node`, `pnpm start` as one
 * process, and the npm-packed packages. These tests build into the packages' `dist/`, so they run after every
 * other project (which read `src/`), one file at a time.
 */
export default defineProject({
  ...sourceResolution,
  test: {
    name: 'packaging',
    environment: 'node',
    include: ['tests/**/*.test.ts'],
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 240_000,
    sequence: { groupOrder: 2 },
  },
});
