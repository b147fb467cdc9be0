import { defineProject } from 'vitest/config';
import { oxc } from './vite.config.js';

export default defineProject({
  // Same JSX settings as the build, so components under test are compiled exactly as they ship.
  oxc,
  // The panel's file name the build writes into widget.js; web.test.ts swaps the module import itself.
  define: { __SVC_PANEL__: JSON.stringify('panel.test.js') },
  test: {
    name: 'widget',
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}', 'test/**/*.test.{ts,tsx}'],
    setupFiles: ['test/setup.ts'],
    // Process the stylesheet, so tests see the CSS the widget ships in its shadow root.
    css: true,
  },
});
