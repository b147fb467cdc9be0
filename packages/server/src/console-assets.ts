import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import type { Hono } from 'hono';
import type { AppEnv } from './http/auth.js';
import { assetHandler, IMMUTABLE, prepareAsset, type Asset } from './static-assets.js';

/** Where the built console lives: `@svc/console`'s `dist/` (index.html, preview.html, content-hashed assets/). */
export function consoleDistDir(): string {
  return join(dirname(createRequire(import.meta.url).resolve('@svc/console/package.json')), 'dist');
}

/**
 * The console's pages allow nothing inline and nothing from elsewhere: scripts and styles are files of this origin
 * (an injected `<script>` or `style=""` does not run), requests go to this origin's admin API only, and images may
 * come from anywhere over http(s) (product pictures and widget avatars live on the shops' sites).
 */
function csp(frameAncestors: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    'img-src \'self\' https: http: data:',
    "connect-src 'self'",
    "frame-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    `frame-ancestors ${frameAncestors}`,
  ].join('; ');
}

/**
 * The documents are revalidated on every load (`no-cache`, with an ETag), so a new release's asset names are seen
 * at once. The console is never framed; its preview page only by the console itself.
 */
const page = (frameAncestors: "'none'" | "'self'"): Record<string, string> => ({
  'Cache-Control': 'no-cache',
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': csp(frameAncestors),
  'X-Frame-Options': frameAncestors === "'none'" ? 'DENY' : 'SAMEORIGIN',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
});

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

async function loadConsole(): Promise<Map<string, Asset>> {
  const dir = consoleDistDir();
  const assets = new Map<string, Asset>([
    ['/console/', await prepareAsset(await readFile(join(dir, 'index.html')), page("'none'"))],
    ['/console/preview.html', await prepareAsset(await readFile(join(dir, 'preview.html')), page("'self'"))],
  ]);
  for (const name of await readdir(join(dir, 'assets')).catch(() => [] as string[])) {
    const type = TYPES[extname(name)];
    if (type) assets.set(`/console/assets/${name}`, await prepareAsset(await readFile(join(dir, 'assets', name)), { 'Cache-Control': IMMUTABLE, 'Content-Type': type }));
  }
  return assets;
}

/**
 * `/console/` (the operator console, DESIGN.md section 10), its theme preview page and its content-hashed assets,
 * read and compressed once, then served from memory. The console is a client of the admin API (`/admin/v1`).
 */
export function consoleRoutes(app: Hono<AppEnv>): void {
  const serve = assetHandler(loadConsole, 'The console is not built; run `pnpm --filter @svc/console build` (pnpm start does it).');
  // Relative URLs and the hash routes need the trailing slash.
  app.get('/console', (c) => c.redirect('/console/', 308));
  app.get('/console/', serve);
  app.get('/console/preview.html', serve);
  app.get('/console/assets/:file', serve);
}
