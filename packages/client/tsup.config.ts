import { defineConfig } from 'tsup';

/** `dist/`: ESM and CommonJS with their type declarations, what `exports` in package.json points at for npm users. */
export default defineConfig({
  entry: ['src/index.ts', 'src/identity.ts'],
  format: ['esm', 'cjs'],
  // SVC_SKIP_DTS=1: the release build, which runs the JavaScript and ships no types.
  // The declarations inline the @svc/core types they use, as the code inlines the schema.
  dts:
    process.env.SVC_SKIP_DTS === '1'
      ? false
      : // From core's sources too: its built declarations are split into chunks the inliner cannot follow.
        {
          resolve: [/^@svc\/core/],
          // (`@svc/core/schemas` is a folder's index, which the `*` pattern cannot name.)
          compilerOptions: {
            baseUrl: '.',
            paths: { '@svc/core': ['../core/src/index.ts'], '@svc/core/schemas': ['../core/src/schemas/index.ts'], '@svc/core/*': ['../core/src/*.ts'] },
          },
        },
  clean: true,
  target: 'es2022',
  platform: 'neutral',
  shims: true,
  // Only types and identitySchema come from @svc/core: bundled (tree-shaken), so it is no runtime dependency.
  noExternal: ['@svc/core'],
  // …from its sources, so this build does not depend on core's being built first.
  esbuildOptions(options) {
    options.conditions = ['@svc/source'];
  },
});
