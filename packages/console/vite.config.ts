import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * Two pages, served by the server under `/console/` (packages/server/src/console-assets.ts):
 * - `index.html`, the console (hash routes, so the server serves one document);
 * - `preview.html`, the frame the theme editor loads the real widget.js into.
 * Scripts and styles are files under `assets/` named after their content (cached for good), never inline: the
 * pages are served with a CSP that allows no inline script or style. JSX as the widget compiles it.
 */
export const oxc = { jsx: { runtime: 'automatic', importSource: 'preact', development: false } } as const;

export default defineConfig({
  root,
  base: '/console/',
  oxc,
  // Workspace packages from their sources (`@svc/core/event-stream`), so the console builds without core's dist/.
  resolve: { conditions: ['@svc/source', 'module', 'browser', 'production'] },
  // lightningcss's Features.LightDark, as the widget: no variables for a `light-dark()` the styles never use.
  css: { lightningcss: { exclude: 1 << 20 } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    minify: true,
    sourcemap: false,
    // The polyfill would be an inline script; every browser the console supports has modulepreload.
    modulePreload: { polyfill: false },
    // Never inline an asset as a data: URL into the CSS or the scripts.
    assetsInlineLimit: 0,
    rolldownOptions: {
      input: { index: 'index.html', preview: 'preview.html' },
    },
  },
});
