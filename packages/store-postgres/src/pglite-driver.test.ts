import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPgliteDriver } from './pglite-driver.js';
import type { SqlDriver } from './sql-driver.js';

let driver: SqlDriver;

beforeAll(async () => {
  driver = await openPgliteDriver();
  await driver.exec('create table items (id integer primary key, name text not null)');
}, 60_000);
afterAll(async () => {
  await driver.close();
});

describe('the PGlite driver (the database on a thread of its own)', () => {
  it('PGlite statements stopped the event loop: a long statement now runs while timers and requests go on', async () => {
    // About half a second of work for the database; the same statement on the main thread stalled the loop for
    // all of it, so every request, streamed delta and timer of the server waited.
    const lag = monitorEventLoopDelay({ resolution: 10 });
    lag.enable();
    const started = performance.now();
    let ticks = 0;
    const ticking = setInterval(() => ticks++, 10);
    const [row] = await driver.query<{ total: string }>('select sum(g)::text as total from generate_series(1, 6000000) g');
    const took = performance.now() - started;
    clearInterval(ticking);
    lag.disable();

    expect(row?.total).toBe('18000003000000');
    expect(took).toBeGreaterThan(150);
    // The loop stayed free: the 10 ms timer kept firing, and no callback waited anywhere near the statement's time.
    expect(ticks).toBeGreaterThan(took / 10 / 3);
    expect(lag.max / 1e6).toBeLessThan(took / 2);
  });

  it("keeps the database's error fields (SQLSTATE, constraint) across the thread", async () => {
    await driver.query('insert into items (id, name) values ($1, $2)', [1, 'first']);
    const error = await driver.query('insert into items (id, name) values ($1, $2)', [1, 'again']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ code: '23505', message: expect.stringMatching(/duplicate key/) });
  });

  it('passes parameters and rows of every kind the store uses (dates, JSON, nulls, numbers) unchanged', async () => {
    const at = new Date('2026-11-24T10:00:00.123Z');
    const [row] = await driver.query<{ at: Date; doc: unknown; none: null; n: number }>(
      'select $1::timestamptz as at, $2::jsonb as doc, $3::text as none, $4::double precision as n',
      [at, JSON.stringify({ a: [1, 'two'] }), null, 12.5],
    );
    expect(row).toEqual({ at, doc: { a: [1, 'two'] }, none: null, n: 12.5 });
  });

  it('commits a transaction, rolls one back when its function throws, and keeps other statements out while one is open', async () => {
    await driver.transaction(async (tx) => {
      await tx.query('insert into items (id, name) values ($1, $2)', [10, 'committed']);
    });
    await expect(
      driver.transaction(async (tx) => {
        await tx.query('insert into items (id, name) values ($1, $2)', [11, 'rolled back']);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');

    // A statement sent while a transaction is open waits for it, so it never sees a half-done write.
    let release = (): void => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const open = driver.transaction(async (tx) => {
      await tx.query('insert into items (id, name) values ($1, $2)', [12, 'inside']);
      await gate;
      await tx.query('update items set name = $2 where id = $1', [12, 'finished']);
    });
    const outside = driver.query<{ name: string }>('select name from items where id = 12');
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    await open;
    expect(await outside).toEqual([{ name: 'finished' }]);

    const names = await driver.query<{ id: number }>('select id from items where id >= 10 order by id');
    expect(names.map((row) => row.id)).toEqual([10, 12]);
  });

  it('PGlite parsed and planned every statement anew: a statement is now prepared once by its text and run again by name', async () => {
    const text = 'select name from items where id = $1 and name <> $2';
    for (let i = 0; i < 3; i++) await driver.query(text, [1, 'none']);
    await driver.transaction(async (tx) => {
      await tx.query(text, [1, 'none']);
    });
    const prepared = await driver.query<{ count: number }>('select count(*)::int as count from pg_prepared_statements where statement = $1', [text]);
    expect(prepared).toEqual([{ count: 1 }]);
    // Still answers for the values it is given, not the first ones.
    expect(await driver.query(text, [10, 'none'])).toEqual([{ name: 'committed' }]);
  });

  it('a statement prepared before a migration changed its table reads the table as it is now', async () => {
    await driver.exec('create table widened (id integer primary key)');
    await driver.query('insert into widened (id) values ($1)', [1]);
    expect(await driver.query('select * from widened where id = $1', [1])).toEqual([{ id: 1 }]);
    await driver.exec("alter table widened add column label text not null default 'new'");
    expect(await driver.query('select * from widened where id = $1', [1])).toEqual([{ id: 1, label: 'new' }]);
    // A schema change sent as a statement rather than through exec: the stale statement is prepared again.
    await driver.query('alter table widened add column other integer');
    expect(await driver.query('select * from widened where id = $1', [1])).toEqual([{ id: 1, label: 'new', other: null }]);
    await driver.transaction(async (tx) => {
      await tx.exec('alter table widened add column extra integer');
      expect(await tx.query('select * from widened where id = $1', [1])).toEqual([{ id: 1, label: 'new', other: null, extra: null }]);
    });
  });

  it('after a failed statement, in a transaction or not, the next statements run (the failed one included)', async () => {
    const insert = 'insert into items (id, name) values ($1, $2)';
    await expect(driver.query(insert, [1, 'duplicate'])).rejects.toMatchObject({ code: '23505' });
    await driver.query(insert, [20, 'after the failure']);
    await expect(driver.query('select no_such_column from items where id = $1', [1])).rejects.toMatchObject({ code: '42703' });
    await expect(
      driver.transaction(async (tx) => {
        await tx.query(insert, [21, 'rolled back with the transaction']);
        await tx.query(insert, [1, 'duplicate']);
      }),
    ).rejects.toMatchObject({ code: '23505' });
    const rows = await driver.query<{ id: number }>('select id from items where id >= $1 order by id', [20]);
    expect(rows.map((row) => row.id)).toEqual([20]);
  });

  it('statements whose texts differ beyond the prepared limit still run, unprepared', async () => {
    const other = await openPgliteDriver();
    try {
      // Texts that embed a value (the store never writes those, but a caller could) must not grow the cache forever.
      for (let i = 0; i < 520; i++) expect(await other.query(`select ${i} + $1::int as n`, [1])).toEqual([{ n: i + 1 }]);
      const [row] = await other.query<{ count: number }>('select count(*)::int as count from pg_prepared_statements');
      expect(row!.count).toBeLessThanOrEqual(500);
    } finally {
      await other.close();
    }
  }, 60_000);

  it('answers with an error, not silence, once closed', async () => {
    const other = await openPgliteDriver();
    await other.close();
    await expect(other.query('select 1')).rejects.toThrow(/PGlite thread stopped/);
  }, 60_000);
});
