// @ts-check
/**
 * The embedded database's own thread (see pglite-driver.ts for why). Plain JavaScript on purpose: it is started
 * with `new Worker(url)` from the sources (tests, `tsx`) and from `dist/` alike, and Node 20 cannot start a worker
 * from a TypeScript file. It answers the driver's messages one by one:
 *
 *   { id, op: 'open', dataDir }            → {}                          the database is ready
 *   { id, op: 'query', sql, params, tx? }  → { rows }                    one statement (inside transaction `tx`)
 *   { id, op: 'exec', sql, tx? }           → {}                          several statements, no parameters
 *   { id, op: 'begin' }                    → { tx }                      PGlite's transaction has started
 *   { id, op: 'end', tx, commit }          → {}                          committed, or rolled back
 *   { id, op: 'dump' }                     → { archive }                 a gzipped tarball of the data directory
 *   { id, op: 'close' }                    → {}
 *
 * and every failure as { id, error: { message, ...the error's own fields (code, detail, …) } }.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parentPort, Worker, workerData } from 'node:worker_threads';
import { parse as results, protocol } from '@electric-sql/pglite';

if (!parentPort) throw new Error('pglite-worker.js runs as a worker thread of the PGlite driver');
const port = parentPort;
/**
 * PostgreSQL's defaults size a server with memory to spare (128 MB of shared buffers, allocated inside PGlite's
 * WebAssembly memory up front). The embedded database is one process's, small, and mostly in the OS page cache
 * anyway: these keep the default `svc start` within a small VPS (issue: embedded default memory).
 */
const SMALL_FOOTPRINT = ['shared_buffers = 16MB', 'wal_buffers = 1MB', 'temp_buffers = 4MB', 'work_mem = 4MB', 'maintenance_work_mem = 16MB'];

if (workerData?.create) {
  // The thread that only creates a new database (see createInThreadOfItsOwn), then ends.
  const { PGlite } = await import('@electric-sql/pglite');
  const created = await PGlite.create({ dataDir: workerData.create, postgresqlconf: SMALL_FOOTPRINT });
  await created.close();
  // In a worker thread this ends the thread, not the process.
  process.exit(0);
}

/** @type {import('@electric-sql/pglite').PGlite | null} */
let db = null;
/**
 * Open transactions by id: PGlite's transaction object, how to end the callback that holds it, and the promise of
 * PGlite's COMMIT or ROLLBACK that follows.
 */
/** @type {Map<number, { tx: import('@electric-sql/pglite').Transaction, end: (commit: boolean) => void, done: Promise<unknown> }>} */
const transactions = new Map();
let nextTx = 1;
/** Thrown inside a transaction's callback to make PGlite roll it back. */
const ROLLBACK = Symbol('rollback');

/** @param {unknown} error */
function serialiseError(error) {
  if (!(error instanceof Error)) return { message: String(error) };
  // Database errors carry the SQLSTATE and details as own fields; structured cloning would keep only the message.
  return { ...Object.fromEntries(Object.entries(error).filter(([, value]) => typeof value !== 'object' || value === null)), name: error.name, message: error.message, stack: error.stack };
}

/**
 * Statements prepared once under a name, by their text. PGlite's `query` parses, analyses and plans every statement
 * anew (an unnamed statement each time): for the turn's two big statements that was half their time. Only statements
 * with parameters are prepared (schema changes have none), and their texts are the store's own (parameters carry
 * every value), so they are few; past {@link PREPARED_LIMIT} a text runs unnamed. Schema changes go through `exec`,
 * which forgets them all, so none reads a table as it was before a migration.
 * @type {Map<string, { name: string, paramTypes: number[] }>}
 */
const prepared = new Map();
const PREPARED_LIMIT = 500;
let nextStatement = 1;
/** SQLSTATE 0A000: a prepared statement's result columns changed under it (its table altered by a plain statement). */
const CACHED_PLAN_CHANGED = '0A000';

/**
 * Parses `sql` under a new name and reads its parameter types, once per text. Sync ends the cycle even when the
 * Parse fails (a syntax error), so the next statement starts clean; a failed text is not kept.
 * @param {import('@electric-sql/pglite').PGlite} database
 * @param {string} sql
 */
async function prepare(database, sql) {
  const name = `svc_${nextStatement++}`;
  let paramTypes;
  try {
    await database.execProtocolStream(protocol.serialize.parse({ name, text: sql }), { syncToFs: false });
    paramTypes = results.parseDescribeStatementResults(
      await database.execProtocolStream(protocol.serialize.describe({ type: 'S', name }), { syncToFs: false }),
    );
  } finally {
    await database.execProtocolStream(protocol.serialize.sync(), { syncToFs: false });
  }
  const statement = { name, paramTypes };
  prepared.set(sql, statement);
  return statement;
}

/**
 * One statement through its named prepared statement: Bind, Describe, Execute and Sync handed to PGlite as one
 * buffer, one call into the database where `query` makes six (Parse and a Describe of the parameters included).
 * The caller holds PGlite's statement lock.
 * @param {import('@electric-sql/pglite').PGlite} database
 * @param {string} sql
 * @param {unknown[]} params
 */
async function runPrepared(database, sql, params) {
  const statement = prepared.get(sql) ?? (await prepare(database, sql));
  const values = params.map((value, index) => {
    if (value === null || value === undefined) return null;
    const serialise = database.serializers[/** @type {number} */ (statement.paramTypes[index])];
    return serialise ? serialise(value) : String(value);
  });
  const { serialize } = protocol;
  const parts = [serialize.bind({ statement: statement.name, values }), serialize.describe({ type: 'P' }), serialize.execute({}), serialize.sync()];
  const cycle = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    cycle.set(part, offset);
    offset += part.length;
  }
  // An error skips the rest up to the Sync, which is in the same buffer: the database is ready for the next one.
  const [result] = results.parseResults(await database.execProtocolStream(cycle, { syncToFs: false }), database.parsers);
  return result?.rows ?? [];
}

/**
 * A statement with parameters, prepared once by its text. Outside a transaction it waits for any open one as
 * `query` does (PGlite's transaction lock), and writes through to the data directory after.
 * @param {number | undefined} tx
 * @param {string} sql
 * @param {unknown[]} params
 */
async function query(tx, sql, params) {
  const database = target(undefined);
  if (params.length === 0 || (!prepared.has(sql) && prepared.size >= PREPARED_LIMIT)) return (await target(tx).query(sql, params)).rows;
  const run = () => database.runExclusive(() => runPrepared(database, sql, params));
  try {
    if (tx !== undefined) {
      target(tx); // the transaction is open
      return await run();
    }
    // PGlite has no public way to wait for its transaction lock; `query` itself takes it through this method.
    return await database._runExclusiveTransaction(async () => {
      const rows = await run();
      await database.syncToFs();
      return rows;
    });
  } catch (error) {
    // Prepared before the schema changed some other way than `exec`: prepared again (once) for the tables as they are
    // now. Inside a transaction the error has ended it, so there it is the caller's.
    if (!(tx === undefined && error && /** @type {{ code?: unknown }} */ (error).code === CACHED_PLAN_CHANGED && prepared.delete(sql))) throw error;
    return query(tx, sql, params);
  }
}

/** @param {number | undefined} id */
function target(id) {
  if (id === undefined) {
    if (!db) throw new Error('The database is not open.');
    return db;
  }
  const open = transactions.get(id);
  if (!open) throw new Error(`Transaction ${id} is not open.`);
  return open.tx;
}


/** @param {string} dataDir */
function createInThreadOfItsOwn(dataDir) {
  return new Promise((resolve, reject) => {
    const creator = new Worker(new URL(import.meta.url), { workerData: { create: dataDir } });
    creator.once('error', reject);
    creator.once('exit', (code) => (code === 0 ? resolve(undefined) : reject(new Error(`creating the database failed (exit code ${code})`))));
  });
}

/** @param {any} message */
async function handle(message) {
  switch (message.op) {
    case 'open': {
      const { PGlite } = await import('@electric-sql/pglite');
      if (message.dataDir !== undefined && !existsSync(join(message.dataDir, 'PG_VERSION'))) {
        // Creating the database (initdb) grows the WebAssembly memory to about twice what serving needs, and an
        // instance never gives memory back: it is created in a thread of its own, whose memory goes when it ends.
        await createInThreadOfItsOwn(message.dataDir);
      }
      db = await PGlite.create({ ...(message.dataDir === undefined ? {} : { dataDir: message.dataDir }), postgresqlconf: SMALL_FOOTPRINT });
      return {};
    }
    case 'query':
      return { rows: await query(message.tx, message.sql, message.params) };
    case 'exec': {
      const database = target(message.tx);
      await database.exec(message.sql);
      if (prepared.size > 0) {
        // Schema changes (migrations) come this way: plans made for the tables as they were are dropped.
        prepared.clear();
        await database.exec('deallocate all');
      }
      return {};
    }
    case 'begin': {
      const database = target(undefined);
      const id = nextTx++;
      /** @type {() => void} */
      let started = () => {};
      const begun = new Promise((resolve) => (started = () => resolve(undefined)));
      // PGlite holds the whole database while the callback runs: the transaction lasts until the driver ends it.
      const done = database.transaction(
        (tx) =>
          new Promise((commit, rollback) => {
            transactions.set(id, { tx, end: (ok) => (ok ? commit(undefined) : rollback(ROLLBACK)), done: Promise.resolve() });
            started();
          }),
      );
      // Awaited by `end`; until then a rollback's rejection must not count as unhandled.
      done.catch(() => {});
      // A BEGIN that fails rejects `done` before the callback ever runs.
      await Promise.race([begun, done]);
      const open = transactions.get(id);
      if (!open) throw new Error('The transaction ended as it began.');
      open.done = done;
      return { tx: id };
    }
    case 'end': {
      const open = transactions.get(message.tx);
      if (!open) throw new Error(`Transaction ${message.tx} is not open.`);
      open.end(message.commit);
      try {
        await open.done;
      } catch (error) {
        if (error !== ROLLBACK) throw error;
      } finally {
        transactions.delete(message.tx);
      }
      return {};
    }
    case 'dump': {
      const database = target(undefined);
      // Flushed to the data files first, then copied while no transaction (the outer lock) and no statement (the
      // inner one, which dumpDataDir takes) can run: the copy is a committed state, never a write half done.
      await database.exec('checkpoint');
      const archive = await database.transaction(() => database.dumpDataDir('gzip'));
      return { archive: new Uint8Array(await archive.arrayBuffer()) };
    }
    case 'close':
      if (db && !db.closed) await db.close();
      return {};
    default:
      throw new Error(`Unknown operation ${message.op}`);
  }
}

port.on('message', (message) => {
  handle(message).then(
    (result) => {
      const transfer = result && 'archive' in result ? [result.archive.buffer] : [];
      port.postMessage({ id: message.id, ...result }, transfer);
    },
    (error) => port.postMessage({ id: message.id, error: serialiseError(error) }),
  );
});
