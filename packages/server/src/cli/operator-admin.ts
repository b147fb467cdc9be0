import { createAdmin, type Admin, type Clock, type Store } from '@svc/core';
import { callbackUrlProblem } from '../workers/address-policy.js';

/**
 * The operator operations of `@svc/core` with this server's ports and address policy: callback and webhook URLs
 * must be https and public unless private callbacks are allowed (development, tests), and carry no credentials.
 */
export function operatorAdmin(store: Store, options: { allowPrivateCallbacks?: boolean; clock?: Clock } = {}): Admin {
  const allowPrivate = options.allowPrivateCallbacks ?? false;
  return createAdmin({ store, urlProblem: (url) => callbackUrlProblem(url, allowPrivate), ...(options.clock ? { clock: options.clock } : {}) });
}
