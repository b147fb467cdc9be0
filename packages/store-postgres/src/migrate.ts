import type { Store } from '@svc/core/store-kit';
import { MIGRATIONS, type Migration } from './migrations.js';
import type { Queryable, SqlDriver } from './sql-driver.js';

/** Label of a migration in reports and logs: `1_initial`. */
export function migrationLabel(migration: Pick<Migration, 'version' | 'name'>): string {
  return `${migration.version}_${migration.name}`;
}

/**
 * Applies the pending migrations in one transaction and returns the labels of those it applied.
 *
 * Race-safe: every process opening the same schema at once takes the same transaction-scoped advisory lock first,
 * so one applies the migrations and the others then find them recorded. The lock is per schema, so test schemas
 * in one database migrate in parallel.
 */
export async function runMigrations(driver: SqlDriver, migrations: readonly Migration[] = MIGRATIONS): Promise<string[]> {
  return driver.transaction(async (tx) => {
    await tx.query(`select pg_advisory_xact_lock(hashtextextended('svc:migrate:' || current_schema(), 0))`);
    await tx.exec(`create table if not exists schema_migrations (
      version integer primary key,
      name text not null,
      applied_at timestamptz not null default now()
    )`);
    const applied = new Set((await tx.query<{ version: number }>('select version from schema_migrations')).map((row) => row.version));
    assertNotNewerThanCode(applied, migrations);
    const labels: string[] = [];
    for (const migration of migrations) {
      if (applied.has(migration.version)) continue;
      await tx.exec(migration.sql);
      await tx.query('insert into schema_migrations (version, name) values ($1, $2)', [migration.version, migration.name]);
      labels.push(migrationLabel(migration));
    }
    return labels;
  });
}

/** A database migrated by a newer release would be misread by this one: refuse rather than corrupt it. */
function assertNotNewerThanCode(applied: ReadonlySet<number>, migrations: readonly Migration[]): void {
  const known = new Set(migrations.map((migration) => migration.version));
  const unknown = [...applied].filter((version) => !known.has(version)).sort((a, b) => a - b);
  if (unknown.length > 0) {
    throw new Error(
      `The database has migrations this version of Svc does not know (${unknown.join(', ')}): it was upgraded by a newer release. Run that release, or restore a backup.`,
    );
  }
}

/** The migrations recorded in the database, oldest first. */
export async function appliedMigrations(db: Queryable): Promise<Array<{ version: number; name: string; appliedAt: Date }>> {
  const rows = await db.query<{ version: number; name: string; applied_at: Date }>(
    'select version, name, applied_at from schema_migrations order by version',
  );
  return rows.map((row) => ({ version: row.version, name: row.name, appliedAt: row.applied_at }));
}

interface Migrator {
  migrate(): Promise<string[]>;
  /** Applied by the factory when it opened the store, not yet reported by `migrate`. */
  unreported: string[];
}

const migrators = new WeakMap<Store, Migrator>();

/** Called by the factories, which migrate before returning the store. */
export function registerMigrator(store: Store, driver: SqlDriver, appliedAtOpen: string[]): void {
  migrators.set(store, { migrate: () => runMigrations(driver), unreported: appliedAtOpen });
}

/**
 * Brings the schema of a store opened by `createPgliteStore` or `createPostgresStore` up to date and returns the
 * labels (`1_initial`…) of the migrations applied: those applied now plus those its factory applied when opening
 * it, each reported once. An empty array means the database was already up to date. For `svc migrate`.
 *
 * @example
 * const store = await createPostgresStore({ connectionString: process.env.DATABASE_URL! });
 * const applied = await migrate(store); // [] when up to date
 */
export async function migrate(store: Store): Promise<string[]> {
  const migrator = migrators.get(store);
  if (!migrator) throw new TypeError('migrate() takes a store created by createPgliteStore or createPostgresStore');
  const appliedNow = await migrator.migrate();
  const report = [...migrator.unreported, ...appliedNow];
  migrator.unreported = [];
  return report;
}
