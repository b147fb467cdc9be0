import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../testing/processes.js';
import { SLOW_PATH, startHelpCentreSite, type HelpCentreSite } from '../testing/help-centre-site.js';
import { progressLine } from './sources-cli.js';

describe('svc kb sources and svc kb upload (DESIGN.md section 11 "Sources")', () => {
  let dir: string | undefined;
  let site: HelpCentreSite;
  beforeAll(async () => {
    site = await startHelpCentreSite({ articles: 6 });
  });
  afterAll(async () => {
    await site?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('adds a website, syncs it with --wait (the CLI reads the site itself, a progress line a change), lists, uploads and deletes', async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-sources-cli-'));
    const env = { SVC_DATA_DIR: join(dir, 'data'), LOG_LEVEL: 'silent', SVC_SEED_DEMO: 'false', SVC_ALLOW_PRIVATE_URLS: 'true' };
    const json = async (args: string[]) => {
      const result = await runCli([...args, '--json'], env);
      expect(result.code, result.stderr + result.stdout).toBe(0);
      return JSON.parse(result.stdout);
    };
    const account = await json(['accounts', 'create', '--name', 'Help']);
    await writeFile(join(dir, 'kb.json'), JSON.stringify({ documents: [{ title: 'Hours', content: 'Open 9-5.' }] }));
    const kb = await json(['kb', 'import', '--account', account.id, '--file', join(dir, 'kb.json')]);

    const added = await json(['kb', 'sources', 'add', kb.id, `${site.url}/`, '--max-pages', '40', '--exclude', `${site.url}${SLOW_PATH}`, '--schedule', 'weekly']);
    expect(added).toMatchObject({ id: expect.stringMatching(/^src_/), type: 'website', status: 'queued', maxPages: 40, schedule: 'weekly', exclude: [`${site.url}${SLOW_PATH}`] });

    const synced = await runCli(['kb', 'sources', 'sync', kb.id, added.id, '--wait', '--json'], env);
    expect(synced.code, synced.stderr).toBe(0);
    const source = JSON.parse(synced.stdout);
    expect(source).toMatchObject({ id: added.id, status: 'ready' });
    expect(source.documents).toBeGreaterThanOrEqual(6);
    // Not a terminal: one line per change of the counters, the last one the settled source's.
    const lines = synced.stderr.trim().split('\n');
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.every((line) => /^src_\S+ (queued|syncing|ready): \d+ found, \d+ fetched, \d+ unchanged, \d+ failed, \d+ skipped$/.test(line))).toBe(true);
    expect(lines.at(-1)).toBe(progressLine(source));

    await writeFile(join(dir, 'returns.md'), '# Returns\n\nReturn anything within 60 days.\n');
    const uploaded = await json(['kb', 'upload', kb.id, join(dir, 'returns.md')]);
    expect(uploaded).toEqual([expect.objectContaining({ type: 'file', fileName: 'returns.md', status: 'ready', documents: 1 })]);

    const listed = await json(['kb', 'sources', 'list', kb.id]);
    expect(listed.map((s: { type: string }) => s.type).sort()).toEqual(['file', 'manual', 'website']);

    expect(await json(['kb', 'sources', 'delete', kb.id, uploaded[0].id])).toEqual({ id: uploaded[0].id, deleted: true });
    const missing = await runCli(['kb', 'sources', 'delete', kb.id, uploaded[0].id, '--json'], env);
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stdout).error.code).toBe('source_not_found');
    const usage = await runCli(['kb', 'sources', 'add', kb.id], env);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/<url> is required/);
  }, 120_000);
});
