import { copyFile } from 'node:fs/promises';
import { defineConfig } from 'tsup';

/**
 * `dist/`: ESM and CommonJS with their type declarations, what `exports` in package.json points at for npm users,
 * and beside them the PGlite thread's script, copied as it is (plain ESM JavaScript, started by path from the driver).
 */
export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  // SVC_SKIP_DTS=1: the release build, which runs the JavaScript and ships no types.
  dts: process.env.SVC_SKIP_DTS !== '1',
  clean: true,
  target: 'node20',
  platform: 'node',
  shims: true,
  async onSuccess() {
    await copyFile('src/pglite-worker.js', 'dist/pglite-worker.js');
  },
});
