import { createLocalAgent } from '@svc/agents';
import { createCore, randomBase62, type AdminApi, type Clock, type PasswordHasher, type Store } from '@svc/core';
import { formatReply } from '../reply-format.js';
import { callbackUrlProblem } from '../net/address-policy.js';
import { scryptPasswords } from './passwords.js';

/**
 * The operator operations of the core (`core.admin`) with this server's ports and address policy, for what acts on
 * the database without serving the API: the `svc` command line, seeding, test set-up. Callback and webhook URLs must
 * be https and public unless private callbacks are allowed (development, tests), and carry no credentials.
 */
export function operatorAdmin(
  store: Store,
  options: { allowPrivateCallbacks?: boolean; clock?: Clock; passwords?: PasswordHasher } = {},
): AdminApi {
  const allowPrivate = options.allowPrivateCallbacks ?? false;
  return createCore({
    store,
    // Only `admin` is used here: the agent and the cursor key serve `api`, which nothing here calls (and no turn
    // runner starts until a turn does).
    agent: createLocalAgent({ knowledge: store }),
    cursorSecret: randomBase62(43),
    urlProblem: (url) => callbackUrlProblem(url, allowPrivate),
    passwords: options.passwords ?? scryptPasswords(),
    formatReply,
    ...(options.clock ? { clock: options.clock } : {}),
  }).admin;
}
