import { defineConfig } from 'tsup';

/**
 * `dist/index.*` (the embeddable app, ESM and CommonJS, with declarations) and `dist/cli.js`, the `svc` bin that
 * production runs with plain `node` (esbuild keeps its shebang and tsup marks it executable).
 */
export default defineConfig({
  entry: ['src/index.ts', 'src/cli.ts'],
  format: ['esm', 'cjs'],
  dts: { entry: 'src/index.ts' },
  clean: true,
  target: 'node20',
  platform: 'node',
  shims: true,
});
