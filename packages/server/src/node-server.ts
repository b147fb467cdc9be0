import type { ServerType } from '@hono/node-server';
import { createJsonHttpServer } from './http/node-listener.js';
import type { AddressInfo } from 'node:net';
import type { Runtime } from './runtime.js';

export interface RunningServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Serves the runtime's app over Node's HTTP server and runs the expiry sweep beside it. */
export async function listen(runtime: Runtime, options: { port: number; host: string; sweepIntervalMs: number }): Promise<RunningServer> {
  const server: ServerType = await new Promise((resolve, reject) => {
    const s = createJsonHttpServer(runtime.app.fetch);
    s.once('error', reject);
    s.listen(options.port, options.host, () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;

  const sweep = setInterval(() => {
    runtime.engine.expireIdleSessions().then(
      (count) => count > 0 && runtime.logger.info({ count }, 'expired idle sessions'),
      (error: unknown) => runtime.logger.error({ err: error }, 'expiry sweep failed'),
    );
  }, options.sweepIntervalMs);
  sweep.unref();

  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        clearInterval(sweep);
        server.close((error) => (error ? reject(error) : resolve()));
        // Idle keep-alive sockets would hold close() open for their whole timeout.
        if ('closeIdleConnections' in server) server.closeIdleConnections();
      }),
  };
}
