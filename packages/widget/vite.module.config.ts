import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * `dist/index.js` (ESM) and `dist/index.cjs` (CommonJS): the `@svc/widget` module that bundler users import
 * (`src/index.ts`), as npm installs it; `dist/markdown.*` the safe Markdown renderer (`@svc/widget/markdown`, which
 * the console uses too). Built by Vite, not tsup, because the widget's styles are `?inline` CSS
 * imports. The panel stays a chunk of its own (`dist/module/`), which the user's bundler splits off again and loads
 * on the first open, as widget.js does. Preact is left to the user's bundler (a dependency, deduplicated there).
 * Runs after `vite build` (vite.config.ts, which empties dist/), so it keeps what that wrote.
 */
export default defineConfig({
  root,
  // Production JSX even when NODE_ENV says otherwise, as in vite.config.ts.
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact', development: false } },
  // Core's event names from its sources, bundled: @svc/core is no dependency of the published widget.
  resolve: { conditions: ['@svc/source', 'module', 'browser', 'production'] },
  // The feedback chunk (src/feedback.ts) as an entry of its own, `dist/feedback.js`, imported by the panel's chunk
  // in `dist/module/` (chunkFileNames below), hence `../`.
  define: { __SVC_FEEDBACK__: JSON.stringify('../feedback.js') },
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    target: 'es2022',
    // Readable code: the user's bundler minifies it with the rest of their application.
    minify: false,
    sourcemap: false,
    copyPublicDir: false,
    // Library mode: a plain import() of the panel, without the modulepreload helper an application build adds.
    lib: { entry: { index: 'src/index.ts', markdown: 'src/markdown.tsx', feedback: 'src/feedback.ts' } },
    rolldownOptions: {
      external: [/^preact(\/|$)/],
      // ESM and CommonJS, each with its own chunks (`.cjs`: the package is `"type": "module"`).
      output: [
        { format: 'es', entryFileNames: '[name].js', chunkFileNames: 'module/[name].[hash].js' },
        { format: 'cjs', entryFileNames: '[name].cjs', chunkFileNames: 'module/[name].[hash].cjs' },
      ],
    },
  },
});
