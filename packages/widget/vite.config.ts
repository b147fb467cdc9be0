import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { build, defineConfig, type InlineConfig, type Plugin, type Rolldown } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));
/**
 * JSX compiles to Preact's `h(type, props, ...children)` (the classic runtime), not `jsx(type, { ...props, children })`:
 * shorter calls and no jsx-runtime module, 200 bytes gzipped off the panel, room the 25 KB budget needs.
 * Production JSX even when NODE_ENV says otherwise (a build started from the test runner, say). `vitest.config.ts`
 * uses the same settings.
 */
export const oxc = {
  jsx: { runtime: 'classic', pragma: 'h', pragmaFrag: 'Fragment', development: false },
  jsxInject: "import { h, Fragment } from 'preact'",
} as const;

/**
 * Properties of the panel's own objects, shortened by the minifier: the chat state, the conversation's methods and
 * the members of the context its modules share (`src/context.ts`: `generation`, `GET`, `turn`, `pump`, …),
 * component props, and the lifecycle and hook names Preact looks up on components and on its `options` (the panel
 * defines none of them; Preact is bundled in the panel, so it reads the shortened names too). Their names are read
 * nowhere else. Never a name that crosses to the loader (instance and shell members, the options it passes), to
 * storage or the service (JSON fields), to the DOM (`loading` is an `<img>` attribute), and no key of the interface
 * strings (`t.typing`: they are built from a list of names). The e2e tests run the built panel. 280 bytes gzipped of
 * room under the 25 KB budget. Preact's own internal names (`__k`, `__e`, `_sb`, … on its vnodes, components and
 * the DOM nodes it renders into) are one letter too: only the panel's copy of Preact reads them (`__html` is public
 * and longer, so it is not matched). 19 bytes more.
 */
const PANEL_PRIVATE_PROPS =
  /^(__[a-zA-Z]?|_sb|messages|problem|announcement|sentForms|retryNow|submitForm|newVisitor|startOver|restore|listen|retryAt|online|session|conversation|locale|dispose|ensureFresh|sourceChanged|onIdentityChange|subscribe|onSend|onRate|onRestart|question|sent|draft|errors|pending|recheck|fieldId|retryAfter|prefetchedConfig|generation|restoring|fetchConfig|GET|POST|history|remember|ensure|turn|pump|enqueue|stop|drop|follow|fail|stopCountdown|store|tokens|api|getDerivedStateFromProps|getDerivedStateFromError|getSnapshotBeforeUpdate|shouldComponentUpdate|getChildContext|componentWillMount|componentDidMount|componentWillReceiveProps|componentWillUpdate|componentDidUpdate|componentWillUnmount|componentDidCatch|contextType|defaultProps|debounceRendering|forceUpdate|unmount|diffed|vnode|context|current|element)$/;

/**
 * Every constant one module exports and another reads is written where it is read, short strings and numbers
 * alike (rolldown's default inlines only some): the API paths, the limits, the icon paths. 65 bytes gzipped.
 */
const INLINE_CONSTANTS = { inlineConst: true } as const;

/**
 * After the panel is written under a name derived from its content (`widget-assets/panel.<hash>.js`, so the
 * server can cache it for good), builds the loader, `widget.js`, with that name inside.
 */
function loaderBuild(): Plugin {
  let outDir = '';
  let panel = '';
  return {
    name: 'svc-widget-loader',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    writeBundle(_options, bundle) {
      const entry = Object.values(bundle).find((file) => file.type === 'chunk' && file.isEntry);
      panel = entry!.fileName.replace('widget-assets/', '');
    },
    async closeBundle() {
      const loader: InlineConfig = {
        configFile: false,
        root,
        logLevel: 'error',
        // No JSX in the loader; injecting Preact's import into its files would pull Preact in.
        oxc: { jsx: oxc.jsx },
        define: { __SVC_PANEL__: JSON.stringify(panel) },
        build: {
          outDir,
          emptyOutDir: false,
          target: 'es2022',
          minify: true,
          sourcemap: false,
          lib: { entry: 'src/web.ts', name: 'Svc', formats: ['iife'], fileName: () => 'widget.js' },
          rolldownOptions: { optimization: INLINE_CONSTANTS },
        },
      };
      await build(loader);
    },
  };
}

/**
 * The feedback chunk (`src/feedback.ts`, DESIGN.md section 12): built first, on its own (plain DOM, no Preact, so it
 * shares nothing with the panel: the panel's property mangling allows one chunk only), written next to the panel as
 * `widget-assets/fb.<hash>.js`, its name compiled into the panel as `__SVC_FEEDBACK__`.
 */
function feedbackChunk(): Plugin {
  let code = '';
  let fileName = '';
  return {
    name: 'svc-widget-feedback',
    apply: 'build',
    async config() {
      const built = (await build({
        configFile: false,
        root,
        logLevel: 'error',
        resolve: { conditions: ['@svc/source', 'module', 'browser', 'production'] },
        build: {
          write: false,
          target: 'es2022',
          minify: true,
          sourcemap: false,
          // Not library mode, whose ES output keeps its whitespace (as for the panel below).
          rolldownOptions: {
            input: 'src/feedback.ts',
            preserveEntrySignatures: 'strict',
            optimization: INLINE_CONSTANTS,
            output: { format: 'es', entryFileNames: 'feedback.js' },
          },
        },
      })) as Rolldown.RolldownOutput | Rolldown.RolldownOutput[];
      code = (Array.isArray(built) ? built[0]! : built).output[0].code;
      // Short (the name is in the panel, whose every byte counts): `fb.<hash>.js`.
      fileName = `fb.${createHash('sha256').update(code).digest('base64url').slice(0, 6)}.js`;
      return { define: { __SVC_FEEDBACK__: JSON.stringify(`./${fileName}`) } };
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: `widget-assets/${fileName}`, source: code });
    },
  };
}

/**
 * Builds the widget as DESIGN.md 7 splits it:
 * - `dist/widget.js`, the loader: one classic script (IIFE) a site loads with a plain `<script async>` tag. It
 *   defines `window.Svc`, draws the launcher and reads the config. `src/web.ts` sets `window.Svc` itself (guarding
 *   against a second copy), so the IIFE assigns no global of its own.
 * - `dist/widget-assets/panel.<hash>.js`, the panel: an ES module (Preact, conversation, Markdown, forms) that the
 *   loader imports on the first open or when the browser is idle.
 */
export default defineConfig({
  root,
  // Preact's import goes into the widget's own files only: core's (the stream event names) have no JSX, and `preact`
  // does not resolve from there. Rolldown strips their types itself.
  oxc: { ...oxc, exclude: /\/core\/src\// },
  // lightningcss's Features.LightDark: no `--lightningcss-light`/`-dark` variables for a `light-dark()` the
  // stylesheets never use (dark mode swaps variables under a class).
  css: { lightningcss: { exclude: 1 << 20 } },
  // Workspace packages from their sources (`@svc/core/event-stream`'s event names, written where they are read).
  resolve: { conditions: ['@svc/source', 'module', 'browser', 'production'] },
  plugins: [feedbackChunk(), loaderBuild()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    minify: true,
    sourcemap: false,
    // Not library mode, whose ES output keeps its whitespace: the panel is minified as fully as the loader.
    rolldownOptions: {
      input: 'src/panel.tsx',
      preserveEntrySignatures: 'strict',
      optimization: INLINE_CONSTANTS,
      output: {
        format: 'es',
        entryFileNames: 'widget-assets/panel.[hash].js',
        minify: { mangleProps: { include: PANEL_PRIVATE_PROPS } },
      },
    },
  },
});
