import { defineConfig } from 'tsup';

/**
 * `dist/`: ESM and CommonJS with their type declarations, what `exports` in package.json points at for npm users,
 * and the PGlite thread's script, which the driver starts from beside itself.
 */
export default defineConfig({
  entry: ['src/index.ts', 'src/pglite-worker.js'],
  format: ['esm', 'cjs'],
  // SVC_SKIP_DTS=1: the release build, which runs the JavaScript and ships no types.
  dts: process.env.SVC_SKIP_DTS !== '1' && { entry: 'src/index.ts' },
  clean: true,
  target: 'node20',
  platform: 'node',
  shims: true,
});
