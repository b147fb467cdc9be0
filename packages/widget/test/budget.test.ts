// @vitest-environment node
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { expect, it } from 'vitest';

/**
 * DESIGN.md 7 (revised): the loader, `widget.js`, ≤ 6 KB gzip; everything (loader and every chunk) ≤ 25 KB.
 * Read as 6,000 and 25,000 bytes at gzip's best level (gzip -9).
 */
const LOADER_BUDGET = 6_000;
const TOTAL_BUDGET = 25_000;
const packageDir = fileURLToPath(new URL('..', import.meta.url));
const vite = join(dirname(createRequire(import.meta.url).resolve('vite/package.json')), 'bin', 'vite.js');
const gzipped = (bytes: Buffer): number => gzipSync(bytes, { level: 9 }).length;

it(`widget.js builds to a loader within ${LOADER_BUDGET} bytes and a panel, together within ${TOTAL_BUDGET} bytes gzipped`, () => {
  // Built into a temporary folder: the size measured is the current source's, and a server test reading
  // dist meanwhile never sees a half-written file. A clean clone has no dist yet: it gets this build.
  const outDir = mkdtempSync(join(tmpdir(), 'svc-widget-'));
  try {
    execFileSync(process.execPath, [vite, 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'], {
      cwd: packageDir,
      stdio: 'pipe',
      env: { ...process.env, NODE_ENV: 'production' },
    });
    const loader = readFileSync(join(outDir, 'widget.js'));
    const chunks = readdirSync(join(outDir, 'widget-assets'));
    const dist = join(packageDir, 'dist');
    if (!existsSync(join(dist, 'widget.js'))) cpSync(outDir, dist, { recursive: true });

    const loaderSize = gzipped(loader);
    const chunkSizes = chunks.map((name) => gzipped(readFileSync(join(outDir, 'widget-assets', name))));
    const total = loaderSize + chunkSizes.reduce((sum, size) => sum + size, 0);
    console.log(`widget.js: ${loader.length} bytes, ${loaderSize} gzipped (budget ${LOADER_BUDGET}); ` +
      chunks.map((name, i) => `${name}: ${chunkSizes[i]} gzipped`).join('; ') + `; total ${total} gzipped (budget ${TOTAL_BUDGET})`);
    expect(loaderSize).toBeLessThanOrEqual(LOADER_BUDGET);
    expect(total).toBeLessThanOrEqual(TOTAL_BUDGET);

    // A classic script that assigns no global of its own (web.ts sets window.Svc and nothing else)…
    const text = loader.toString('utf8');
    expect(text).toMatch(/^\(function\(\)\{/);
    // …naming the one panel chunk, whose name carries its content hash.
    expect(chunks).toEqual([expect.stringMatching(/^panel\.[\w-]{8,}\.js$/)]);
    expect(text).toContain(chunks[0]);
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}, 120_000);
