#!/usr/bin/env node
/**
 * The demo for a fresh clone (`npm start` / `pnpm start` call it through run.mjs, after setting up pnpm). Builds what is missing or older than its sources (the
 * packages the server runs on and the widget bundle), then runs the built server IN THIS PROCESS with the demo
 * seeded: `node packages/server/dist/cli.js start --demo`. The script is started with `exec`, so the package manager's
 * child is this very process and the SIGINT/SIGTERM it forwards (Ctrl-C, `docker stop`, systemd) reach the server.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The server's workspace packages, dependencies first, and what each one's build writes. */
const PACKAGES = [
  { name: '@svc/core', dir: 'packages/core', output: 'dist/index.js' },
  { name: '@svc/store-postgres', dir: 'packages/store-postgres', output: 'dist/index.js' },
  { name: '@svc/agents', dir: 'packages/agents', output: 'dist/index.js' },
  { name: '@svc/client', dir: 'packages/client', output: 'dist/identity.js' },
  { name: '@svc/widget', dir: 'packages/widget', output: 'dist/widget.js' },
  { name: '@svc/console', dir: 'packages/console', output: 'dist/index.html' },
  { name: '@svc/server', dir: 'packages/server', output: 'dist/cli.js' },
];

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

function isStale({ dir, output }) {
  const built = join(root, dir, output);
  if (!existsSync(built)) return true;
  const inputs = ['src', 'package.json', 'tsup.config.ts', 'vite.config.ts', 'index.html', 'preview.html'].map((p) => newestMtime(join(root, dir, p)));
  return Math.max(...inputs) > statSync(built).mtimeMs;
}

/** Builds what is stale, then runs `svc start --demo …args` in this process; resolves the exit code when it ends early. */
export async function startDemo(args) {
  const stale = PACKAGES.filter(isStale);
  if (stale.length > 0) {
    process.stderr.write(`Building ${stale.map((p) => p.name).join(', ')} …\n`);
    // pnpm sets npm_execpath to its own entry when it runs this script (npm sets its own: not usable here).
    const pnpm = process.env.npm_execpath;
    const [command, prefix] = pnpm && /pnpm/.test(pnpm) && /\.[cm]?js$/.test(pnpm) ? [process.execPath, [pnpm]] : ['pnpm', []];
    const filters = stale.flatMap((p) => ['--filter', p.name]);
    const result = spawnSync(command, [...prefix, '--reporter=append-only', ...filters, 'run', 'build'], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
      // JavaScript only: the demo runs it, and the workspace's type checking reads the sources (`pnpm build` and
      // `npm pack` write the declarations).
      env: { ...process.env, SVC_SKIP_DTS: '1' },
    });
    if (result.status !== 0) {
      process.stderr.write(`Build failed (exit ${result.status ?? result.signal}); run \`pnpm build\` to see why.\n`);
      return 1;
    }
  }
  const { main } = await import(pathToFileURL(join(root, 'packages/server/dist/cli.js')).href);
  return main(['start', '--demo', ...args]);
}

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
  const code = await startDemo(process.argv.slice(2));
  if (code >= 0) process.exit(code);
}
