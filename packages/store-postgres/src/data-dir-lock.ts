import { randomUUID } from 'node:crypto';
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/**
 * PGlite is one PostgreSQL inside one process: two processes opening the same directory would each think they own
 * it and corrupt it. A lock file holding the owner's pid keeps the second one out with an explanation.
 */

export const LOCK_FILE_NAME = 'svc.lock';

export class DataDirInUseError extends Error {
  override readonly name = 'DataDirInUseError';
  readonly reason = 'data_dir_in_use';
  readonly dataDir: string;
  readonly pid: number;
  readonly lockFile: string;

  constructor(dataDir: string, pid: number, lockFile: string) {
    super(
      `The data directory ${dataDir} is in use by process ${pid}. Stop that server first, or set DATABASE_URL to a ` +
        `PostgreSQL database to run several processes. If no such process is running, delete ${lockFile}.`,
    );
    this.dataDir = dataDir;
    this.pid = pid;
    this.lockFile = lockFile;
  }
}

export interface DataDirLock {
  readonly lockFile: string;
  /** Removes the lock file if it is still ours. Safe to call twice. */
  release(): Promise<void>;
}

/**
 * Lock files this process holds. A lock naming our own pid that is not in here is stale: a container restarted
 * and its server got the same pid (often 1) as the one that died holding the lock.
 */
const heldHere = new Set<string>();

/**
 * Takes `<dataDir>/svc.lock`, creating the directory if needed. A lock left by a process that no longer runs is
 * taken over; one held by a live process (this one included) throws {@link DataDirInUseError}.
 */
export async function acquireDataDirLock(dataDir: string): Promise<DataDirLock> {
  const directory = resolve(dataDir);
  await mkdir(directory, { recursive: true });
  const lockFile = join(directory, LOCK_FILE_NAME);

  for (let attempt = 0; attempt < 3; attempt++) {
    if (await createExclusively(lockFile, `${process.pid}\n`)) {
      heldHere.add(lockFile);
      return { lockFile, release: () => release(lockFile) };
    }
    const holder = await readHolder(lockFile);
    if (holder !== null && isAlive(holder, lockFile)) throw new DataDirInUseError(directory, holder, lockFile);
    await rm(lockFile, { force: true });
  }
  throw new Error(`Could not take the lock file ${lockFile}: other processes keep replacing it`);
}

/**
 * Creates `file` with `content` only if it does not exist. The content is written to a private file first and then
 * hard-linked into place, so nobody can ever read the lock half-written and mistake it for a stale one.
 */
async function createExclusively(file: string, content: string): Promise<boolean> {
  const draft = `${file}.${process.pid}.${randomUUID()}`;
  await writeFile(draft, content, { flag: 'wx' });
  try {
    await link(draft, file);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== undefined && NO_HARD_LINKS.has(code)) return createWithoutLink(file, content);
    throw error;
  } finally {
    await rm(draft, { force: true });
  }
}

/** Errors of file systems without hard links (some network and container volumes). */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'ENOSYS', 'EOPNOTSUPP']);

/** Exclusive create in one step where linking is impossible; the write that follows is a few bytes. */
async function createWithoutLink(file: string, content: string): Promise<boolean> {
  try {
    await writeFile(file, content, { flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

async function readHolder(lockFile: string): Promise<number | null> {
  try {
    const pid = Number.parseInt(await readFile(lockFile, 'utf8'), 10);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

function isAlive(pid: number, lockFile: string): boolean {
  if (pid === process.pid) return heldHere.has(lockFile);
  try {
    // Signal 0 checks existence without touching the process.
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user, so it is alive.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function release(lockFile: string): Promise<void> {
  if (!heldHere.delete(lockFile)) return;
  if ((await readHolder(lockFile)) === process.pid) await rm(lockFile, { force: true });
}
