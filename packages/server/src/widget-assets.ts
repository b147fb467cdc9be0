import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import type { Context, Hono } from 'hono';
import { apiKeyRecord, defaultIds, newKeyText, sha256Hex, SvcError, systemClock, type Store } from '@svc/core';
import type { AppEnv } from './http/auth.js';
import { demoPageHtml } from './demo-page.js';

/** Where the built widget loader lives: `@svc/widget`'s `dist/widget.js`; its chunks are in `dist/widget-assets/`. */
export function widgetBundlePath(): string {
  return createRequire(import.meta.url).resolve('@svc/widget/widget.js');
}

/** The loader's name is fixed (sites embed it), so it is revalidated often; chunks are named after their content. */
const LOADER_CACHE = 'public, max-age=300';
const CHUNK_CACHE = 'public, max-age=31536000, immutable';

type Encoding = 'br' | 'gzip' | 'identity';

/** One file of the widget, compressed once when first asked for (gzip -9, brotli 11) and kept in memory. */
interface Asset {
  bodies: Record<Encoding, ArrayBuffer>;
  /** Per encoding: each encoded body is its own representation (RFC 9110 8.8.3). */
  etags: Record<Encoding, string>;
  cache: string;
}

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/** A Buffer's bytes as an ArrayBuffer of their own (a small Buffer may be a view into a shared pool). */
const own = (bytes: Buffer): ArrayBuffer => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;

async function prepare(body: Buffer, cache: string): Promise<Asset> {
  const [gz, br] = await Promise.all([
    gzipAsync(body, { level: 9 }),
    brotliAsync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } }),
  ]);
  const tag = createHash('sha256').update(body).digest('base64url').slice(0, 27);
  return {
    bodies: { identity: own(body), gzip: own(gz), br: own(br) },
    etags: { identity: `"${tag}"`, gzip: `"${tag}-gz"`, br: `"${tag}-br"` },
    cache,
  };
}

/** The loader and every chunk the build wrote, by URL path. Only these paths are served: no path is ever joined from a request. */
async function loadAssets(): Promise<Map<string, Asset>> {
  const loader = widgetBundlePath();
  const chunkDir = join(dirname(loader), 'widget-assets');
  const assets = new Map<string, Asset>([['/widget.js', await prepare(await readFile(loader), LOADER_CACHE)]]);
  const chunks = await readdir(chunkDir).catch(() => [] as string[]);
  for (const name of chunks.filter((file) => file.endsWith('.js'))) {
    assets.set(`/widget-assets/${name}`, await prepare(await readFile(join(chunkDir, name)), CHUNK_CACHE));
  }
  return assets;
}

/** The best encoding the client accepts (`br`, then `gzip`), honouring `q=0`; identity otherwise. */
export function chooseEncoding(header: string | undefined): Encoding {
  const accepted = new Map<string, number>();
  for (const part of (header ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((param) => /^\s*q=([\d.]+)\s*$/.exec(param)?.[1]).find((value) => value !== undefined);
    accepted.set(name, q === undefined ? 1 : Number(q));
  }
  const wants = (name: string): boolean => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  if (wants('br')) return 'br';
  if (wants('gzip')) return 'gzip';
  return 'identity';
}

/** `If-None-Match` (RFC 9110 13.1.2): weak comparison, any tag of the list, or `*`. */
function notModified(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === etag;
  });
}

function send(c: Context<AppEnv>, asset: Asset): Response {
  const encoding = chooseEncoding(c.req.header('Accept-Encoding'));
  const etag = asset.etags[encoding];
  const headers: Record<string, string> = {
    'Cache-Control': asset.cache,
    ETag: etag,
    Vary: 'Accept-Encoding',
    // Sites embedding the widget may run with Cross-Origin-Embedder-Policy.
    'Cross-Origin-Resource-Policy': 'cross-origin',
    // The panel is a module script imported from the site's origin: module scripts are fetched with CORS.
    'Access-Control-Allow-Origin': '*',
    'X-Content-Type-Options': 'nosniff',
  };
  if (notModified(c.req.header('If-None-Match'), etag)) return c.body(null, 304, headers);
  if (encoding !== 'identity') headers['Content-Encoding'] = encoding;
  // UTF-8: the bundle holds the French, German and Spanish strings.
  headers['Content-Type'] = 'text/javascript; charset=utf-8';
  return c.body(asset.bodies[encoding], 200, headers);
}

/**
 * `/widget.js` (the loader sites embed, spec 4.9), `/widget-assets/<chunk>` (the panel, DESIGN.md 7) and `/demo`
 * (a sample shop page with the bubble, using a demo public key allowed for the origin the page is served from).
 * The files are read and compressed once, then served from memory: the loader with a short cache and an ETag
 * (sites never change its URL), the content-hashed chunks as immutable.
 */
export function widgetRoutes(store: Store, options: { publicUrl?: string | undefined } = {}): (app: Hono<AppEnv>) => void {
  let assets: Promise<Map<string, Asset>> | undefined;
  const load = (): Promise<Map<string, Asset>> => {
    assets ??= loadAssets().catch((error: unknown) => {
      assets = undefined;
      throw error;
    });
    return assets;
  };
  const serve = async (c: Context<AppEnv>): Promise<Response> => {
    let found: Map<string, Asset>;
    try {
      found = await load();
    } catch {
      throw new SvcError('not_found', 'widget.js is not built; run `pnpm --filter @svc/widget build` (pnpm start does it).');
    }
    const asset = found.get(c.req.path);
    if (!asset) throw new SvcError('not_found', `No widget asset ${c.req.path}.`);
    return send(c, asset);
  };

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
      const demo = await demoPublicKey(store, origins);
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

/**
 * The demo page's public key for the configured origins, created on first use (one key per configuration, not
 * per request). Public keys are public by design (the page embeds it), so keeping its text as a setting exposes
 * nothing a visitor of the page does not see anyway.
 */
export async function demoPublicKey(store: Store, origins: string[]): Promise<string | null> {
  const widgetId = await store.getOrCreateSetting('demo_widget_id', () => '');
  if (!widgetId) return null;
  const widget = await store.getWidget(widgetId);
  if (!widget) return null;
  const key = await store.getOrCreateSetting(`demo_public_key:${origins.join(' ')}`, () => newKeyText('public'));
  if (!(await store.findApiKeyByHash(await sha256Hex(key)))) {
    const record = await apiKeyRecord({ clock: systemClock, ids: defaultIds }, key, {
      kind: 'public',
      accountId: widget.accountId,
      widgetId: widget.id,
      allowedOrigins: origins,
    });
    await store.insertApiKey(record);
  }
  return key;
}
