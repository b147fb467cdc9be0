import { defineConfig } from 'tsup';

/**
 * `dist/index.*` (the embeddable app, ESM and CommonJS, with declarations) and `dist/cli.js`, the `svc` bin that
 * production runs with plain `node` (esbuild keeps its shebang and tsup marks it executable).
 */
export default defineConfig({
  entry: ['src/index.ts', 'src/cli.ts'],
  format: ['esm', 'cjs'],
  // SVC_SKIP_DTS=1: the release build, which runs the JavaScript and ships no types.
  dts: process.env.SVC_SKIP_DTS === '1' ? false : { entry: 'src/index.ts' },
  clean: true,
  target: 'node20',
  platform: 'node',
  shims: true,
});
