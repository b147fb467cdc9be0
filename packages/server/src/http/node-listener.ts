import { createServer, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { getRequestListener, RequestError } from '@hono/node-server';
import { SvcError } from '@svc/core';
import { errorBody } from './respond.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Node's HTTP server around a fetch handler, answering in JSON even where the handler never runs (DESIGN.md
 * section 4: every response is JSON):
 * - requests @hono/node-server cannot turn into a `Request` (a Host header that is no valid URL host, such as
 *   `xn--`, a backslash in the path), which it otherwise answers with a bare 400;
 * - requests Node's parser rejects before any handler (malformed request line or headers, headers too large),
 *   which Node otherwise answers with an empty 400 or 431.
 */
export function createJsonHttpServer(fetch: (request: Request, env: unknown) => Response | Promise<Response>): Server {
  const listener = getRequestListener(fetch, {
    errorHandler: (error) => {
      const known =
        error instanceof RequestError
          ? new SvcError('validation_failed', `The request could not be read: ${error.message}.`, { field: 'request' })
          : error;
      const { status, body } = errorBody(known);
      return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': JSON_TYPE } });
    },
  });
  const server = createServer(listener);
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable || (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent) {
      socket.destroy();
      return;
    }
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
    const status = tooLarge ? 431 : 400;
    const payload = JSON.stringify({
      error: {
        code: 'validation_failed',
        message: tooLarge ? 'The request headers are too large.' : 'The request is not valid HTTP.',
        field: tooLarge ? 'headers' : 'request',
      },
      meta: { creditsConsumed: 0 },
    });
    socket.end(
      `HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
        `Content-Type: ${JSON_TYPE}\r\nContent-Length: ${Buffer.byteLength(payload)}\r\nConnection: close\r\n\r\n${payload}`,
    );
  });
  return server;
}
