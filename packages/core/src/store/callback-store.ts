import type { IdentityClaims } from '../agent.js';

/**
 * Durable callback work (DESIGN.md section 5): turn jobs and deliveries are rows, claimed with a lease, so any
 * number of worker processes share them and a crashed worker's claims are taken over once the lease runs out.
 */

export type TurnJobStatus = 'queued' | 'running' | 'done' | 'failed';

export interface TurnJob {
  id: string;
  accountId: string;
  /** The API key that asked for the callback: its URL, secret and reply format apply. */
  keyId: string;
  widgetId: string;
  sessionId: string;
  /** The visitor's message, stored with the job in one transaction. */
  userMessageId: string;
  /** Fixed when the job is created: a turn re-run after a crash cannot be answered twice. */
  replyMessageId: string;
  kind: 'message' | 'form';
  /** Verified identity for this turn only; erased when the job finishes. */
  identity: IdentityClaims | null;
  timezone: string | null;
  status: TurnJobStatus;
  /** Claims so far (a claim after a crash counts). */
  attempts: number;
  leaseOwner: string | null;
  leaseExpiresAt: Date | null;
  createdAt: Date;
  finishedAt: Date | null;
  error: string | null;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';
export type CallbackEventName = 'message.completed' | 'message.failed';

export interface Delivery {
  /** Sent as `X-Svc-Delivery`: stable across retries, for receivers' de-duplication. */
  id: string;
  accountId: string;
  keyId: string;
  widgetId: string;
  sessionId: string;
  messageId: string | null;
  event: CallbackEventName;
  /** The exact body, fixed at creation, so every attempt sends the same bytes. */
  payload: string;
  url: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: Date;
  leaseOwner: string | null;
  leaseExpiresAt: Date | null;
  lastStatus: number | null;
  lastError: string | null;
  createdAt: Date;
  deliveredAt: Date | null;
}

export interface ClaimQuery {
  owner: string;
  now: Date;
  leaseMs: number;
  limit: number;
}

export interface DeliveryAttempt {
  at: Date;
  ok: boolean;
  status: number | null;
  error: string | null;
  /** When to try again; null when this attempt was the last (success, or retries exhausted). */
  nextAttemptAt: Date | null;
}

export interface CallbackOps {
  insertTurnJob(job: TurnJob): Promise<void>;
  getTurnJob(id: string): Promise<TurnJob | null>;
  /**
   * Claims up to `limit` jobs, oldest first: queued ones, and running ones whose lease expired. Only the oldest
   * unfinished job of a session is claimable, so a session's callback turns run in arrival order. Each claim
   * sets status running, the lease, and attempts + 1. Within a session "oldest" is insertion order: jobs are
   * inserted under the session lock, so that is arrival order even when `createdAt`s tie (same millisecond) or
   * disagree (clocks of several instances).
   */
  claimTurnJobs(query: ClaimQuery): Promise<TurnJob[]>;
  /** Heartbeat of a running job: pushes its lease to `until` if `owner` still holds it; false when lost. */
  extendTurnJobLease(id: string, owner: string, until: Date): Promise<boolean>;
  /** Ends a job and erases its identity claims. */
  finishTurnJob(id: string, outcome: { status: 'done' | 'failed'; error: string | null; at: Date }): Promise<void>;

  insertDelivery(delivery: Delivery): Promise<void>;
  getDelivery(id: string): Promise<Delivery | null>;
  /** Claims pending deliveries due at `now` whose lease is free or expired, oldest due first. */
  claimDeliveries(query: ClaimQuery): Promise<Delivery[]>;
  /** Records an attempt, releases the lease, and sets delivered / pending (next attempt) / failed. */
  recordDeliveryAttempt(id: string, attempt: DeliveryAttempt): Promise<Delivery | null>;
  /** Newest first. */
  listDeliveries(query: { status?: DeliveryStatus; accountId?: string; limit: number }): Promise<Delivery[]>;
  /** Replay: pending again from now with a fresh retry budget. */
  requeueDelivery(id: string, at: Date): Promise<boolean>;

  /** Rotation of a key's callback secret. */
  setApiKeyCallbackSecret(id: string, secret: string): Promise<boolean>;
}
