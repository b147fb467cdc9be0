import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { randomBase62 } from '@svc/core';

/**
 * `node --import tsx script.ts`: TypeScript in ONE process. tsx's own CLI runs the script in a child process,
 * and a SIGKILL sent to the wrapper would leave that child (the real server) running. The `@svc/source` condition
 * resolves the workspace packages to their sources, as in tests, so no build is needed.
 */
export function nodeWithTsx(script: string, args: string[] = []): string[] {
  return ['--conditions=@svc/source', '--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href, script, ...args];
}

/** The `svc` CLI from its source, as a user runs it. */
export const CLI_SCRIPT = fileURLToPath(new URL('../cli.ts', import.meta.url));

/** Runs `svc …args` in its own process with `env` added (and `stdin` piped in); resolves its exit code and output. */
export function runCli(args: string[], env: Record<string, string>, stdin?: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, nodeWithTsx(CLI_SCRIPT, args), {
      env: { ...process.env, ...env },
      stdio: [stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    if (stdin !== undefined) child.stdin!.end(stdin);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Starts `callback-process.ts` in its own Node process; resolves with what it printed after `ready`. */
export async function startServiceProcess(env: Record<string, string>): Promise<{ child: ChildProcess; ready: string }> {
  const script = fileURLToPath(new URL('./callback-process.ts', import.meta.url));
  const child = spawn(process.execPath, nodeWithTsx(script), { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const ready = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`service process did not start: ${stderr}`)), 30_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /ready (\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`service process exited with ${code}: ${stderr}`));
    });
  });
  return { child, ready };
}

export function kill(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

/** A real `svc start --port 0`: its process, the URL it listens on, its stdout log lines and its stderr banner. */
export interface CliServer {
  child: ChildProcess;
  url: string;
  /** stdout, a line each (the JSON log, when LOG_LEVEL lets it through). */
  logs: string[];
  /** stderr up to and including the line that named the URL (the banner: demo key, widget…). */
  banner: string;
}

/**
 * Starts `svc start --port 0` as a user runs it, with `env` added; resolves once it listens, after `ready` matches its
 * stderr (default: the listening line; pass e.g. /Password:/ to wait for the whole demo banner).
 */
export async function startCliServer(env: Record<string, string>, ready: RegExp = /listening on \S+/): Promise<CliServer> {
  const child = spawn(process.execPath, nodeWithTsx(CLI_SCRIPT, ['start', '--port', '0']), { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const logs: string[] = [];
  let partial = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop()!;
    logs.push(...lines.filter(Boolean));
  });
  const banner = await new Promise<string>((resolve, reject) => {
    let err = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      if (ready.test(err) && /listening on \S+/.test(err)) resolve(err);
    });
    child.once('exit', () => reject(new Error(err)));
  });
  return { child, url: /listening on (\S+)/.exec(banner)![1]!, logs, banner };
}

/**
 * A new schema on the test PostgreSQL and the connection string that uses it (`options=-c search_path=…`), for a
 * process of its own; `drop` removes it.
 */
export async function freshSchema(databaseUrl: string, prefix: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const { default: pg } = await import('pg');
  const schema = `${prefix}_${randomBase62(8).toLowerCase()}`;
  const run = async (sql: string) => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(sql).finally(() => client.end());
  };
  await run(`create schema "${schema}"`);
  const url = new URL(databaseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return { url: url.toString(), drop: () => run(`drop schema if exists "${schema}" cascade`) };
}
