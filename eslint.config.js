/**
 * ESLint (flat config), run by `pnpm run lint` and, through it, by `pnpm test`. No type-aware rules: the whole run
 * parses each file once and stays well under a minute on two cores. `pnpm run lint:deps` (dependency-cruiser) checks
 * the package graph as a whole; the boundaries below say the same per import, where an editor shows them.
 */
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import svc from './scripts/eslint/plugin.mjs';

const PACKAGES = ['agents', 'callbacks', 'client', 'console', 'core', 'server', 'store-postgres', 'widget'];
const CODE = '**/*.{ts,tsx,mjs}';
/** Tests and their support code: they may also use `@svc/core/testing`. */
const TESTS = ['**/*.test.{ts,tsx}', '**/test-support.ts', 'packages/*/test/**', 'packages/*/src/testing/**', 'e2e/**', 'packaging/**'];

/** Which core entry points a package may import (besides its own files); `server` may use the façade too. */
const CORE_ENTRIES = {
  // `event-stream` is the dependency-free half of the wire contract (the SSE reader, the stream events' names), for
  // bundles that must never meet zod.
  client: ['schemas', 'event-stream'],
  widget: ['schemas', 'event-stream'],
  console: ['schemas', 'event-stream'],
  callbacks: ['schemas', 'event-stream'],
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
    // What is linted: packages/*/{src,test,bench}, examples, eval, e2e, packaging and scripts (.ts, .tsx, .mjs).
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
    // The examples, the evaluation, the end-to-end tests, packaging and scripts use the packages as their users do.
    files: [`{examples,eval,e2e,packaging,scripts}/${CODE}`],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: String.raw`^(\.\./)+packages/`, message: 'Import a package by its public specifier (@svc/…), never by a relative path into it.' }] },
      ],
    },
  },
);
