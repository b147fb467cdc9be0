import { createLocalAgent } from '@svc/agents';
import { createCore, randomBase62, type Core, type Store } from '@svc/core';
import type { ServerConfig } from '../config.js';
import { createSiteReader } from '../ingest/site-reader.js';
import { callbackUrlProblem } from '../net/address-policy.js';
import { formatReply } from '../reply-format.js';
import { scryptPasswords } from './passwords.js';

const cores = new WeakMap<Store, Pick<Core, 'admin' | 'work'>>();

/**
 * The core with the server's site reader, for `svc kb sources …` run on the database: website sources need a reader to
 * be added, and `sync --wait` run where no server is reads the pages in the CLI's own process (claims and leases keep
 * it from doing a running server's work twice).
 */
export function sourcesCore(store: Store, config: Pick<ServerConfig, 'allowPrivateUrls'>): Pick<Core, 'admin' | 'work'> {
  let core = cores.get(store);
  if (!core) {
    core = createCore({
      store,
      reader: createSiteReader({ allowPrivateUrls: config.allowPrivateUrls }),
      // The agent and the cursor key serve turns, which nothing here runs.
      agent: createLocalAgent({ knowledge: store }),
      cursorSecret: randomBase62(43),
      urlProblem: (url) => callbackUrlProblem(url, config.allowPrivateUrls),
      passwords: scryptPasswords(),
      formatReply,
    });
    cores.set(store, core);
  }
  return core;
}
