import { defineConfig } from 'tsup';

/**
 * `dist/index.d.ts` and `dist/index.d.cts`: the declarations of the `@svc/widget` module for npm users (its
 * JavaScript is built by vite.module.config.ts, since the widget imports `?inline` CSS tsup cannot read).
 * `build` skips this step under SVC_SKIP_DTS=1 (the release and `pnpm start`, which run JavaScript only; tsup
 * cannot be told to build nothing); `prepack` always runs it.
 */
export default defineConfig({
  entry: ['src/index.ts', 'src/markdown.tsx'],
  format: ['esm', 'cjs'],
  // The @svc/core types the config types use are inlined from core's sources, as the client's are: @svc/core is
  // no dependency of the widget (its built declarations are split into chunks the inliner cannot follow). The
  // widget reads core only through its wire contract, `@svc/core/schemas`.
  dts: {
    only: true,
    resolve: [/^@svc\/core/],
    // (`@svc/core/schemas` is a folder's index, which the `*` pattern cannot name.)
    compilerOptions: { baseUrl: '.', paths: { '@svc/core': ['../core/src/index.ts'], '@svc/core/schemas': ['../core/src/schemas/index.ts'], '@svc/core/*': ['../core/src/*.ts'] } },
  },
  // vite builds write dist/ first: keep it.
  clean: false,
  target: 'es2022',
});
