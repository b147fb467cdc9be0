import { defineProject } from 'vitest/config';

export default defineProject({
  // Same JSX settings as the build, so components under test are compiled exactly as they ship.
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  test: {
    name: 'widget',
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}', 'test/**/*.test.{ts,tsx}'],
    setupFiles: ['test/setup.ts'],
    // Process the stylesheet, so tests see the CSS the widget ships in its shadow root.
    css: true,
  },
});
