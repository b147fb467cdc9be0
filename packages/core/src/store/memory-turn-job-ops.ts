import type { TurnJobOps, Delivery, TurnJob } from './turn-job-store.js';
import type { MemoryState, SequencedTurnJob } from './memory-state.js';
import { byCreation, copy, copyOrNull, duplicate, key } from './memory-tables.js';

/**
 * Turn jobs and deliveries over in-memory tables, with the claim semantics of the SQL stores' `FOR UPDATE SKIP
 * LOCKED` queries. Each body runs synchronously, so a claim is atomic and two claims never return the same row.
 * (`setApiKeyCallbackSecret` lives with the other API key operations.)
 */
export function createMemoryCallbackOps(state: MemoryState): Omit<TurnJobOps, 'setApiKeyCallbackSecret' | 'publishSignal' | 'commitTurn' | 'acceptTurnJob' | 'acceptTurnAtOnce'> {
  return {
    async insertTurnJob(job) {
      if (state.turnJobs.has(job.id)) throw duplicate('turn job', job.id);
      state.turnJobSeq.last++;
      state.turnJobs.set(job.id, { job: copy(job), seq: state.turnJobSeq.last });
    },
    async getTurnJob(id) {
      return copyOrNull(state.turnJobs.get(id)?.job);
    },
    async claimTurnJobs({ owner, now, leaseMs, limit }) {
      const leaseExpiresAt = new Date(now.getTime() + leaseMs);
      const claimed = claimableTurnJobs(state, now).slice(0, Math.max(0, limit));
      return claimed.map(({ job, seq }) => {
        const lease = { leaseOwner: owner, leaseExpiresAt: new Date(leaseExpiresAt) };
        const running: TurnJob = { ...job, ...lease, status: 'running', attempts: job.attempts + 1 };
        state.turnJobs.set(job.id, { job: running, seq });
        return copy(running);
      });
    },
    async hasUnfinishedTurnJob(widgetId, sessionId) {
      return [...state.turnJobs.values()].some(
        ({ job }) => job.widgetId === widgetId && job.sessionId === sessionId && (job.status === 'queued' || job.status === 'running'),
      );
    },
    async claimSessionTurnJob(widgetId, sessionId, { owner, now, leaseMs }) {
      const head = claimableTurnJobs(state, now).find(({ job }) => job.widgetId === widgetId && job.sessionId === sessionId);
      if (!head) return null;
      const running: TurnJob = {
        ...head.job,
        status: 'running',
        leaseOwner: owner,
        leaseExpiresAt: new Date(now.getTime() + leaseMs),
        attempts: head.job.attempts + 1,
      };
      state.turnJobs.set(head.job.id, { job: running, seq: head.seq });
      return copy(running);
    },
    async extendTurnJobLease(id, owner, until) {
      const row = state.turnJobs.get(id);
      if (!row || row.job.status !== 'running' || row.job.leaseOwner !== owner) return false;
      state.turnJobs.set(id, { ...row, job: { ...row.job, leaseExpiresAt: new Date(until) } });
      return true;
    },
    async finishTurnJob(id, { status, error, at, owner }) {
      const row = state.turnJobs.get(id);
      if (!row) return false;
      if (owner !== undefined && (row.job.status !== 'running' || row.job.leaseOwner !== owner)) return false;
      const finished: TurnJob = {
        ...row.job,
        status,
        error,
        finishedAt: new Date(at),
        leaseOwner: null,
        leaseExpiresAt: null,
        // Identity claims are for the turn only: they must not outlive the job.
        identity: null,
      };
      state.turnJobs.set(id, { ...row, job: finished });
      return true;
    },

    async insertDelivery(delivery) {
      if (state.deliveries.has(delivery.id)) throw duplicate('delivery', delivery.id);
      state.deliveries.set(delivery.id, copy(delivery));
    },
    async getDelivery(id) {
      return copyOrNull(state.deliveries.get(id));
    },
    async claimDeliveries({ owner, now, leaseMs, limit }) {
      const due = [...state.deliveries.values()].filter(
        (delivery) => delivery.status === 'pending' && delivery.nextAttemptAt <= now && !leaseHeld(delivery.leaseExpiresAt, now),
      );
      const claimed = due.sort(byDueTime).slice(0, Math.max(0, limit));
      return claimed.map((delivery) => {
        const leased: Delivery = { ...delivery, leaseOwner: owner, leaseExpiresAt: new Date(now.getTime() + leaseMs) };
        state.deliveries.set(delivery.id, leased);
        return copy(leased);
      });
    },
    async recordDeliveryAttempt(id, { at, ok, status, error, nextAttemptAt }) {
      const delivery = state.deliveries.get(id);
      if (!delivery) return null;
      const attempted: Delivery = {
        ...delivery,
        attempts: delivery.attempts + 1,
        lastStatus: status,
        lastError: error,
        leaseOwner: null,
        leaseExpiresAt: null,
      };
      if (ok) Object.assign(attempted, { status: 'delivered', deliveredAt: new Date(at) });
      else if (nextAttemptAt === null) attempted.status = 'failed';
      else Object.assign(attempted, { status: 'pending', nextAttemptAt: new Date(nextAttemptAt) });
      state.deliveries.set(id, attempted);
      return copy(attempted);
    },
    async listDeliveries({ status, accountId, limit }) {
      const deliveries = [...state.deliveries.values()].filter(
        (delivery) => (status === undefined || delivery.status === status) && (accountId === undefined || delivery.accountId === accountId),
      );
      return deliveries.sort((a, b) => -byCreation(a, b)).slice(0, Math.max(0, limit)).map(copy);
    },
    async requeueDelivery(id, at) {
      const delivery = state.deliveries.get(id);
      if (!delivery) return false;
      state.deliveries.set(id, {
        ...delivery,
        status: 'pending',
        attempts: 0,
        nextAttemptAt: new Date(at),
        leaseOwner: null,
        leaseExpiresAt: null,
        lastStatus: null,
        lastError: null,
        deliveredAt: null,
      });
      return true;
    },
  };
}

/**
 * Queued jobs and running ones whose lease expired, oldest first; of each session only its earliest unfinished job
 * (in insertion order, which is arrival order) so a session's turns run one after the other.
 */
function claimableTurnJobs(state: MemoryState, now: Date): SequencedTurnJob[] {
  const unfinished = [...state.turnJobs.values()].filter(({ job }) => job.status === 'queued' || job.status === 'running');
  const heads = new Map<string, SequencedTurnJob>();
  for (const row of unfinished.sort((a, b) => a.seq - b.seq)) {
    const sessionKey = key(row.job.widgetId, row.job.sessionId);
    if (!heads.has(sessionKey)) heads.set(sessionKey, row);
  }
  const claimable = [...heads.values()].filter(({ job }) => job.status === 'queued' || leaseExpired(job.leaseExpiresAt, now));
  return claimable.sort((a, b) => a.job.createdAt.getTime() - b.job.createdAt.getTime() || a.seq - b.seq);
}

/** A running job without a lease is never retaken, as in SQL where `null <= now` is not true. */
function leaseExpired(leaseExpiresAt: Date | null, now: Date): boolean {
  return leaseExpiresAt !== null && leaseExpiresAt <= now;
}

/** A delivery's lease is free when it has none, and lapses at its expiry instant. */
function leaseHeld(leaseExpiresAt: Date | null, now: Date): boolean {
  return leaseExpiresAt !== null && leaseExpiresAt > now;
}

/** Oldest due first, then oldest created, then id: the order of the SQL stores' claim. */
function byDueTime(a: Delivery, b: Delivery): number {
  return a.nextAttemptAt.getTime() - b.nextAttemptAt.getTime() || byCreation(a, b);
}
