import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * Builds `dist/widget.js`: one classic script (IIFE) so a site can load it with a plain `<script async>` tag.
 * `src/web.ts` sets `window.Svc` itself (guarding against a second copy), so the IIFE assigns no global of its own.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  // Production JSX even when NODE_ENV says otherwise (a build started from the test runner, say).
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact', development: false } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    minify: true,
    sourcemap: false,
    lib: {
      entry: 'src/web.ts',
      name: 'Svc',
      formats: ['iife'],
      fileName: () => 'widget.js',
    },
  },
});
