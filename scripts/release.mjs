#!/usr/bin/env node
/**
 * Builds the self-contained server directory that production runs (DESIGN.md section 9):
 *
 *   node scripts/release.mjs [--out DIR]        (default: release/server)
 *   node DIR/dist/cli.js start                  one Node process, no pnpm, tsx or Vite at run time
 *
 * 1. builds @svc/server and the workspace packages it runs on, the widget bundle included (types are skipped:
 *    the directory runs JavaScript), and the console's static files;
 * 2. `pnpm deploy --prod`: a copy of @svc/server with production dependencies only, the workspace packages copied
 *    in with their built `dist/`, from the lockfile;
 * 3. checks that the entry point, the widget bundle and the console are there.
 * The Dockerfile and CI's release test both run exactly this.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { out: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
if (values.help) {
  console.log('Usage: node scripts/release.mjs [--out DIR]   (default release/server)');
  process.exit(0);
}
const out = values.out ? (isAbsolute(values.out) ? values.out : resolve(process.env.INIT_CWD ?? process.cwd(), values.out)) : join(root, 'release/server');

function step(message) {
  process.stderr.write(`==> ${message}\n`);
}

/** pnpm, as the one running this script (npm_execpath) or from PATH, with its output shown. */
function pnpm(args, env = {}) {
  const execpath = process.env.npm_execpath;
  const [command, prefix] = execpath && /pnpm/.test(execpath) && /\.[cm]?js$/.test(execpath) ? [process.execPath, [execpath]] : ['pnpm', []];
  const result = spawnSync(command, [...prefix, '--reporter=append-only', ...args], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, ...env },
  });
  if (result.status !== 0) {
    process.stderr.write(`release: pnpm ${args.join(' ')} failed (${result.status ?? result.signal})\n`);
    process.exit(1);
  }
}

step('build @svc/server and its workspace dependencies (widget and console included)');
pnpm(['--filter', '@svc/server...', 'run', 'build'], { SVC_SKIP_DTS: '1' });

step(`deploy production dependencies to ${out}`);
rmSync(out, { recursive: true, force: true });
// Injected: the workspace packages are copied in (their published `files`, dist included), not linked back here.
pnpm(['--config.inject-workspace-packages=true', '--filter', '@svc/server', 'deploy', '--prod', '--prefer-offline', out]);

step('check');
const required = ['dist/cli.js', 'node_modules/@svc/store-postgres/dist/pglite-worker.js', 'node_modules/@svc/widget/dist/widget.js', 'node_modules/@svc/console/dist/index.html', 'node_modules/@svc/core/dist/index.js'];
const missing = required.filter((path) => !existsSync(join(out, path)));
if (missing.length > 0) {
  process.stderr.write(`release: missing from ${out}: ${missing.join(', ')}\n`);
  process.exit(1);
}
writeFileSync(
  join(out, 'RUNNING.md'),
  [
    '# Svc Conversations server',
    '',
    'Built by `scripts/release.mjs`. Run it with Node 20.19 or newer:',
    '',
    '    DATABASE_URL=postgres://USER:PASSWORD@HOST:5432/svc HOST=0.0.0.0 PORT=3000 node dist/cli.js start',
    '',
    'Without DATABASE_URL it uses the embedded database in SVC_DATA_DIR (default ./.svc-data).',
    '`node dist/cli.js --help` lists the administration commands. See the repository README, "Production".',
    '',
  ].join('\n'),
);
process.stderr.write(`release: ${out} (start with: node ${join(out, 'dist/cli.js')} start)\n`);
