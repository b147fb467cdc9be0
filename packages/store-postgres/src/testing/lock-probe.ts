import type pg from 'pg';

/**
 * A deliberately unsafe critical section for the cross-process lock tests: it reads a counter, waits, then writes
 * it back plus one, and records when it ran. Without mutual exclusion increments get lost and intervals overlap.
 */
export const LOCK_PROBE_SCHEMA_SQL = `
  create table lock_probe_counter (value integer not null);
  insert into lock_probe_counter values (0);
  create table lock_probe_intervals (owner text not null, started_at timestamptz not null, ended_at timestamptz not null);
`;

export async function unsafeIncrement(db: pg.Pool, owner: string, holdMs: number): Promise<void> {
  const started = await db.query<{ now: Date; value: number }>('select clock_timestamp() as now, value from lock_probe_counter');
  const row = started.rows[0];
  if (!row) throw new Error('lock_probe_counter is empty');
  await new Promise((resolve) => setTimeout(resolve, holdMs));
  await db.query('update lock_probe_counter set value = $1', [row.value + 1]);
  await db.query('insert into lock_probe_intervals (owner, started_at, ended_at) values ($1, $2, clock_timestamp())', [owner, row.now]);
}
