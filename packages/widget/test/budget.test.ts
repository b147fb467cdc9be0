// @vitest-environment node
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { expect, it } from 'vitest';

/** DESIGN.md 7 (revised): everything ≤ 25 KB gzip, read as 25,000 bytes at gzip's best level (gzip -9). */
const BUDGET_BYTES = 25_000;
const packageDir = fileURLToPath(new URL('..', import.meta.url));
const vite = join(dirname(createRequire(import.meta.url).resolve('vite/package.json')), 'bin', 'vite.js');

it(`widget.js builds to one script within ${BUDGET_BYTES} bytes gzipped`, () => {
  // Built into a temporary folder: the size measured is the current source's, and a server test reading
  // dist/widget.js meanwhile never sees a half-written file. A clean clone has no dist yet: it gets this build.
  const outDir = mkdtempSync(join(tmpdir(), 'svc-widget-'));
  try {
    execFileSync(process.execPath, [vite, 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'], {
      cwd: packageDir,
      stdio: 'pipe',
      env: { ...process.env, NODE_ENV: 'production' },
    });
    const script = readFileSync(join(outDir, 'widget.js'));
    const dist = join(packageDir, 'dist', 'widget.js');
    if (!existsSync(dist)) {
      mkdirSync(dirname(dist), { recursive: true });
      copyFileSync(join(outDir, 'widget.js'), dist);
    }
    const size = gzipSync(script, { level: 9 }).length;
    console.log(`dist/widget.js: ${script.length} bytes, ${size} bytes gzipped (budget ${BUDGET_BYTES})`);
    expect(size).toBeLessThanOrEqual(BUDGET_BYTES);
    // A classic script that assigns no global of its own (web.ts sets window.Svc and nothing else).
    expect(script.toString('utf8')).toMatch(/^\(function\(\)\{/);
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}, 120_000);
