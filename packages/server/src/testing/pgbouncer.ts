import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** Debian's package `pgbouncer` (`.ci/run` installs it). */
export const PGBOUNCER = '/usr/sbin/pgbouncer';

export interface RunningPgBouncer {
  /** `postgres://user@127.0.0.1:<port>/<database>` of the pooler, for the given database. */
  url(database: string): string;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * A real PgBouncer in front of `target`, in transaction pooling mode with its stock settings otherwise: in particular
 * no `ignore_startup_parameters`, so a client sending startup options is refused as it would be in production.
 * Every database name is passed through (`*`), trust authentication, on loopback.
 */
export async function startPgBouncer(target: { host: string; port: number; user: string }): Promise<RunningPgBouncer> {
  if (!existsSync(PGBOUNCER)) throw new Error(`${PGBOUNCER} is missing: apt-get install pgbouncer (.ci/run does)`);
  const dir = await mkdtemp(join(tmpdir(), 'svc-pgbouncer-'));
  const port = await freePort();
  await writeFile(join(dir, 'userlist.txt'), `"${target.user}" ""\n`);
  await writeFile(
    join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `* = host=${target.host} port=${target.port}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${join(dir, 'userlist.txt')}`,
      'pool_mode = transaction',
      'max_client_conn = 500',
      'default_pool_size = 20',
      `logfile = ${join(dir, 'pgbouncer.log')}`,
      `pidfile = ${join(dir, 'pgbouncer.pid')}`,
      '',
    ].join('\n'),
  );
  // PgBouncer refuses to run as root; as root it is told to switch to the postgres user, who must read its files.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) await chmod(dir, 0o777);
  const child: ChildProcess = spawn(PGBOUNCER, [...(asRoot ? ['-u', 'postgres'] : []), join(dir, 'pgbouncer.ini')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`pgbouncer exited with ${child.exitCode}: ${stderr}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) break;
    if (Date.now() > deadline) throw new Error(`pgbouncer did not listen on ${port}: ${stderr}`);
    await sleep(50);
  }
  return {
    url: (database) => `postgres://${target.user}@127.0.0.1:${port}/${database}`,
    async close() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
