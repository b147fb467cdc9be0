import { defineConfig } from 'vitest/config';
import projects from './vitest.workspace.js';

export default defineConfig({
  test: {
    projects,
    // Database-backed suites share one PostgreSQL; each file isolates itself in its own schema.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
