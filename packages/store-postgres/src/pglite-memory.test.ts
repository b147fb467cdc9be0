import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

/** In a process of its own (this one's memory is the test runner's): open a store on a new data directory, idle, report RSS. */
const SCRIPT = `
import { createPgliteStore } from '@svc/store-postgres';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
const dir = mkdtempSync(join(tmpdir(), 'svc-rss-'));
const store = await createPgliteStore({ dataDir: join(dir, 'data') });
await new Promise((resolve) => setTimeout(resolve, 2000));
// What a long-idle process settles at: garbage (such as a closed WebAssembly instance) collected.
globalThis.gc();
await new Promise((resolve) => setTimeout(resolve, 500));
const rss = process.memoryUsage().rss;
await store.close();
rmSync(dir, { recursive: true, force: true });
console.log(JSON.stringify({ rss }));
`;

describe("the embedded database's memory", () => {
  it("a first start on a new data directory idles well under the 845 MB it took (regression: initdb's WebAssembly memory kept, 128 MB shared buffers)", () => {
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
    // In the package's directory, so that `@svc/store-postgres` resolves to this package.
    const probe = join(fileURLToPath(new URL('..', import.meta.url)), `.rss-probe-${process.pid}.mjs`);
    writeFileSync(probe, SCRIPT);
    const run = spawnSync(process.execPath, ['--expose-gc', '--conditions=@svc/source', '--import', tsx, probe], { encoding: 'utf8', timeout: 120_000 });
    rmSync(probe, { force: true });
    expect(run.status, run.stderr).toBe(0);
    const { rss } = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { rss: number };
    // Measured on this machine: 845-870 MB before, 356-366 MB after (the store alone, in a Node process of its own).
    expect(rss / 1e6).toBeLessThan(600);
  }, 150_000);
});
