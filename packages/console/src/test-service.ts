/**
 * The admin API as the tests need it, served through msw at the console's origin: handlers per test, every
 * request recorded (method, path, headers, body), and a live event feed the test writes to.
 */
import { http, HttpResponse, type RequestHandler } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';

export const ORIGIN = 'http://console.test';
export const admin = (path: string): string => `${ORIGIN}/admin/v1${path}`;

export interface Recorded {
  method: string;
  path: string;
  headers: Headers;
  body: unknown;
}

export const ME = {
  operator: { id: 'op_1', email: 'ada@example.com', name: 'Ada', role: 'owner' as const, accountId: 'acc_1' },
  csrfToken: 'csrf-token-from-sign-in',
};

/** One SSE connection the test controls: `send` writes an event, `end` closes the stream. */
export interface FeedConnection {
  lastEventId: string | null;
  send(id: string, type: string, data: unknown): void;
  end(): void;
}

export function useService(): {
  server: ReturnType<typeof setupServer>;
  requests: Recorded[];
  connections: FeedConnection[];
  use(...handlers: RequestHandler[]): void;
} {
  const requests: Recorded[] = [];
  const connections: FeedConnection[] = [];
  const feed = http.get(admin('/events'), ({ request }) => {
    const encoder = new TextEncoder();
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const stream = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
    connections.push({
      lastEventId: request.headers.get('Last-Event-ID'),
      send: (id, type, data) => controller.enqueue(encoder.encode(`id: ${id}\nevent: ${type}\ndata: ${JSON.stringify(data)}\n\n`)),
      end: () => controller.close(),
    });
    return new HttpResponse(stream, { headers: { 'Content-Type': 'text/event-stream' } });
  });
  const server = setupServer(feed);
  server.events.on('request:start', async ({ request }) => {
    const url = new URL(request.url);
    let body: unknown;
    const text = request.method === 'GET' ? '' : await request.clone().text();
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = text;
    }
    requests.push({ method: request.method, path: url.pathname + url.search, headers: request.headers, body });
  });
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => {
    server.resetHandlers(feed);
    requests.length = 0;
    for (const connection of connections.splice(0)) {
      try {
        connection.end();
      } catch {
        // Already closed by the client.
      }
    }
  });
  afterAll(() => server.close());
  return { server, requests, connections, use: (...handlers) => server.use(...handlers) };
}

export const ok = (data: unknown, status = 200) => HttpResponse.json({ data, meta: {} }, { status });
export const page = (data: unknown[], nextCursor: string | null = null) => HttpResponse.json({ data, meta: { nextCursor } });
export const failure = (status: number, code: string, message: string, field?: string) =>
  HttpResponse.json({ error: { code, message, ...(field ? { field } : {}) }, meta: {} }, { status });
export { http, HttpResponse };
