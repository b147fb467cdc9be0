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
 * DESIGN.md 7 (revised): the loader, `widget.js`, ≤ 6 KB gzip; the loader and the panel together ≤ 25 KB. The
 * feedback chunk (DESIGN.md section 12), loaded once a reply is on screen, has a budget of its own: 3 KB.
 * Read as 6,000, 25,000 and 3,000 bytes at gzip's best level (gzip -9).
 */
const LOADER_BUDGET = 6_000;
const TOTAL_BUDGET = 25_000;
const FEEDBACK_BUDGET = 3_000;
const packageDir = fileURLToPath(new URL('..', import.meta.url));
const vite = join(dirname(createRequire(import.meta.url).resolve('vite/package.json')), 'bin', 'vite.js');
const gzipped = (bytes: Buffer): number => gzipSync(bytes, { level: 9 }).length;

it(`widget.js builds to a loader within ${LOADER_BUDGET} bytes and a panel, together within ${TOTAL_BUDGET} bytes gzipped, and a feedback chunk within ${FEEDBACK_BUDGET}`, () => {
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
    const chunks = readdirSync(join(outDir, 'widget-assets')).sort();
    const dist = join(packageDir, 'dist');
    if (!existsSync(join(dist, 'widget.js'))) cpSync(outDir, dist, { recursive: true });

    // The panel and the feedback chunk, each named after its content.
    expect(chunks).toEqual([expect.stringMatching(/^fb\.[\w-]{6}\.js$/), expect.stringMatching(/^panel\.[\w-]{8,}\.js$/)]);
    const [feedback, panel] = chunks as [string, string];
    const loaderSize = gzipped(loader);
    const panelText = readFileSync(join(outDir, 'widget-assets', panel));
    const panelSize = gzipped(panelText);
    const feedbackSize = gzipped(readFileSync(join(outDir, 'widget-assets', feedback)));
    const total = loaderSize + panelSize;
    console.log(`widget.js: ${loader.length} bytes, ${loaderSize} gzipped (budget ${LOADER_BUDGET}); ${panel}: ${panelSize} gzipped; ` +
      `total ${total} gzipped (budget ${TOTAL_BUDGET}); ${feedback}: ${feedbackSize} gzipped (budget ${FEEDBACK_BUDGET})`);
    expect(loaderSize).toBeLessThanOrEqual(LOADER_BUDGET);
    expect(total).toBeLessThanOrEqual(TOTAL_BUDGET);
    expect(feedbackSize).toBeLessThanOrEqual(FEEDBACK_BUDGET);

    // A classic script that assigns no global of its own (web.ts sets window.Svc and nothing else)…
    const text = loader.toString('utf8');
    expect(text).toMatch(/^\(function\(\)\{/);
    // …naming the panel, which names the feedback chunk beside it.
    expect(text).toContain(panel);
    expect(panelText.toString('utf8')).toContain(`./${feedback}`);
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}, 120_000);
