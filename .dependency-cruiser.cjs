/**
 * Layering, enforced (DESIGN.md section 1): each package may import only the packages below it in the diagram,
 * by their public specifier. Run by `pnpm run lint:deps`, part of `pnpm test`.
 *
 *                      core
 *     store-postgres  agents  client  callbacks
 *            server             widget
 *                              console
 *
 * The allowed arrows form a DAG, so a cycle between packages is an arrow these rules refuse. `examples/`, `eval/`
 * and `e2e/` sit on top: they may use any package, and no package may use them.
 */
const BELOW = {
  core: [],
  callbacks: ['core'],
  'store-postgres': ['core'],
  agents: ['core'],
  client: ['core'],
  server: ['core', 'store-postgres', 'agents'],
  widget: ['core', 'client'],
  // The admin API's views (core); the widget's options (types, for its preview) and its Markdown renderer, so a
  // reply reads in the console as the visitor saw it.
  console: ['core', 'widget'],
};

/** Test files may reach further for what they check against, never for what the package itself runs. */
const TEST_ONLY = {
  // The server's callback tests verify its signatures with the receivers' own verifier.
  server: ['callbacks'],
};

const TEST_FILE = '(\\.test\\.tsx?$|/test/)';

/**
 * The doors into core each package may use (docs/DESIGN.md section 3b): the façade `@svc/core` (createCore, the ports)
 * is the server's; store and agent implementations take `/store-kit`; everyone takes the wire contract `/schemas` and
 * its dependency-free half `/event-stream`; tests may add `/testing`.
 */
const CORE_DOORS = {
  'store-postgres': ['store/kit.ts', 'schemas/index.ts', 'event-stream.ts'],
  agents: ['store/kit.ts', 'schemas/index.ts', 'event-stream.ts'],
  client: ['schemas/index.ts', 'event-stream.ts'],
  widget: ['schemas/index.ts', 'event-stream.ts'],
  console: ['schemas/index.ts', 'event-stream.ts'],
  callbacks: ['schemas/index.ts', 'event-stream.ts'],
};
const door = (files) => `^packages/core/src/(?!(${files.map((file) => file.replace(/[./]/g, (c) => `\\${c}`)).join('|')})$)`;

module.exports = {
  forbidden: [
    ...Object.entries(BELOW).flatMap(([pkg, below]) => [
      {
        name: `layering-${pkg}`,
        severity: 'error',
        comment: `@svc/${pkg} may import only ${below.length ? below.map((p) => `@svc/${p}`).join(', ') : 'no other package'} (DESIGN.md section 1).`,
        from: { path: `^packages/${pkg}/`, pathNot: TEST_FILE },
        to: { path: `^packages/(?!(${[pkg, ...below].join('|')})/)` },
      },
      {
        name: `layering-${pkg}-tests`,
        severity: 'error',
        comment: `Tests of @svc/${pkg} may import only the packages it may, plus ${(TEST_ONLY[pkg] ?? []).join(', ') || 'nothing'}; live-server tests belong in e2e/.`,
        from: { path: `^packages/${pkg}/.*${TEST_FILE}` },
        to: { path: `^packages/(?!(${[pkg, ...below, ...(TEST_ONLY[pkg] ?? [])].join('|')})/)` },
      },
    ]),
    ...Object.entries(CORE_DOORS).flatMap(([pkg, files]) => [
      {
        name: `core-doors-${pkg}`,
        severity: 'error',
        comment: `@svc/${pkg} imports core only through ${files.join(', ')} of packages/core/src (the root @svc/core is the server's).`,
        from: { path: `^packages/${pkg}/`, pathNot: `${TEST_FILE}|test-support\\.ts$` },
        to: { path: door(files) },
      },
      {
        name: `core-doors-${pkg}-tests`,
        severity: 'error',
        comment: `Tests of @svc/${pkg} import core through ${files.join(', ')} and testing/index.ts only.`,
        from: { path: `^packages/${pkg}/.*(${TEST_FILE}|test-support\\.ts$)` },
        to: { path: door([...files, 'testing/index.ts']) },
      },
    ]),
    {
      name: 'public-specifier-only',
      severity: 'error',
      comment: "Import another package by its public specifier (@svc/core), never by a relative path into its src.",
      from: { path: '^packages/([^/]+)/' },
      to: { path: '^packages/', pathNot: '^packages/$1/', dependencyTypes: ['local'] },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import that does not resolve (e.g. a package not declared in package.json) cannot be checked, so it fails too.',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'no-upward-to-apps',
      severity: 'error',
      comment: 'Packages never import the examples, the evaluation or the end-to-end tests.',
      from: { path: '^packages/' },
      to: { path: '^(examples|eval|e2e)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['@svc/source', 'import', 'default'], extensions: ['.ts', '.tsx', '.js'] },
    combinedDependencies: false,
  },
};
