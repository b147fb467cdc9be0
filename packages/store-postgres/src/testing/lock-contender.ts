/**
 * Child process of postgres-store.test.ts: a second OS process contending for the same named lock.
 *
 *   tsx lock-contender.ts <connectionString> <schema> <lockName> <iterations> <holdMs>
 *
 * Prints `ready` once its store is open, waits for a line on stdin so both processes start together, runs its
 * iterations of the probe's critical section under `withLock`, then exits.
 */
import { once } from 'node:events';
import pg from 'pg';
import { createPostgresStore } from '../postgres-store.js';
import { unsafeIncrement } from './lock-probe.js';

const [connectionString, schema, lockName, iterations, holdMs] = process.argv.slice(2);
if (!connectionString || !schema || !lockName || !iterations || !holdMs) {
  throw new Error('usage: lock-contender <connectionString> <schema> <lockName> <iterations> <holdMs>');
}

const store = await createPostgresStore({ connectionString, schema, max: 2 });
const probe = new pg.Pool({ connectionString, max: 1, options: `-c search_path=${schema}` });
try {
  process.stdout.write('ready\n');
  await once(process.stdin, 'data');
  for (let i = 0; i < Number(iterations); i++) {
    await store.withLock(lockName, () => unsafeIncrement(probe, 'child', Number(holdMs)));
  }
} finally {
  await Promise.all([store.close(), probe.end()]);
  process.stdin.destroy();
}
