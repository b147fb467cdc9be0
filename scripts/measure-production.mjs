#!/usr/bin/env node
/**
 * Figures for the production runtime (issue 11), on the release directory run with plain `node`:
 *
 *   node scripts/release.mjs && SVC_TEST_DATABASE_URL=postgres://… node scripts/measure-production.mjs [--out release/server]
 *
 * For PGlite and for PostgreSQL (a fresh database created on SVC_TEST_DATABASE_URL's server, dropped afterwards):
 * time from `node` start to /readyz 200, idle RSS 5 s after ready, bytes on the wire for /openapi.json and
 * /widget.js (plain and with Accept-Encoding: br, gzip), and shutdown time after SIGTERM with 50 requests in flight.
 * Loopback only, bounded.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { out: { type: 'string' } } });
const out = values.out ? resolve(values.out) : join(root, 'release/server');
const cli = join(out, 'dist/cli.js');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function http(url, path, { method = 'GET', headers = {}, body } = {}) {
  return new Promise((resolvePromise, reject) => {
    const req = request(new URL(path, url), { method, headers, agent: false }, (res) => {
      let bytes = 0;
      const chunks = [];
      res.on('data', (c) => ((bytes += c.length), chunks.push(c)));
      res.on('end', () => resolvePromise({ status: res.statusCode, headers: res.headers, bytes, text: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    if (body !== undefined) req.end(body);
    else req.end();
  });
}

function rssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024);
}

async function measure(label, env) {
  const started = performance.now();
  const child = spawn(process.execPath, [cli, 'start'], { cwd: out, env: { ...process.env, PORT: '0', LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  const url = await new Promise((res, rej) => {
    child.stderr.on('data', (c) => {
      stderr += c;
      const m = /listening on (http:\/\/\S+)/.exec(stderr);
      if (m) res(m[1]);
    });
    child.once('exit', (code) => rej(new Error(`exited ${code}: ${stderr}`)));
  });
  while ((await http(url, '/readyz')).status !== 200) await sleep(5);
  const readyMs = Math.round(performance.now() - started);
  await sleep(5_000);
  const rss = rssMb(child.pid);
  const wire = {};
  for (const path of ['/openapi.json', '/widget.js']) {
    wire[path] = {
      plain: (await http(url, path)).bytes,
      br: (await http(url, path, { headers: { 'Accept-Encoding': 'br' } })).bytes,
      gzip: (await http(url, path, { headers: { 'Accept-Encoding': 'gzip' } })).bytes,
    };
  }
  // A key to make real requests: through the CLI (forwarded to the server when PGlite is held by it).
  const json = (...args) => JSON.parse(execFileSync(process.execPath, [cli, ...args, '--json'], { cwd: out, env: { ...process.env, ...env, LOG_LEVEL: 'silent' }, encoding: 'utf8' }));
  const account = json('accounts', 'create', '--name', 'Measure');
  const widget = json('widgets', 'create', '--account', account.id, '--name', 'Measure');
  const { key } = json('keys', 'create', '--account', account.id, '--scopes', 'conversations:chat');
  // 50 requests in flight: headers sent, bodies sent after the signal.
  const held = Array.from({ length: 50 }, (_, i) => {
    const body = JSON.stringify({ visitorId: `m-${i}` });
    let send;
    const reply = new Promise((res, rej) => {
      const req = request(new URL(`/widgets/${widget.id}/conversations`, url), { method: 'POST', agent: false, headers: { 'X-API-Key': key, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) } }, (r) => {
        r.resume();
        r.on('end', () => res(r.statusCode));
      });
      req.on('error', rej);
      req.flushHeaders();
      send = () => req.end(body);
    });
    return { reply, send: () => send() };
  });
  await sleep(500);
  const exit = new Promise((res) => child.once('exit', (code) => res(code)));
  const signalled = performance.now();
  child.kill('SIGTERM');
  await sleep(50);
  held.forEach((h) => h.send());
  const statuses = await Promise.all(held.map((h) => h.reply.catch(() => 'error')));
  const code = await exit;
  const shutdownMs = Math.round(performance.now() - signalled);
  const failed = statuses.filter((s) => s !== 201).length;
  console.log(JSON.stringify({ store: label, readyMs, idleRssMb: rss, wire, shutdown: { inFlight: 50, failed, exitCode: code, ms: shutdownMs } }));
}

const data = mkdtempSync(join(tmpdir(), 'svc-measure-'));
try {
  await measure('pglite', { SVC_DATA_DIR: join(data, 'db'), DATABASE_URL: '' });
  const base = process.env.SVC_TEST_DATABASE_URL;
  if (base) {
    const name = `svc_measure_${Date.now().toString(36)}`;
    const psql = (sql) => execFileSync('psql', [base, '-v', 'ON_ERROR_STOP=1', '-qc', sql]);
    psql(`create database ${name}`);
    try {
      const url = new URL(base);
      url.pathname = `/${name}`;
      await measure('postgresql', { DATABASE_URL: url.href });
    } finally {
      psql(`drop database if exists ${name} with (force)`);
    }
  } else console.log('SVC_TEST_DATABASE_URL is not set: PostgreSQL skipped.');
} finally {
  rmSync(data, { recursive: true, force: true });
}
