import { defineConfig } from 'vitest/config';
import projects from './vitest.workspace.js';

export default defineConfig({
  test: {
    projects,
    // Database-backed suites share one PostgreSQL; each file isolates itself in its own schema.
    testTimeout: 30_000,
    // Two files at a time (vitest's default on 2 cores is one): most of the suite waits on processes, sockets, the
    // database and Chromium rather than computing, and one at a time took CI to 28 minutes.
    maxWorkers: 2,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
