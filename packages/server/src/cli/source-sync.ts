import { createLocalAgent } from '@svc/agents';
import { createCore, randomBase62, type BackgroundWork, type Store } from '@svc/core';
import type { ServerConfig } from '../config.js';
import { createSiteReader } from '../ingest/site-reader.js';
import { formatReply } from '../reply-format.js';
import { scryptPasswords } from './passwords.js';

const cores = new WeakMap<Store, Pick<BackgroundWork, 'syncSources'>>();

/**
 * The sync job of the core with the server's site reader, for `svc kb sources sync --wait` run where no server is:
 * the CLI's process reads the pages itself (claims and leases keep it from doing a running server's work twice).
 */
export function sourceSyncWork(store: Store, config: Pick<ServerConfig, 'allowPrivateUrls'>): Pick<BackgroundWork, 'syncSources'> {
  let work = cores.get(store);
  if (!work) {
    work = createCore({
      store,
      reader: createSiteReader({ allowPrivateUrls: config.allowPrivateUrls }),
      // Only `work.syncSources` is used: the agent and the cursor key serve turns, which nothing here runs.
      agent: createLocalAgent({ knowledge: store }),
      cursorSecret: randomBase62(43),
      urlProblem: () => null,
      passwords: scryptPasswords(),
      formatReply,
    }).work;
    cores.set(store, work);
  }
  return work;
}
