import { defineProject } from 'vitest/config';
import { sourceResolution } from '../../vitest.source.js';
import { oxc } from './vite.config.js';

export default defineProject({
  ...sourceResolution,
  // Same JSX settings as the build.
  oxc,
  test: {
    name: 'console',
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test-setup.ts'],
  },
});
