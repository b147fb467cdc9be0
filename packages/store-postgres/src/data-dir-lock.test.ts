import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataDirInUseError, LOCK_FILE_NAME, acquireDataDirLock } from './data-dir-lock.js';

let dataDir = '';
const lockFile = (): string => join(dataDir, LOCK_FILE_NAME);

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'svc-lock-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

/** The pid of a process that has exited: a lock naming it is stale. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await once(child, 'exit');
  if (child.pid === undefined) throw new Error('no pid');
  return child.pid;
}

describe('acquireDataDirLock', () => {
  it('writes our pid to <dataDir>/svc.lock and removes it on release', async () => {
    const lock = await acquireDataDirLock(join(dataDir, 'created-on-demand'));
    expect(await readFile(lock.lockFile, 'utf8')).toBe(`${process.pid}\n`);
    await lock.release();
    await expect(readFile(lock.lockFile, 'utf8')).rejects.toThrow(/ENOENT/);
    await lock.release();
  });

  it('refuses a second holder while the first is open, naming the pid and the way out', async () => {
    const lock = await acquireDataDirLock(dataDir);
    const refusal = acquireDataDirLock(dataDir);
    await expect(refusal).rejects.toBeInstanceOf(DataDirInUseError);
    await expect(refusal).rejects.toThrow(`is in use by process ${process.pid}`);
    await expect(refusal).rejects.toThrow(/DATABASE_URL/);
    await lock.release();
    await (await acquireDataDirLock(dataDir)).release();
  });

  it('refuses a directory held by another live process', async () => {
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      await writeFile(lockFile(), `${other.pid}\n`);
      const error = await acquireDataDirLock(dataDir).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(DataDirInUseError);
      expect((error as DataDirInUseError).pid).toBe(other.pid);
      expect((error as DataDirInUseError).reason).toBe('data_dir_in_use');
    } finally {
      other.kill();
    }
  });

  it('takes over the lock of a process that died without releasing it', async () => {
    await writeFile(lockFile(), `${await deadPid()}\n`);
    const lock = await acquireDataDirLock(dataDir);
    expect(await readFile(lockFile(), 'utf8')).toBe(`${process.pid}\n`);
    await lock.release();
  });

  it('takes over a lock naming our own pid that this process does not hold (pid reused after a restart)', async () => {
    await writeFile(lockFile(), `${process.pid}\n`);
    const lock = await acquireDataDirLock(dataDir);
    await lock.release();
  });

  it('takes over an unreadable lock file', async () => {
    await writeFile(lockFile(), 'not a pid');
    const lock = await acquireDataDirLock(dataDir);
    expect(await readFile(lockFile(), 'utf8')).toBe(`${process.pid}\n`);
    await lock.release();
  });

  it('does not delete a lock another process took after ours was removed', async () => {
    const lock = await acquireDataDirLock(dataDir);
    await rm(lockFile());
    await writeFile(lockFile(), '4242\n');
    await lock.release();
    expect(await readFile(lockFile(), 'utf8')).toBe('4242\n');
  });
});
