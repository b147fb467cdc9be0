import type { StoreOps, StoreSignal } from '@svc/core/store-kit';
import { accountOps } from './ops/accounts.js';
import { analyticsOps } from './ops/analytics.js';
import { evalOps } from './ops/evals.js';
import type { Db } from './ops/db.js';
import { deliveryOps } from './ops/deliveries.js';
import { guardOps } from './ops/guards.js';
import { knowledgeOps } from './ops/knowledge.js';
import { operatorOps } from './ops/operators.js';
import { recordOps } from './ops/records.js';
import { searchOps, type SearchOptions } from './ops/search.js';
import { sessionOps } from './ops/sessions.js';
import { sourceOps } from './ops/sources.js';
import { turnJobOps } from './ops/turn-jobs.js';
import { vectorOps } from './ops/vectors.js';
import { questionOps } from './ops/questions.js';
import { turnAcceptOps } from './ops/turn-accept.js';
import { webhookOps } from './ops/webhooks.js';
import { sessionEventOps } from './ops/session-events.js';
import { turnCommitOps, type CommitEvents } from './ops/turn-commit.js';
import { widgetAndKeyOps } from './ops/widgets-and-keys.js';

/** Every Store operation in SQL, over whichever connection `db` resolves to at each statement. */
export function createSqlOps(
  db: Db,
  search: SearchOptions,
  publish: (event: StoreSignal) => Promise<void>,
  commitEvents: CommitEvents,
): StoreOps {
  return {
    publishSignal: publish,
    ...turnCommitOps(db, commitEvents),
    ...accountOps(db),
    ...widgetAndKeyOps(db),
    ...knowledgeOps(db),
    ...searchOps(db, search),
    ...sessionOps(db),
    ...recordOps(db),
    ...turnJobOps(db),
    ...turnAcceptOps(db),
    ...deliveryOps(db),
    ...guardOps(db),
    ...webhookOps(db),
    ...operatorOps(db),
    ...evalOps(db),
    ...sessionEventOps(db, publish),
    ...analyticsOps(db),
    ...vectorOps(db),
    ...sourceOps(db),
    ...questionOps(db),
  };
}
