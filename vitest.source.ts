/**
 * Tests run the workspace packages from their TypeScript sources, never from a stale or missing `dist/`: every
 * package's `exports` lists an `@svc/source` condition (pointing at `src/`) before the `import`/`require` ones that
 * publishing uses. Each project's config spreads this into its own, since projects do not inherit the root config.
 */
export const SOURCE_CONDITION = '@svc/source';

// Vite's own defaults (its `defaultClientConditions` / `defaultServerConditions`), which a `conditions` list replaces.
export const sourceResolution = {
  resolve: { conditions: [SOURCE_CONDITION, 'module', 'browser', 'development|production'] },
  ssr: { resolve: { conditions: [SOURCE_CONDITION, 'module', 'node', 'development|production'] } },
};
