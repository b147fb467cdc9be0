import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { createClient, type ClientOptions, type SvcClient } from '../index.js';

/** A host name msw answers for: no request of the unit tests leaves the process. */
export const BASE_URL = 'https://svc.test';
export const API_KEY = 'sk_live_testtesttesttesttest';

/**
 * An msw server for one test file, failing on any request no handler expects, and recording what the client
 * sent (a clone of each request, so tests can read bodies).
 */
export function useMockServer() {
  const server = setupServer();
  const requests: Request[] = [];
  server.events.on('request:start', ({ request }) => {
    requests.push(request.clone());
  });
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => {
    server.resetHandlers();
    requests.length = 0;
  });
  afterAll(() => server.close());
  return { server, requests };
}

/** A client on the mock host; retries are fast so retry tests stay quick. */
export function testClient(options: Partial<ClientOptions> = {}): SvcClient {
  return createClient({ baseUrl: BASE_URL, apiKey: API_KEY, retry: { baseDelayMs: 1 }, ...options });
}
