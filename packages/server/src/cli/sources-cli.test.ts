import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { randomBase62 } from '@svc/core';
import { main } from '../cli.js';
import { TEST_DATABASE_URL } from '../testing/production-stores.js';
import { SLOW_PATH, startHelpCentreSite, type HelpCentreSite } from '../testing/help-centre-site.js';
import { progressLine, waitForSync } from './sources-cli.js';

/**
 * `svc kb sources …` and `svc kb upload` (DESIGN.md section 11 "Sources"), run through the CLI's `main` in this
 * process on a PostgreSQL database of its own (DATABASE_URL; opening the embedded database costs seconds a command),
 * against a help centre on loopback: with no server running, `sync --wait` reads the site itself.
 */

let dir: string;
let site: HelpCentreSite;
const saved = { ...process.env };
const database = `svc_cli_${randomBase62(8).toLowerCase()}`;

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svc-sources-cli-'));
  [site] = await Promise.all([startHelpCentreSite({ articles: 6 }), admin(`create database "${database}"`)]);
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${database}`;
  Object.assign(process.env, { DATABASE_URL: url.href, LOG_LEVEL: 'silent', SVC_SEED_DEMO: 'false', SVC_ALLOW_PRIVATE_URLS: 'true' });
});
afterAll(async () => {
  process.env = saved;
  await site?.close();
  await admin(`drop database if exists "${database}" with (force)`);
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Runs `svc …args`; resolves its exit code and what it printed on standard output and standard error. */
async function svc(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((text: unknown) => void out.push(String(text)));
  const error = vi.spyOn(console, 'error').mockImplementation((text: unknown) => void err.push(String(text)));
  const write = vi.spyOn(process.stderr, 'write').mockImplementation((text: string | Uint8Array) => (err.push(String(text)), true));
  try {
    const code = await main(args);
    return { code, stdout: out.join('\n'), stderr: err.join('') };
  } finally {
    log.mockRestore();
    error.mockRestore();
    write.mockRestore();
  }
}

async function json(args: string[]) {
  const result = await svc([...args, '--json']);
  expect(result.code, result.stderr + result.stdout).toBe(0);
  return JSON.parse(result.stdout);
}

describe('svc kb sources and svc kb upload', () => {
  it('adds a website, syncs it with --wait (a progress line a change), lists, uploads and deletes', async () => {
    await json(['migrate']);
    const account = await json(['accounts', 'create', '--name', 'Help']);
    await writeFile(join(dir, 'kb.json'), JSON.stringify({ documents: [{ title: 'Hours', content: 'Open 9-5.' }] }));
    const kb = await json(['kb', 'import', '--account', account.id, '--file', join(dir, 'kb.json')]);

    const added = await json(['kb', 'sources', 'add', kb.id, `${site.url}/`, '--max-pages', '40', '--exclude', `${site.url}${SLOW_PATH}`, '--schedule', 'weekly']);
    expect(added).toMatchObject({ id: expect.stringMatching(/^src_/), type: 'website', status: 'queued', maxPages: 40, schedule: 'weekly', exclude: [`${site.url}${SLOW_PATH}`] });

    const synced = await svc(['kb', 'sources', 'sync', kb.id, added.id, '--wait', '--json']);
    expect(synced.code, synced.stderr).toBe(0);
    const source = JSON.parse(synced.stdout);
    expect(source).toMatchObject({ id: added.id, status: 'ready' });
    expect(source.documents).toBeGreaterThanOrEqual(6);
    // Not a terminal: one line per change of the counters, the last one the settled source's.
    const lines = synced.stderr.trim().split('\n');
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(line).toMatch(/^src_\S+ (queued|syncing|ready): \d+ found, \d+ fetched, \d+ unchanged, \d+ failed, \d+ skipped$/);
    expect(lines.at(-1)).toBe(progressLine(source));

    await writeFile(join(dir, 'returns.md'), '# Returns\n\nReturn anything within 60 days.\n');
    const uploaded = await json(['kb', 'upload', kb.id, join(dir, 'returns.md')]);
    expect(uploaded).toEqual([expect.objectContaining({ type: 'file', fileName: 'returns.md', status: 'ready', documents: 1 })]);

    const listed = await svc(['kb', 'sources', 'list', kb.id]);
    expect(listed.stdout.split('\n').map((line) => line.split('  ')[1]).sort()).toEqual(['file', 'manual', 'website']);
    expect(listed.stdout).toContain(`${added.id}  website  ready`);

    expect(await json(['kb', 'sources', 'delete', kb.id, uploaded[0].id])).toEqual({ id: uploaded[0].id, deleted: true });
    const usage = await svc(['kb', 'sources', 'add', kb.id]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/<url> is required/);
  }, 60_000);
});

describe('the --wait progress line', () => {
  const source = (status: string, fetched: number) => ({
    id: 'src_1',
    status,
    documents: fetched,
    lastSync: null,
    failedPages: status === 'ready' ? [{ url: 'https://help.example/broken', status: 500, reason: 'the server answered 500' }] : [],
    progress: { found: 3, fetched, unchanged: 0, failed: 0, skipped: 0 },
  });

  it('is rewritten in place on a terminal, and names the failed pages at the end', async () => {
    const answers = [source('queued', 0), source('syncing', 1), source('syncing', 1), source('ready', 3)];
    const written: string[] = [];
    const result = await waitForSync({
      run: async () => ({ json: answers.shift(), text: '' }),
      values: { args: ['kb_1', 'src_1'] },
      out: { write: (text: string) => written.push(text), isTTY: true },
      intervalMs: 1,
    });
    // The same counters twice make no second line; each line starts by clearing the one before.
    expect(written).toEqual([
      '\r\u001b[2Ksrc_1 queued: 3 found, 0 fetched, 0 unchanged, 0 failed, 0 skipped',
      '\r\u001b[2Ksrc_1 syncing: 3 found, 1 fetched, 0 unchanged, 0 failed, 0 skipped',
      '\r\u001b[2Ksrc_1 ready: 3 found, 3 fetched, 0 unchanged, 0 failed, 0 skipped',
      '\n',
    ]);
    expect(result.text).toBe('src_1 ready: 3 documents.\nPages that could not be read:\n  https://help.example/broken: 500 the server answered 500');
  });
});
