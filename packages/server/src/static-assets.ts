import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import type { Context } from 'hono';
import { SvcError } from '@svc/core';
import type { AppEnv } from './http/auth.js';

/**
 * Built files served from memory (the widget's and the console's): each compressed once (gzip -9, brotli 11) when
 * first asked for, with an ETag per encoding and the headers the caller chose (cache policy, type, CSP…).
 */
type Encoding = 'br' | 'gzip' | 'identity';

export interface Asset {
  bodies: Record<Encoding, ArrayBuffer>;
  /** Per encoding: each encoded body is its own representation (RFC 9110 8.8.3). */
  etags: Record<Encoding, string>;
  headers: Record<string, string>;
}

/** Content-hashed file names never change content: cached for good. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/** A Buffer's bytes as an ArrayBuffer of their own (a small Buffer may be a view into a shared pool). */
const own = (bytes: Buffer): ArrayBuffer => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;

/** `headers` must carry `Cache-Control` and `Content-Type`; `ETag`, `Vary` and the encoding are added per request. */
export async function prepareAsset(body: Buffer, headers: Record<string, string>): Promise<Asset> {
  const [gz, br] = await Promise.all([
    gzipAsync(body, { level: 9 }),
    brotliAsync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } }),
  ]);
  const tag = createHash('sha256').update(body).digest('base64url').slice(0, 27);
  return {
    bodies: { identity: own(body), gzip: own(gz), br: own(br) },
    etags: { identity: `"${tag}"`, gzip: `"${tag}-gz"`, br: `"${tag}-br"` },
    headers: { 'X-Content-Type-Options': 'nosniff', ...headers },
  };
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

export function sendAsset(c: Context<AppEnv>, asset: Asset): Response {
  const encoding = chooseEncoding(c.req.header('Accept-Encoding'));
  const etag = asset.etags[encoding];
  const { 'Content-Type': contentType, ...rest } = asset.headers;
  const headers: Record<string, string> = { ...rest, ETag: etag, Vary: 'Accept-Encoding' };
  if (notModified(c.req.header('If-None-Match'), etag)) return c.body(null, 304, headers);
  if (encoding !== 'identity') headers['Content-Encoding'] = encoding;
  headers['Content-Type'] = contentType!;
  return c.body(asset.bodies[encoding], 200, headers);
}

/**
 * A handler serving the assets `load()` returns, by request path: read and compressed on the first request (again
 * after a failure, say a build that was missing), then from memory. Only the paths in the map are served: no path
 * is ever joined from a request. `missing` is the error when nothing could be loaded (the package is not built).
 */
export function assetHandler(load: () => Promise<Map<string, Asset>>, missing: string): (c: Context<AppEnv>) => Promise<Response> {
  let assets: Promise<Map<string, Asset>> | undefined;
  return async (c) => {
    assets ??= load().catch((error: unknown) => {
      assets = undefined;
      throw error;
    });
    let found: Map<string, Asset>;
    try {
      found = await assets;
    } catch {
      throw new SvcError('not_found', missing);
    }
    const asset = found.get(c.req.path);
    if (!asset) throw new SvcError('not_found', `No such file: ${c.req.path}.`);
    return sendAsset(c, asset);
  };
}
