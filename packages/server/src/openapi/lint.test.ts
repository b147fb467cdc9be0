import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from './document.js';

/**
 * Issue 10, defect 9: the document failed Redocly's lint (no `servers`) and drifted from the routes. It is
 * linted here by both common linters, as published: anything they report fails the test. Accepted exceptions
 * live, each with its reason, in ./lint/.
 */

const run = promisify(execFile);
const bin = (name: string) => fileURLToPath(new URL(`../../node_modules/.bin/${name}`, import.meta.url));
const configs = fileURLToPath(new URL('./lint/', import.meta.url));

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svc-openapi-lint-'));
  await writeFile(join(dir, 'openapi.json'), JSON.stringify(buildOpenApiDocument(), null, 2));
  for (const file of ['redocly.yaml', '.redocly.lint-ignore.yaml', '.spectral.yaml']) await copyFile(join(configs, file), join(dir, file));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the OpenAPI document under lint', () => {
  it('is clean under Redocly CLI (recommended rules)', async () => {
    const { stdout } = await run(bin('redocly'), ['lint', 'openapi.json', '--config', 'redocly.yaml', '--format', 'json'], {
      cwd: dir,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    });
    const report = JSON.parse(stdout.slice(stdout.indexOf('{'))) as { totals: { errors: number; warnings: number }; problems: unknown[] };
    expect(report.problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 60_000);

  it('is clean under Spectral (spectral:oas)', async () => {
    const args = ['lint', 'openapi.json', '--ruleset', '.spectral.yaml', '--format', 'json', '--output', 'spectral.json', '--fail-severity', 'hint'];
    // A non-zero exit is what a problem looks like; the report says which.
    await run(bin('spectral'), args, { cwd: dir }).catch(() => undefined);
    expect(JSON.parse(await readFile(join(dir, 'spectral.json'), 'utf8'))).toEqual([]);
  }, 60_000);
});
