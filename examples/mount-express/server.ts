import { createPgliteStore, createPostgresStore, migrate } from '@svc/store-postgres';
import { createShopApp } from './app.js';

// The same database choice as `svc start`: PostgreSQL when DATABASE_URL is set, else PGlite on disk.
const store = process.env.DATABASE_URL
  ? await createPostgresStore({ connectionString: process.env.DATABASE_URL })
  : await createPgliteStore({ dataDir: process.env.SVC_DATA_DIR ?? '.svc-data' });
await migrate(store);

const port = Number(process.env.PORT ?? 4000);
const app = await createShopApp(store);
app.listen(port, () => {
  console.log(`Shop on http://localhost:${port}, chat API on http://localhost:${port}/chat-api`);
  console.log('Provision an account, widget and key with `pnpm svc` (see the README), then call the API.');
});
