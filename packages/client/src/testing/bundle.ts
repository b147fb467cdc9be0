import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/**
 * The client's budget in a browser bundle, gzipped: 6.5 KiB before streaming turns, whose SSE reader and events add
 * about 1.1 KiB; knowledge sources and file uploads (`client.sources`) add about 0.12 KiB and `messages.feedback`
 * (DESIGN.md section 12) 40 bytes.
 */
export const BUNDLE_BUDGET_BYTES = 8.25 * 1024;

export interface BundleSize {
  minifiedBytes: number;
  gzipBytes: number;
  /** Every module the bundle pulled in, relative to the package. */
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
  return { minifiedBytes: output.length, gzipBytes: gzipSync(output, { level: 9 }).length, inputs: Object.keys(result.metafile.inputs) };
}
