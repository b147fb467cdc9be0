/**
 * ESLint (flat config), run by `pnpm run lint` and, through it, by `pnpm test`. No type-aware rules: the whole run
 * parses each file once and stays well under a minute on two cores. `pnpm run lint:deps` (dependency-cruiser) checks
 * the package graph as a whole; the boundaries below say the same per import, where an editor shows them.
 */
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import svc from './scripts/eslint/plugin.mjs';

/**
 * TEMPORARY: files that still import the root `@svc/core` (or a core entry point their package may not use) while
 * the imports move to `@svc/core/schemas`, `@svc/core/store-kit` and `@svc/core/testing`. The core entry-point
 * boundary is off for them (the relative-import boundary is not). Delete a file from the list once it complies;
 * delete the list once it is empty.
 */
const BOUNDARY_PENDING = [
  'packages/agents/src/compose-answer.test.ts',
  'packages/agents/src/compose-answer.ts',
  'packages/agents/src/deltas.ts',
  'packages/agents/src/demo/demo-forms.ts',
  'packages/agents/src/demo/demo-knowledge.ts',
  'packages/agents/src/forms.ts',
  'packages/agents/src/llm/action-tools.ts',
  'packages/agents/src/llm/anthropic-messages.test.ts',
  'packages/agents/src/llm/conversation.ts',
  'packages/agents/src/llm/knowledge-tools.ts',
  'packages/agents/src/llm/llm-agent.ts',
  'packages/agents/src/llm/openai-chat.test.ts',
  'packages/agents/src/llm/openai-compatible.test.ts',
  'packages/agents/src/llm/provider-failures.test.ts',
  'packages/agents/src/llm/provider-from-env.test.ts',
  'packages/agents/src/llm/provider-from-env.ts',
  'packages/agents/src/llm/streaming.test.ts',
  'packages/agents/src/llm/system-prompt.ts',
  'packages/agents/src/llm/testing/agent-from-env.ts',
  'packages/agents/src/llm/turn-log.ts',
  'packages/agents/src/llm/turn-reply.test.ts',
  'packages/agents/src/llm/turn-reply.ts',
  'packages/agents/src/llm/turn-tools.ts',
  'packages/agents/src/local-agent.test.ts',
  'packages/agents/src/local-agent.ts',
  'packages/agents/src/scripted-agent.test.ts',
  'packages/agents/src/scripted-agent.ts',
  'packages/agents/src/test-support.ts',
  'packages/agents/src/text.ts',
  'packages/agents/src/tokens.ts',
  'packages/client/src/errors.ts',
  'packages/client/src/identity.ts',
  'packages/client/src/identity/sign.ts',
  'packages/client/src/types.ts',
  'packages/console/src/api/types.ts',
  'packages/console/src/screens/screens.test.tsx',
  'packages/store-postgres/src/lookup-cache.test.ts',
  'packages/store-postgres/src/lookup-cache.ts',
  'packages/store-postgres/src/migrate.ts',
  'packages/store-postgres/src/migrations.test.ts',
  'packages/store-postgres/src/open-sql-store.ts',
  'packages/store-postgres/src/ops/accounts.ts',
  'packages/store-postgres/src/ops/analytics.ts',
  'packages/store-postgres/src/ops/deliveries.ts',
  'packages/store-postgres/src/ops/guards.ts',
  'packages/store-postgres/src/ops/knowledge.ts',
  'packages/store-postgres/src/ops/operators.ts',
  'packages/store-postgres/src/ops/records.ts',
  'packages/store-postgres/src/ops/search.ts',
  'packages/store-postgres/src/ops/session-events.ts',
  'packages/store-postgres/src/ops/sessions.ts',
  'packages/store-postgres/src/ops/turn-accept.ts',
  'packages/store-postgres/src/ops/turn-commit.ts',
  'packages/store-postgres/src/ops/turn-jobs.ts',
  'packages/store-postgres/src/ops/webhooks.ts',
  'packages/store-postgres/src/ops/widgets-and-keys.ts',
  'packages/store-postgres/src/pglite-backup.ts',
  'packages/store-postgres/src/pglite-store.ts',
  'packages/store-postgres/src/postgres-claims.test.ts',
  'packages/store-postgres/src/postgres-contract.test.ts',
  'packages/store-postgres/src/postgres-expiry.test.ts',
  'packages/store-postgres/src/postgres-store.test.ts',
  'packages/store-postgres/src/postgres-store.ts',
  'packages/store-postgres/src/rows.ts',
  'packages/store-postgres/src/sql-ops.ts',
  'packages/store-postgres/src/sql-store.ts',
  'packages/store-postgres/src/store-status.ts',
  'packages/widget/src/api-types.ts',
];

const PACKAGES = ['agents', 'callbacks', 'client', 'console', 'core', 'server', 'store-postgres', 'widget'];
const CODE = '**/*.{ts,tsx,mjs}';
/** Tests and their support code: they may also use `@svc/core/testing`. */
const TESTS = ['**/*.test.{ts,tsx}', 'packages/*/test/**', 'packages/*/src/testing/**', 'e2e/**', 'packaging/**'];

/** Which core entry points a package may import (besides its own files); `server` may use the façade too. */
const CORE_ENTRIES = {
  client: ['schemas'],
  widget: ['schemas'],
  console: ['schemas'],
  callbacks: ['schemas'],
  'store-postgres': ['store-kit', 'schemas'],
  agents: ['store-kit', 'schemas'],
};

/** A relative import that climbs out of its package into another (`../../core/src/…`): import its public specifier. */
function relativeEscape(pkg) {
  const others = PACKAGES.filter((name) => name !== pkg).join('|');
  return {
    regex: String.raw`^(\.\./)+(packages/|(${others})/(src|test|bench|dist)(/|$))`,
    message: 'Import another package by its public specifier (@svc/…), never by a relative path into it.',
  };
}

/** `@svc/core` entry points other than `allowed` (the root façade included). */
function coreEntries(pkg, allowed) {
  return {
    regex: String.raw`^@svc/core(?!/(${allowed.join('|')})$)(/.*)?$`,
    message:
      `@svc/${pkg} may import from core only ${allowed.map((entry) => `@svc/core/${entry}`).join(', ')}: ` +
      'the root @svc/core (createCore, the ports) is for @svc/server.',
  };
}

function boundaries(pkg, { tests }) {
  const patterns = [relativeEscape(pkg)];
  const allowed = CORE_ENTRIES[pkg];
  if (allowed) patterns.push(coreEntries(pkg, tests ? [...allowed, 'testing'] : allowed));
  return { 'no-restricted-imports': ['error', { patterns }] };
}

export default tseslint.config(
  {
    // What is linted: packages/*/{src,test,bench}, examples, e2e, packaging and scripts (.ts, .tsx, .mjs).
    ignores: [
      '**/node_modules/',
      '**/dist/',
      '*.*',
      'docs/',
      'packages/*/*',
      '!packages/*/src/',
      '!packages/*/test/',
      '!packages/*/bench/',
      '**/*.{js,cjs}',
    ],
  },
  {
    files: [CODE],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    plugins: { svc },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // At most 3 parameters: options objects instead of positional flags. `svc/max-params` is ESLint's max-params
      // with a named list of the functions that already had more (eslint.max-params-exceptions.json), a list that
      // only shrinks. Tests are held to it too.
      'max-params': 'off',
      'svc/max-params': ['error', { max: 3 }],
      // Comments and test titles cite only what a reader of this repository can open (scripts/eslint/plugin.mjs).
      'svc/doc-citations': 'error',
      // `_`-prefixed names are unused on purpose (a rest sibling dropped from an object, a placeholder argument).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // `declare global { namespace Express { … } }` is how Express's Request is extended.
      '@typescript-eslint/no-namespace': ['error', { allowDeclarations: true }],
      // The control characters in our regular expressions are what they reject (input validation, SVG and text
      // sanitising), not typos.
      'no-control-regex': 'off',
    },
  },
  // Import boundaries, per package: later objects replace the rule's options of earlier ones, so tests come second.
  ...PACKAGES.flatMap((pkg) => [
    { files: [`packages/${pkg}/${CODE}`], rules: boundaries(pkg, { tests: false }) },
    { files: TESTS.map((glob) => (glob.startsWith('packages/') ? glob.replace('packages/*/', `packages/${pkg}/`) : `packages/${pkg}/${glob}`)), rules: boundaries(pkg, { tests: true }) },
  ]),
  {
    // The examples, the end-to-end tests, packaging and scripts use the packages as their users do.
    files: [`{examples,e2e,packaging,scripts}/${CODE}`],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: String.raw`^(\.\./)+packages/`, message: 'Import a package by its public specifier (@svc/…), never by a relative path into it.' }] },
      ],
    },
  },
  // TEMPORARY (see BOUNDARY_PENDING): the relative-import boundary only.
  ...PACKAGES.map((pkg) => ({
    files: BOUNDARY_PENDING.filter((file) => file.startsWith(`packages/${pkg}/`)),
    rules: { 'no-restricted-imports': ['error', { patterns: [relativeEscape(pkg)] }] },
  })).filter((config) => config.files.length > 0),
);
