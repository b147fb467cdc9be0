import { defineConfig } from 'tsup';

/** `dist/`: ESM and CommonJS with their type declarations, what `exports` in package.json points at for npm users. */
export default defineConfig({
  entry: ['src/index.ts', 'src/testing/index.ts'],
  format: ['esm', 'cjs'],
  // SVC_SKIP_DTS=1: the release build, which runs the JavaScript and ships no types.
  dts: process.env.SVC_SKIP_DTS !== '1',
  clean: true,
  target: 'node20',
  platform: 'node',
  shims: true,
  // @svc/agents/testing runs inside the user's own vitest.
  external: ['vitest'],
});
