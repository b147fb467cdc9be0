import { defineProject } from 'vitest/config';
import { SOURCE_CONDITION } from '../../vitest.source.js';
import { oxc } from './vite.config.js';

/**
 * Vitest's own conditions (Node's) plus the workspace packages from their sources (`@svc/core/schemas`). Not the
 * shared `sourceResolution`: its `browser` condition gives the components a second Preact beside the one
 * @testing-library/preact loads, and hooks break.
 */
const conditions = [SOURCE_CONDITION, 'node', 'development|production'];

export default defineProject({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  // Same JSX settings as the build, so components under test are compiled exactly as they ship.
  oxc,
  // The panel's file name the build writes into widget.js; web.test.ts swaps the module import itself.
  // The feedback chunk, imported from its source by components/MessageList.tsx.
  define: { __SVC_PANEL__: JSON.stringify('panel.test.js'), __SVC_FEEDBACK__: JSON.stringify('../feedback.ts') },
  test: {
    name: 'widget',
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}', 'test/**/*.test.{ts,tsx}'],
    setupFiles: ['test/setup.ts'],
    // Process the stylesheet, so tests see the CSS the widget ships in its shadow root.
    css: true,
  },
});
