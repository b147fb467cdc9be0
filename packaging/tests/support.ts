import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Client } from 'pg';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** node-postgres (CommonJS). */
const pg = createRequire(import.meta.url)('pg') as typeof import('pg');

export function testDatabaseUrl(): string {
  const url = process.env.SVC_TEST_DATABASE_URL;
  if (!url) throw new Error('SVC_TEST_DATABASE_URL is not set: these tests need a PostgreSQL server (README, "Run it, test it").');
  return url;
}

/** A new, empty database on the test server; `drop()` removes it. */
export async function freshDatabase(prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const admin: Client = new pg.Client({ connectionString: testDatabaseUrl() });
  await admin.connect();
  const name = `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  await admin.query(`create database "${name}"`);
  await admin.end();
  const url = new URL(testDatabaseUrl());
  url.pathname = `/${name}`;
  return {
    url: url.href,
    async drop() {
      const again: Client = new pg.Client({ connectionString: testDatabaseUrl() });
      await again.connect();
      await again.query(`drop database if exists "${name}" with (force)`);
      await again.end();
    },
  };
}

/** Runs a command to completion; throws with its output when it fails. */
export function run(command: string, args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): string {
  const result = spawnSync(command, args, {
    cwd: options.cwd ?? ROOT,
    env: { ...process.env, ...options.env },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} exited ${result.status ?? result.signal}\n${result.stdout}\n${result.stderr}`);
  }
  return result.stdout;
}

export interface Started {
  child: ChildProcess;
  url: string;
  stderr: () => string;
  stdout: () => string;
}

/** Starts a server process and resolves once its banner names the URL it listens on. */
export async function startUntilListening(command: string, args: string[], options: { cwd?: string; env: Record<string, string> }): Promise<Started> {
  const child = spawn(command, args, { cwd: options.cwd ?? ROOT, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner within 120 s:\n${err}\n${out}`)), 120_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(err);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before listening:\n${err}\n${out}`));
    });
  });
  return { child, url, stderr: () => err, stdout: () => out };
}

/** Resolves with the exit code (or signal) and how long the process took to exit after `since`. */
export async function exitOf(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) return { code: child.exitCode, signal: child.signalCode };
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  return { code, signal };
}

/** `run`, without blocking this process's event loop (for commands that talk to a server running in it). */
export async function runAsync(command: string, args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<string> {
  const { execFile } = await import('node:child_process');
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd: options.cwd ?? ROOT, env: { ...process.env, ...options.env }, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${command} ${args.join(' ')} failed: ${error.message}\n${stdout}\n${stderr}`));
      else resolve(stdout);
    });
  });
}
