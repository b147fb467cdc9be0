import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleDistDir } from './console-assets.js';
import { listen } from './node-server.js';
import { createHarness } from './testing/harness.js';
import { fetchRaw } from './testing/raw-get.js';

let base = '';
let close: () => Promise<void> = async () => undefined;
let index = '';

beforeAll(async () => {
  // The current console source, built where the server reads it (as the e2e setup and `pnpm start` do).
  const consoleDir = dirname(consoleDistDir());
  const vite = join(dirname(createRequire(join(consoleDir, 'package.json')).resolve('vite/package.json')), 'bin', 'vite.js');
  execFileSync(process.execPath, [vite, 'build', '--logLevel', 'error'], { cwd: consoleDir, stdio: 'pipe', env: { ...process.env, NODE_ENV: 'production' } });
  index = readFileSync(join(consoleDistDir(), 'index.html'), 'utf8');
  const { runtime } = await createHarness();
  const server = await listen(runtime, { port: 0, host: '127.0.0.1' });
  base = server.url;
  close = server.close;
}, 60_000);
afterAll(() => close());

describe('the console at /console', () => {
  it('redirects /console to /console/, whose hash routes and asset URLs need the slash', async () => {
    const answer = await fetchRaw(`${base}/console`);
    expect(answer.status).toBe(308);
    expect(answer.headers.location).toBe('/console/');
  });

  it('serves its page revalidated on every load, under a CSP that allows no inline script or style and no framing', async () => {
    const page = await fetchRaw(`${base}/console/`);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.headers.etag).toMatch(/^"[\w-]+"$/);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe');
    expect(page.headers['x-frame-options']).toBe('DENY');
    const html = page.wire.toString('utf8');
    expect(html).toBe(index);
    // Nothing inline that the CSP would block: every script has a src, no <style>, no style attribute, no handler.
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);

    const again = await fetchRaw(`${base}/console/`, { 'If-None-Match': String(page.headers.etag) });
    expect(again.status).toBe(304);
  });

  it('serves the content-hashed scripts and styles the page names as immutable, compressed', async () => {
    const names = [...index.matchAll(/(?:src|href)="(\/console\/assets\/[^"]+)"/g)].map((match) => match[1]!);
    expect(names.some((name) => name.endsWith('.js'))).toBe(true);
    expect(names.some((name) => name.endsWith('.css'))).toBe(true);
    for (const name of names) {
      const file = readFileSync(join(consoleDistDir(), name.replace('/console/', '')));
      const answer = await fetchRaw(base + name, { 'Accept-Encoding': 'br, gzip' });
      expect(answer.status, name).toBe(200);
      expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(answer.headers['content-type']).toMatch(name.endsWith('.js') ? /^text\/javascript/ : /^text\/css/);
      expect(answer.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(answer.wire).equals(file)).toBe(true);
    }
  });

  it('lets only the console frame its preview page, and serves nothing but the built files', async () => {
    const preview = await fetchRaw(`${base}/console/preview.html`);
    expect(preview.status).toBe(200);
    expect(String(preview.headers['content-security-policy'])).toContain("frame-ancestors 'self'");
    expect(preview.headers['x-frame-options']).toBe('SAMEORIGIN');
    for (const path of ['/console/assets/..%2F..%2Fpackage.json', '/console/assets/nothing.js', '/console/index.html']) {
      expect((await fetchRaw(base + path)).status, path).toBe(404);
    }
  });
});
