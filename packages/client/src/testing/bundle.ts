import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** The client's budget in a browser bundle, gzipped: 6.5 KiB before streaming turns, whose SSE reader and events add about 1.1 KiB. */
export const BUNDLE_BUDGET_BYTES = 8 * 1024;

export interface BundleSize {
  minifiedBytes: number;
  gzipBytes: number;
  /**
   * Every module with code in the bundle, relative to the package. Not every module esbuild read: through an entry
   * such as `@svc/core/schemas` it reads all the modules re-exported there, and drops those nothing uses.
   */
  inputs: string[];
}

/**
 * Bundles `src/index.ts` the way a browser app would (esbuild, ESM, minified, browser conditions) and
 * measures it.
 */
export async function measureBrowserBundle(): Promise<BundleSize> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('../index.ts', import.meta.url))],
    absWorkingDir: fileURLToPath(new URL('../..', import.meta.url)),
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    // The workspace's @svc/* packages from source, as in tests (package.json `exports`).
    conditions: ['@svc/source'],
    target: 'es2022',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const output = result.outputFiles[0]!.contents;
  const [bundled] = Object.values(result.metafile.outputs);
  const inputs = Object.entries(bundled!.inputs)
    .filter(([, input]) => input.bytesInOutput > 0)
    .map(([path]) => path);
  return { minifiedBytes: output.length, gzipBytes: gzipSync(output, { level: 9 }).length, inputs };
}
