export { createPgliteStore } from './pglite-store.js';
export type { PgliteStoreOptions } from './pglite-store.js';
export { createPostgresStore } from './postgres-store.js';
export type { PostgresStoreOptions } from './postgres-store.js';
export { migrate } from './migrate.js';
export { DataDirInUseError } from './data-dir-lock.js';
export type { QueryObserver } from './counting-driver.js';
