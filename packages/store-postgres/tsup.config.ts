import { defineConfig } from 'tsup';

/** `dist/`: ESM and CommonJS with their type declarations, what `exports` in package.json points at for npm users. */
export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  target: 'node20',
  platform: 'node',
  shims: true,
});
