import { defineProject } from 'vitest/config';
import { sourceResolution } from '../vitest.source.js';

/**
 * The end-to-end project: the built `widget.js` in real Chromium (Debian's /usr/bin/chromium, driven by
 * playwright-core; no browser is ever downloaded) against an in-process service. One browser per file, and
 * files one at a time: the machine has 2 cores, and screenshots and timers need them.
 */
export default defineProject({
  ...sourceResolution,
  test: {
    name: 'e2e',
    environment: 'node',
    include: ['tests/**/*.test.ts'],
    globalSetup: ['global-setup.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // A reply, a reload or a token refresh takes a moment in a real browser: wait up to 15 s for what a visitor would see.
    expect: { poll: { timeout: 15_000, interval: 100 } },
    // After every other project: the browser then has both cores to itself.
    sequence: { groupOrder: 1 },
  },
});
