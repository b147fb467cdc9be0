import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { Store } from '@svc/core/store-kit';
import { acquireDataDirLock } from './data-dir-lock.js';
import { driverOf } from './store-status.js';

/** Where PGlite keeps its cluster inside the data directory (as in pglite-driver.ts). */
const CLUSTER_DIR = 'pg';

/**
 * A backup of an embedded (PGlite) store: the whole database as a gzipped tarball, taken between transactions, so
 * it is safe while the store serves. For PostgreSQL use pg_dump.
 */
export async function backupPgliteStore(store: Store): Promise<Uint8Array> {
  const dump = driverOf(store)?.dump;
  if (!dump) throw new TypeError('backupPgliteStore() takes a store created by createPgliteStore (for PostgreSQL use pg_dump)');
  return dump();
}

/**
 * Replaces the database in `dataDir` with a backup made by `backupPgliteStore`. Takes the data directory's lock,
 * so it refuses (DataDirInUseError) while a server holds it. The archive is loaded and checked in a scratch
 * directory first; only then is the current database moved aside (kept, never deleted) and the restored one put in
 * its place. Resolves with where the previous database now is, or null when there was none.
 */
export async function restorePgliteDataDir(dataDir: string, archive: Uint8Array): Promise<{ previous: string | null }> {
  assertBackupArchive(archive);
  const dir = resolve(dataDir);
  await mkdir(dir, { recursive: true });
  const lock = await acquireDataDirLock(dir);
  const scratch = join(dir, `restoring-${Date.now()}`);
  try {
    await mkdir(scratch);
    const { PGlite } = await import('@electric-sql/pglite');
    const blob = new Blob([new Uint8Array(archive)], { type: 'application/x-gzip' });
    let db;
    try {
      db = await PGlite.create({ dataDir: join(scratch, CLUSTER_DIR), loadDataDir: blob });
    } catch (error) {
      throw new Error(`The file is not a backup made by svc backup (${(error as Error).message}).`);
    }
    try {
      // A database of this service (migrations are applied, or a newer release's refused, when it is next opened).
      await db.query('select version from schema_migrations');
    } catch (error) {
      throw new Error(`The file is not a backup made by svc backup (${(error as Error).message}).`);
    } finally {
      await db.close();
    }
    const current = join(dir, CLUSTER_DIR);
    let previous: string | null = null;
    if (existsSync(current)) {
      previous = join(dir, `${CLUSTER_DIR}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`);
      await rename(current, previous);
    }
    await rename(join(scratch, CLUSTER_DIR), current);
    return { previous };
  } finally {
    await rm(scratch, { recursive: true, force: true });
    await lock.release();
  }
}

/** A gzipped tar, checked here: PGlite's own loader fails on anything else outside any promise, killing the process. */
function assertBackupArchive(archive: Uint8Array): void {
  let tar: Buffer;
  try {
    tar = gunzipSync(archive);
  } catch {
    throw new Error('The file is not a backup made by svc backup (not gzip data).');
  }
  if (tar.length < 512 || tar.subarray(257, 262).toString('latin1') !== 'ustar') {
    throw new Error('The file is not a backup made by svc backup (not a tar archive).');
  }
}
