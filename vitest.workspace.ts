/**
 * The test projects: one per package, one per example, and the answer-quality evaluation (`eval/`). Vitest 4 no
 * longer reads a workspace file on its own, so `vitest.config.ts` imports this list as its `test.projects`; the file
 * keeps the name the README gives it, and adding a package means adding a line here.
 */
export default [
  'packages/core',
  'packages/callbacks',
  'packages/store-postgres',
  'packages/agents',
  'packages/server',
  'packages/client',
  'packages/widget',
  'packages/console',
  'examples/*',
  'eval',
  'e2e',
  'packaging',
];
