import { createServer } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll } from 'vitest';

/** One request the loopback provider received, body parsed as JSON. */
export interface ReceivedRequest<Body> {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Body;
}

/** What a handler answers: a JSON body with a status and headers, or `hang` (never answer: the deadline's test). */
export type Answer = { status?: number; headers?: Record<string, string>; json?: unknown; text?: string } | 'hang';

export type Handler<Body> = (request: ReceivedRequest<Body>) => Answer;

export interface LoopbackServer {
  /** `http://127.0.0.1:{port}`, without a trailing slash. */
  origin: string;
  /**
   * Serves `handlers` in order at `POST path`, one per request (the last one repeats), and records each request.
   * Replaces what the previous test set up.
   */
  route<Body>(path: string, handlers: ReadonlyArray<Handler<Body>>): { requests: ReceivedRequest<Body>[] };
}

/**
 * A provider on a real socket (127.0.0.1, a free port) for the current test file: the providers' own HTTP clients
 * (the AI SDK's, our fetch) run unchanged. A request to a path no test set up answers 404 and fails the call.
 */
export function useLoopbackServer(): LoopbackServer {
  let routes = new Map<string, { handlers: ReadonlyArray<Handler<unknown>>; requests: ReceivedRequest<unknown>[] }>();
  const held = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    void handle(req, res);
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const path = new URL(req.url ?? '/', 'http://loopback').pathname;
    const route = req.method === 'POST' ? routes.get(path) : undefined;
    if (route === undefined) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `no route for ${req.method} ${path}` } }));
      return;
    }
    const request = { method: req.method ?? '', path, headers: req.headers, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
    route.requests.push(request);
    const handler = route.handlers[Math.min(route.requests.length - 1, route.handlers.length - 1)];
    const answer = handler?.(request) ?? { status: 500, text: 'no handler' };
    if (answer === 'hang') {
      held.add(res);
      res.on('close', () => held.delete(res));
      return;
    }
    const body = answer.json === undefined ? (answer.text ?? '') : JSON.stringify(answer.json);
    const type = answer.json === undefined ? 'text/plain' : 'application/json';
    res.writeHead(answer.status ?? 200, { 'content-type': type, ...answer.headers }).end(body);
  }

  const loopback: LoopbackServer = {
    origin: '',
    route<Body>(path: string, handlers: ReadonlyArray<Handler<Body>>) {
      const entry = { handlers: handlers as ReadonlyArray<Handler<unknown>>, requests: [] as ReceivedRequest<unknown>[] };
      routes.set(path, entry);
      return entry as unknown as { requests: ReceivedRequest<Body>[] };
    },
  };
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    loopback.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(() => {
    routes = new Map();
    for (const res of held) res.destroy();
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return loopback;
}
