// What `npm start` and `npm test` need on the machine, each step a quick check first and an install only when
// something is missing (README "Run it, test it"). Plain Node with no dependencies: it runs before `pnpm install`.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export const root = new URL('..', import.meta.url).pathname;
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

export class SetupError extends Error {
  name = 'SetupError';
}

const log = (message) => console.error(`[setup] ${message}`);

/** Runs a command; `capture` returns its trimmed stdout (or null when it fails or is missing). */
function run(command, args, { capture = false, env = process.env, quiet = false } = {}) {
  const result = spawnSync(command, args, {
    cwd: root,
    env,
    encoding: 'utf8',
    stdio: capture ? ['ignore', 'pipe', 'pipe'] : ['ignore', quiet ? 'ignore' : 'inherit', 'inherit'],
  });
  if (capture) return result.status === 0 ? result.stdout.trim() : null;
  return result.status === 0;
}

const has = (command) => run('sh', ['-c', `command -v ${command}`], { capture: true }) !== null;

/** The pnpm version pinned in package.json's `packageManager`. */
export function pinnedPnpm() {
  const { packageManager } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  return packageManager.split('@')[1];
}

/**
 * pnpm at the pinned version on PATH, installed with npm when missing (corepack is not used: it cannot verify pnpm
 * on machines without access to its signing keys). Returns the environment later steps run with, whose PATH
 * includes npm's global bin even when the user's PATH does not.
 */
export function ensurePnpm(env = process.env) {
  const version = pinnedPnpm();
  if (run('pnpm', ['--version'], { capture: true, env }) === version) return env;
  // npm's global bin may hold it already without being on PATH (an earlier run of this script installed it there).
  const prefix = run('npm', ['prefix', '--global'], { capture: true, env });
  const bin = process.platform === 'win32' ? prefix : join(prefix, 'bin');
  const withPnpm = { ...env, PATH: `${bin}${delimiter}${env.PATH ?? ''}` };
  if (run('pnpm', ['--version'], { capture: true, env: withPnpm }) === version) return withPnpm;
  log(`installing pnpm ${version} with npm`);
  if (!run('npm', ['install', '--global', '--no-fund', '--no-audit', `pnpm@${version}`], { env, quiet: true })) {
    throw new SetupError(`npm could not install pnpm@${version}; install it yourself: npm install -g pnpm@${version}`);
  }
  if (run('pnpm', ['--version'], { capture: true, env: withPnpm }) !== version) {
    throw new SetupError(`pnpm ${version} was installed in ${bin} but does not run from there; add that folder to PATH`);
  }
  return withPnpm;
}

const lockDigest = (path) => (existsSync(path) ? createHash('sha256').update(readFileSync(path)).digest('hex') : null);

/** `pnpm install` when node_modules is missing or was installed from another lockfile. */
export function ensureDependencies(env) {
  const wanted = lockDigest(join(root, 'pnpm-lock.yaml'));
  // pnpm keeps a copy of the lockfile it installed from; equal copies mean node_modules is current.
  if (wanted !== null && lockDigest(join(root, 'node_modules', '.pnpm', 'lock.yaml')) === wanted) return;
  log('installing dependencies (pnpm install)');
  if (!run('pnpm', ['install', '--frozen-lockfile', '--reporter=default'], { env })) {
    throw new SetupError('pnpm install failed (see above)');
  }
}

const apt = (packages) => {
  log(`installing ${packages.join(' ')} from Debian's packages`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (!run('apt-get', ['update', '-qq'], { env, quiet: true }) || !run('apt-get', ['install', '-y', '-qq', ...packages], { env, quiet: true })) {
    throw new SetupError(`apt-get could not install ${packages.join(' ')}`);
  }
};

/** Debian's Chromium for the browser tests (a browser download of playwright's own is not possible here). */
export function ensureChromium() {
  if (existsSync('/usr/bin/chromium')) return;
  if (!isRoot || !has('apt-get')) {
    throw new SetupError('the browser tests need Chromium at /usr/bin/chromium: install the Debian packages chromium and chromium-driver (sudo apt-get install chromium chromium-driver)');
  }
  apt(['chromium', 'chromium-driver']);
}

/**
 * Debian's PgBouncer (the tests run the service behind it in transaction pooling mode) and Prometheus's promtool
 * (the tests check `/metrics` with `promtool check metrics`, as a monitoring setup would).
 */
export function ensureServerTools() {
  const missing = [
    ['/usr/sbin/pgbouncer', 'pgbouncer'],
    ['/usr/bin/promtool', 'prometheus'],
  ].filter(([path]) => !existsSync(path));
  if (missing.length === 0) return;
  const packages = missing.map(([, name]) => name);
  if (!isRoot || !has('apt-get')) {
    throw new SetupError(`the tests need ${missing.map(([path]) => path).join(' and ')}: install the Debian packages ${packages.join(' ')} (sudo apt-get install ${packages.join(' ')})`);
  }
  apt(packages);
}

const pgReady = (url) => run('pg_isready', ['-q', '-d', url], { capture: true }) !== null;

/**
 * A PostgreSQL answering `url`: started when it is installed but down; installed (with trust authentication on
 * loopback, like a development machine) only when running as root on a machine with apt.
 */
export function ensurePostgres(url) {
  if (has('pg_isready') && pgReady(url)) return;
  if (!has('pg_ctlcluster')) {
    if (!isRoot || !has('apt-get')) {
      throw new SetupError(`the tests need PostgreSQL at ${url}: install it (sudo apt-get install postgresql) or set SVC_TEST_DATABASE_URL`);
    }
    apt(['postgresql']);
    // A fresh Debian cluster asks passwords over TCP; the tests connect as postgres, like a development machine.
    const hba = run('sh', ['-c', 'ls /etc/postgresql/*/main/pg_hba.conf | head -n 1'], { capture: true });
    run('sed', ['-i', '-E', 's/^(host\\s+all\\s+all\\s+(127\\.0\\.0\\.1\\/32|::1\\/128)\\s+)\\S+/\\1trust/', hba]);
  }
  const version = run('sh', ['-c', 'ls /etc/postgresql | sort -n | tail -n 1'], { capture: true });
  log(`starting PostgreSQL ${version}`);
  run('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'start'], { quiet: true });
  for (let i = 0; i < 30 && !pgReady(url); i++) spawnSync('sleep', ['1']);
  if (!pgReady(url)) throw new SetupError(`PostgreSQL did not come up at ${url}; start it, or set SVC_TEST_DATABASE_URL`);
}

/**
 * The database the tests use. Without SVC_TEST_DATABASE_URL it is `svc_test` on the local server, recreated empty
 * for every run so no earlier run's schemas pile up; a database you name yourself is used as it is.
 */
export function testDatabase(env) {
  if (env.SVC_TEST_DATABASE_URL) {
    ensurePostgres(env.SVC_TEST_DATABASE_URL);
    return env.SVC_TEST_DATABASE_URL;
  }
  const server = 'postgres://postgres@127.0.0.1:5432/postgres';
  ensurePostgres(server);
  const fresh = run('psql', ['-d', server, '-v', 'ON_ERROR_STOP=1', '-q', '-c', 'DROP DATABASE IF EXISTS svc_test WITH (FORCE)', '-c', 'CREATE DATABASE svc_test'], {
    capture: true,
  });
  if (fresh === null) throw new SetupError(`could not create the database svc_test as postgres on ${server}; set SVC_TEST_DATABASE_URL to one you can use`);
  return 'postgres://postgres@127.0.0.1:5432/svc_test';
}
