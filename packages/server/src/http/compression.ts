import type { MiddlewareHandler } from 'hono';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Below this a compressed body saves less than its headers cost. */
const MIN_BYTES = 1024;

/**
 * JSON and HTML only: event streams must flush each event as it is written, and the widget bundle is compressed
 * ahead of time by its own route (it sets Content-Encoding, which this leaves alone).
 */
const COMPRESSIBLE = /^(application\/(json|problem\+json)|text\/html)\b/i;

/** br when the client accepts it (smaller, and every browser does), else gzip, else nothing. */
export function negotiateEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | null {
  if (!acceptEncoding) return null;
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    accepted.set(name!, q === undefined ? 1 : Number(q.slice(2)) || 0);
  }
  const wildcard = accepted.get('*');
  const ok = (name: string): boolean => (accepted.get(name) ?? wildcard ?? 0) > 0;
  if (ok('br')) return 'br';
  if (ok('gzip')) return 'gzip';
  return null;
}

/** Compresses JSON and HTML responses of 1 KiB or more with brotli or gzip, as the request's Accept-Encoding allows. */
export function compression(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const res = c.res;
    const type = res.headers.get('Content-Type') ?? '';
    // Status and headers first: reading `body` turns @hono/node-server's light response, written straight to the
    // socket, into a web stream that is piped there, which costs more than the rest of a small request.
    if (c.req.method === 'HEAD' || res.status === 204 || res.status === 304 || res.headers.has('Content-Encoding') || !COMPRESSIBLE.test(type)) return;
    res.headers.append('Vary', 'Accept-Encoding');
    const encoding = negotiateEncoding(c.req.header('Accept-Encoding'));
    if (!encoding || res.body === null) return;
    const body = Buffer.from(await res.arrayBuffer());
    const headers = new Headers(res.headers);
    let out: Buffer = body;
    if (body.length >= MIN_BYTES) {
      out =
        encoding === 'br'
          ? await brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } })
          : await gzipAsync(body, { level: 6 });
      headers.set('Content-Encoding', encoding);
    }
    headers.delete('Content-Length');
    // Cleared first: assigning over an existing response would merge the old headers back in.
    c.res = undefined;
    c.res = new Response(new Uint8Array(out) as Uint8Array<ArrayBuffer>, { status: res.status, statusText: res.statusText, headers });
  };
}
