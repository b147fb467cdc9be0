import type { ServerType } from '@hono/node-server';
import { createJsonHttpServer } from './http/node-listener.js';
import type { AddressInfo } from 'node:net';
import type { Runtime } from './runtime.js';

export interface RunningServer {
  url: string;
  port: number;
  /** Stops accepting, lets requests in flight finish for up to `deadlineMs` (default: no limit), then closes. */
  close(deadlineMs?: number): Promise<void>;
}

/** Serves the runtime's app over Node's HTTP server. (The expiry sweep runs in the workers: see startWorkers.) */
export async function listen(runtime: Runtime, options: { port: number; host: string }): Promise<RunningServer> {
  const server: ServerType = await new Promise((resolve, reject) => {
    const s = createJsonHttpServer(runtime.app.fetch);
    s.once('error', reject);
    s.listen(options.port, options.host, () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;

  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${port}`,
    port,
    close: (deadlineMs?: number) =>
      new Promise<void>((resolve, reject) => {
        let force: NodeJS.Timeout | undefined;
        // Stops accepting connections; resolves once the requests in flight are answered and their sockets closed.
        server.close((error) => {
          clearTimeout(force);
          if (error) reject(error);
          else resolve();
        });
        // Idle keep-alive sockets would hold close() open for their whole timeout.
        if ('closeIdleConnections' in server) server.closeIdleConnections();
        // Past the deadline, whatever is still open is cut: the process is about to exit anyway.
        if (deadlineMs !== undefined) {
          force = setTimeout(() => {
            if ('closeAllConnections' in server) server.closeAllConnections();
          }, deadlineMs);
        }
      }),
  };
}
