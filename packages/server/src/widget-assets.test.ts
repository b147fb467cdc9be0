import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen } from './node-server.js';
import { createHarness } from './testing/harness.js';
import { fetchRaw } from './testing/raw-get.js';
import { chooseEncoding, widgetBundlePath } from './widget-assets.js';

let base = '';
let close: () => Promise<void> = async () => undefined;
let loader: Buffer;
let panelName = '';
let panel: Buffer;

beforeAll(async () => {
  // The current widget source, built where the server reads it (as the e2e setup and `pnpm start` do).
  const widgetDir = dirname(dirname(widgetBundlePath()));
  const vite = join(dirname(createRequire(join(widgetDir, 'package.json')).resolve('vite/package.json')), 'bin', 'vite.js');
  execFileSync(process.execPath, [vite, 'build', '--logLevel', 'error'], { cwd: widgetDir, stdio: 'pipe', env: { ...process.env, NODE_ENV: 'production' } });
  loader = readFileSync(widgetBundlePath());
  panelName = readdirSync(join(dirname(widgetBundlePath()), 'widget-assets')).find((name) => name.startsWith('panel.'))!;
  panel = readFileSync(join(dirname(widgetBundlePath()), 'widget-assets', panelName));
  const { runtime } = await createHarness();
  const server = await listen(runtime, { port: 0, host: '127.0.0.1' });
  base = server.url;
  close = server.close;
}, 60_000);
afterAll(() => close());

describe('widget assets', () => {
  it('serves the loader compressed as the browser asks (brotli, else gzip, else plain), the same bytes once decoded', async () => {
    const br = await fetchRaw(`${base}/widget.js`, { 'Accept-Encoding': 'gzip, deflate, br, zstd' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(brotliDecompressSync(br.wire).equals(loader)).toBe(true);

    const gz = await fetchRaw(`${base}/widget.js`, { 'Accept-Encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.wire).equals(loader)).toBe(true);

    const refused = await fetchRaw(`${base}/widget.js`, { 'Accept-Encoding': 'br;q=0, gzip;q=0' });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.wire.equals(loader)).toBe(true);
    expect((await fetchRaw(`${base}/widget.js`)).wire.equals(loader)).toBe(true);
  });

  it('gives the loader a short cache and an ETag, and answers 304 without a body when it has not changed', async () => {
    const first = await fetchRaw(`${base}/widget.js`, { 'Accept-Encoding': 'br' });
    expect(first.headers['cache-control']).toBe('public, max-age=300');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await fetchRaw(`${base}/widget.js`, { 'Accept-Encoding': 'br', 'If-None-Match': `"other", W/${etag}` });
    expect(again.status).toBe(304);
    expect(again.wire.length).toBe(0);
    expect(again.headers.etag).toBe(etag);
    // Another encoding is another representation: its own tag, so no cache mixes them up.
    const gz = await fetchRaw(`${base}/widget.js`, { 'Accept-Encoding': 'gzip', 'If-None-Match': etag });
    expect(gz.status).toBe(200);
    expect(gz.headers.etag).not.toBe(etag);
  });

  it('serves the content-hashed panel as immutable, with CORS so another origin can import it as a module', async () => {
    expect(loader.toString('utf8')).toContain(panelName);
    const res = await fetchRaw(`${base}/widget-assets/${panelName}`, { 'Accept-Encoding': 'br', Origin: 'https://shop.example' });
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(brotliDecompressSync(res.wire).equals(panel)).toBe(true);
  });

  it('serves only the files the build wrote', async () => {
    for (const path of ['/widget-assets/panel.nope.js', '/widget-assets/..%2Fwidget.js', '/widget-assets/%2e%2e%2fpackage.json']) {
      const res = await fetchRaw(`${base}${path}`);
      expect(res.status, path).toBe(404);
      expect(JSON.parse(res.wire.toString()).error.code, path).toBe('not_found');
    }
  });

  it('issue 12 defect 7: loader and panel cross the wire compressed, within the 25 KB budget', async () => {
    const sizes: Record<string, number> = {};
    for (const encoding of ['identity', 'gzip', 'br']) {
      let total = 0;
      for (const path of ['/widget.js', `/widget-assets/${panelName}`]) total += (await fetchRaw(`${base}${path}`, { 'Accept-Encoding': encoding })).wire.length;
      sizes[encoding] = total;
    }
    console.log(`widget bytes on the wire (loader + panel): ${JSON.stringify(sizes)}`);
    expect(sizes.gzip).toBeLessThanOrEqual(25_000);
    expect(sizes.br).toBeLessThan(sizes.gzip!);
    expect(sizes.identity).toBeGreaterThan(2 * sizes.gzip!);
  });
});

describe('Accept-Encoding', () => {
  it('prefers brotli, then gzip, honours q=0 and *, and falls back to identity', () => {
    expect(chooseEncoding('gzip, deflate, br')).toBe('br');
    expect(chooseEncoding('gzip;q=1.0, br;q=0')).toBe('gzip');
    expect(chooseEncoding('*')).toBe('br');
    expect(chooseEncoding('*, br;q=0')).toBe('gzip');
    expect(chooseEncoding('deflate')).toBe('identity');
    expect(chooseEncoding(undefined)).toBe('identity');
    expect(chooseEncoding('identity;q=1, gzip;q=0')).toBe('identity');
  });
});
