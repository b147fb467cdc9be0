import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createIdentityToken } from '@svc/client/identity';

/** Who the site says is signed in: its identity endpoint signs a fresh token for this user on every request. */
export interface SignedInUser {
  sub: string;
  email?: string;
}

export interface IssuedToken {
  token: string | null;
  at: number;
}

export interface PageServer {
  /** `http://127.0.0.1:<port>`: another origin than the API's (another port), so the widget's calls are real CORS. */
  origin: string;
  /** Serves `html` at `path` (a test page of the site embedding the widget), with extra headers (a CSP, say). */
  setPage(path: string, html: string, headers?: Record<string, string>): string;
  /** Serves a script of the site's own at `path`. */
  setScript(path: string, js: string): string;
  /** Serves any file (an image, say) at `path`. */
  setFile(path: string, body: Buffer, contentType: string): string;
  /** The site's session, which the identity endpoint reads (null: nobody signed in). */
  identity: { secret: string | null; user: SignedInUser | null; ttlSeconds: number };
  /** Every answer of the identity endpoint, oldest first. */
  issued: IssuedToken[];
  close(): Promise<void>;
}

/** The path of the site's identity endpoint (same origin as its pages). */
export const IDENTITY_PATH = '/api/svc-token';

/**
 * The site that embeds the widget: its pages and its identity endpoint (DESIGN.md 7: `GET` on the page's own origin
 * answering `{"token": "<jwt>"}` or `{"token": null}`), signed with the widget's identity secret the way a site's
 * server would, with `createIdentityToken`.
 */
export async function startPageServer(): Promise<PageServer> {
  const pages = new Map<string, { body: string | Buffer; headers: Record<string, string> }>();
  const identity: PageServer['identity'] = { secret: null, user: null, ttlSeconds: 3600 };
  const issued: IssuedToken[] = [];

  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://page.test').pathname;
    if (req.method === 'GET' && path === IDENTITY_PATH) {
      const { secret, user, ttlSeconds } = identity;
      const token =
        user && secret ? await createIdentityToken({ secret, sub: user.sub, ...(user.email ? { email: user.email } : {}), ttlSeconds }) : null;
      issued.push({ token, at: Date.now() });
      res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
      res.end(JSON.stringify({ token }));
      return;
    }
    const page = req.method === 'GET' ? pages.get(path) : undefined;
    if (page === undefined) {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('not found');
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', ...page.headers });
    res.end(page.body);
  }

  const server = createServer((req, res) => {
    answer(req, res).catch((error: unknown) => {
      res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    identity,
    issued,
    setPage(path, html, headers = {}) {
      pages.set(path, { body: html, headers });
      return origin + path;
    },
    setScript(path, js) {
      pages.set(path, { body: js, headers: { 'Content-Type': 'text/javascript; charset=utf-8' } });
      return origin + path;
    },
    setFile(path, body, contentType) {
      pages.set(path, { body, headers: { 'Content-Type': contentType } });
      return origin + path;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
