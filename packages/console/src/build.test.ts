// @vitest-environment node
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { expect, it } from 'vitest';

/**
 * What the server serves at /console/: two pages that load only content-hashed files (nothing inline, which the
 * pages' CSP refuses), and everything the console downloads, scripts and styles, within 40,000 bytes at gzip -9.
 */
const BUDGET = 40_000;
const packageDir = fileURLToPath(new URL('..', import.meta.url));
const vite = join(dirname(createRequire(import.meta.url).resolve('vite/package.json')), 'bin', 'vite.js');

it(`builds pages with nothing inline and content-hashed assets within ${BUDGET} bytes gzipped`, () => {
  // Into a temporary folder, so a server test reading dist/ meanwhile never sees a half-written file.
  const outDir = mkdtempSync(join(tmpdir(), 'svc-console-'));
  try {
    execFileSync(process.execPath, [vite, 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'], {
      cwd: packageDir,
      stdio: 'pipe',
      env: { ...process.env, NODE_ENV: 'production' },
    });
    expect(readdirSync(outDir).sort()).toEqual(['assets', 'index.html', 'preview.html']);
    const assets = readdirSync(join(outDir, 'assets'));
    for (const name of assets) expect(name).toMatch(/^[\w-]+-[\w-]{8}\.(js|css)$/);
    for (const page of ['index.html', 'preview.html']) {
      const html = readFileSync(join(outDir, page), 'utf8');
      expect(html, page).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>|<style|\sstyle=|\son[a-z]+=/i);
      for (const [, name] of html.matchAll(/(?:src|href)="\/console\/assets\/([^"]+)"/g)) expect(assets, page).toContain(name);
    }
    const sizes = assets.map((name) => gzipSync(readFileSync(join(outDir, 'assets', name)), { level: 9 }).length);
    const total = sizes.reduce((sum, size) => sum + size, 0);
    console.log(`console: ${assets.map((name, i) => `${name} ${sizes[i]}`).join(', ')}; total ${total} bytes gzipped (budget ${BUDGET})`);
    expect(total).toBeLessThanOrEqual(BUDGET);
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}, 120_000);
