import { http } from 'msw';
import { setupServer } from 'msw/node';
import type { SetupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';

/**
 * An msw server for the current test file. Unhandled requests fail the test: nothing may reach a real
 * provider, and a request to an unexpected URL is a bug worth seeing.
 */
export function useMockServer(): SetupServer {
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
  return server;
}

/** One request the mocked provider received. */
export interface Captured<Body> {
  url: string;
  headers: Headers;
  body: Body;
}

export interface MockEndpoint<Body> {
  /** Requests in arrival order. */
  requests: Captured<Body>[];
}

/**
 * Serves `replies` in order at `POST url`, one per request (the last one repeats), and records each request
 * with its parsed JSON body. The body type is what the test expects to read; the assertions check it.
 *
 * @example
 * const endpoint = mockEndpoint<OpenAIChatRequest>(server, 'https://api.openai.com/v1/chat/completions', [() => json(chatText('Hi'))]);
 */
export function mockEndpoint<Body>(
  server: SetupServer,
  url: string,
  replies: ReadonlyArray<(request: Request) => Response | Promise<Response>>,
): MockEndpoint<Body> {
  const endpoint: MockEndpoint<Body> = { requests: [] };
  server.use(
    http.post(url, async ({ request }) => {
      const body = (await request.clone().json()) as Body;
      endpoint.requests.push({ url: request.url, headers: request.headers, body });
      const reply = replies[Math.min(endpoint.requests.length - 1, replies.length - 1)];
      if (reply === undefined) throw new Error(`mockEndpoint(${url}) has no replies`);
      return reply(request);
    }),
  );
  return endpoint;
}

/** A JSON answer with the headers providers send. */
export function jsonResponse(body: unknown, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  return new Response(JSON.stringify(body), {
    status: init.status ?? 200,
    headers: { 'content-type': 'application/json', ...init.headers },
  });
}
