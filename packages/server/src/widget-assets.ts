import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Hono } from 'hono';
import { SvcError, type AdminApi } from '@svc/core';
import type { AppEnv } from './http/auth.js';
import { demoPageHtml } from './demo-page.js';
import { assetHandler, chooseEncoding, IMMUTABLE, prepareAsset, type Asset } from './static-assets.js';

/** Where the built widget loader lives: `@svc/widget`'s `dist/widget.js`; its chunks are in `dist/widget-assets/`. */
export function widgetBundlePath(): string {
  return createRequire(import.meta.url).resolve('@svc/widget/widget.js');
}

/** The loader's name is fixed (sites embed it), so it is revalidated often; chunks are named after their content. */
const LOADER_CACHE = 'public, max-age=300';

const script = (cache: string): Record<string, string> => ({
  'Cache-Control': cache,
  // UTF-8: the bundle holds the French, German and Spanish strings.
  'Content-Type': 'text/javascript; charset=utf-8',
  // Sites embedding the widget may run with Cross-Origin-Embedder-Policy.
  'Cross-Origin-Resource-Policy': 'cross-origin',
  // The panel is a module script imported from the site's origin: module scripts are fetched with CORS.
  'Access-Control-Allow-Origin': '*',
});

/** The loader and every chunk the build wrote, by URL path. Only these paths are served: no path is ever joined from a request. */
async function loadAssets(): Promise<Map<string, Asset>> {
  const loader = widgetBundlePath();
  const chunkDir = join(dirname(loader), 'widget-assets');
  const assets = new Map<string, Asset>([['/widget.js', await prepareAsset(await readFile(loader), script(LOADER_CACHE))]]);
  const chunks = await readdir(chunkDir).catch(() => [] as string[]);
  for (const name of chunks.filter((file) => file.endsWith('.js'))) {
    assets.set(`/widget-assets/${name}`, await prepareAsset(await readFile(join(chunkDir, name)), script(IMMUTABLE)));
  }
  return assets;
}

export { chooseEncoding };

/**
 * `/widget.js` (the loader sites embed, spec 4.9), `/widget-assets/<chunk>` (the panel, DESIGN.md 7) and `/demo`
 * (a sample shop page with the bubble, using a demo public key allowed for the origin the page is served from).
 * The files are read and compressed once, then served from memory: the loader with a short cache and an ETag
 * (sites never change its URL), the content-hashed chunks as immutable.
 */
export function widgetRoutes(admin: Pick<AdminApi, 'demoPublicKey'>, options: { publicUrl?: string | undefined } = {}): (app: Hono<AppEnv>) => void {
  const serve = assetHandler(loadAssets, 'widget.js is not built; run `pnpm --filter @svc/widget build` (pnpm start does it).');

  return (app) => {
    app.get('/widget.js', serve);
    app.get('/widget-assets/:file', serve);

    app.get('/demo', async (c) => {
      // The key is bound to the configured public URL, never to the Host header: a Host header is whatever the
      // client writes, and minting a key per value let anyone create keys for any origin (issue 10, defect 3).
      const localPort = (c.env as { incoming?: { socket?: { localPort?: number } } } | undefined)?.incoming?.socket?.localPort;
      const origins = demoOrigins(options.publicUrl, localPort);
      const origin = new URL(c.req.url).origin;
      // With a configured URL a proxy may terminate TLS, so the request's own URL says little; by default it can
      // only be one of the loopback origins, and anything else would show a page whose widget cannot connect.
      if (origins.length === 0 || (options.publicUrl === undefined && !origins.includes(origin))) {
        throw new SvcError(
          'not_found',
          origins.length === 0
            ? 'The demo page needs SVC_PUBLIC_URL, the address visitors open it at.'
            : `The demo page is served at ${origins[0]}/demo; set SVC_PUBLIC_URL to the address visitors use.`,
        );
      }
      const demo = await admin.demoPublicKey(origins);
      if (!demo) {
        throw new SvcError('not_found', 'The demo widget is not seeded in this database (SVC_SEED_DEMO was off on the first start).');
      }
      return c.html(demoPageHtml({ publicKey: demo, origin: origins[0]! }));
    });
  };
}

/**
 * The origins the demo key allows: the configured public URL's, or by default this server's own loopback
 * addresses on the port the request arrived at (the socket's, not the Host header's). Empty when neither is known.
 */
export function demoOrigins(publicUrl: string | undefined, localPort: number | undefined): string[] {
  if (publicUrl !== undefined) return [new URL(publicUrl).origin];
  if (localPort === undefined) return [];
  return [`http://localhost:${localPort}`, `http://127.0.0.1:${localPort}`];
}
