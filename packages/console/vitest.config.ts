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
    // The console's own origin: its requests go to relative URLs under it.
    environmentOptions: { happyDOM: { url: 'http://console.test/console/', settings: { disableIframePageLoading: true } } },
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test-setup.ts'],
    // Through Vite like the components, so both resolve the one Preact (two copies break hooks).
    server: { deps: { inline: ['@testing-library/preact'] } },
  },
});
