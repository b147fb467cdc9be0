import pg from 'pg';
import { randomBase62, type Store } from '@svc/core';
import { createPgliteStore, createPostgresStore } from '@svc/store-postgres';

/** The PostgreSQL the tests use. Unreachable means failing tests, never skipped ones. */
export const TEST_DATABASE_URL = process.env.SVC_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface OpenedStore {
  store: Store;
  /**
   * Another store on the same database, as a second instance of the service would open it: its own pool on
   * PostgreSQL; the same store on PGlite, whose embedded database belongs to one process. Disposed with this one.
   */
  peer(): Promise<Store>;
  /** Closes the store (and its peers) and drops what it created. */
  dispose(): Promise<void>;
}

/**
 * The stores production runs on: embedded PGlite and PostgreSQL (a fresh schema, dropped afterwards). Tests of
 * behaviour that involves storage run on both, `describe.each(PRODUCTION_STORES)`.
 */
export const PRODUCTION_STORES: ReadonlyArray<readonly [name: string, open: () => Promise<OpenedStore>]> = [
  [
    'PGlite',
    async () => {
      const store = await createPgliteStore();
      return { store, peer: async () => store, dispose: () => store.close() };
    },
  ],
  [
    'PostgreSQL',
    async () => {
      const schema = `t_hard_${randomBase62(8).toLowerCase()}`;
      const store = await createPostgresStore({ connectionString: TEST_DATABASE_URL, schema });
      const peers: Store[] = [];
      return {
        store,
        async peer() {
          const peer = await createPostgresStore({ connectionString: TEST_DATABASE_URL, schema });
          peers.push(peer);
          return peer;
        },
        async dispose() {
          for (const peer of peers) await peer.close();
          await store.close();
          const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
          await client.connect();
          await client.query(`drop schema if exists "${schema}" cascade`);
          await client.end();
        },
      };
    },
  ],
];
