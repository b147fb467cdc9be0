import { defineConfig } from 'tsup';

/** `dist/`: ESM and CommonJS with their type declarations, what `exports` in package.json points at for npm users. */
export default defineConfig({
  entry: ['src/index.ts', 'src/testing/index.ts', 'src/store/kit.ts', 'src/schemas/index.ts', 'src/event-stream.ts'],
  format: ['esm', 'cjs'],
  // SVC_SKIP_DTS=1: the release build, which runs the JavaScript and ships no types.
  dts: process.env.SVC_SKIP_DTS !== '1',
  clean: true,
  target: 'es2022',
  platform: 'neutral',
  shims: true,
  // @svc/core/testing runs inside the user's own vitest.
  external: ['vitest'],
});
