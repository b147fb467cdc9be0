import type { IdentityClaims } from '../agent.js';
import type { LedgerEntry, Session, StoredMessage, SurfacedForm, VisitorContext } from '../domain.js';
import type { IdempotencyRecord } from './store.js';
import type { LifecycleEventName } from './webhook-store.js';

/**
 * Durable turn work (DESIGN.md sections 3a and 5): every turn is a job row and every callback a delivery row, each
 * claimed with a lease, so any number of processes share them and a crashed process's claims are taken over once
 * the lease runs out.
 */

/** How the caller of a turn is answered; the turn itself is the same in every mode. */
export type TurnMode = 'sync' | 'stream' | 'callback';

export type TurnJobStatus = 'queued' | 'running' | 'done' | 'failed';

export interface TurnJob {
  id: string;
  accountId: string;
  /** The API key that asked for the callback: its URL, secret and reply format apply. */
  keyId: string;
  widgetId: string;
  sessionId: string;
  /** Id of the visitor's message, which enters the history under it when the turn starts. */
  userMessageId: string;
  /** Fixed when the job is created: a turn re-run after a crash cannot be answered twice. */
  replyMessageId: string;
  kind: 'message' | 'form';
  mode: TurnMode;
  /** The visitor's message (for a form submission: the accepted answers, rendered readably). */
  content: string;
  /** Form submissions: the form answered, stored on the visitor's history item. */
  answers: SurfacedForm | null;
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
/** Every event a delivery row can carry: a key's callbacks and the lifecycle webhooks. */
export type DeliveryEventName = CallbackEventName | LifecycleEventName;

export interface Delivery {
  /** Sent as `X-Svc-Delivery`: stable across retries, for receivers' de-duplication. */
  id: string;
  accountId: string;
  /** Callbacks: the API key whose callback secret signs. Null for lifecycle webhooks. */
  keyId: string | null;
  /** Lifecycle webhooks: the endpoint whose secret(s) sign. Null for callbacks. */
  webhookId: string | null;
  widgetId: string;
  sessionId: string;
  messageId: string | null;
  event: DeliveryEventName;
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

/** What a new delivery row says; the rest is its starting state. */
export type NewDelivery = Pick<
  Delivery,
  'id' | 'accountId' | 'keyId' | 'webhookId' | 'widgetId' | 'sessionId' | 'messageId' | 'event' | 'payload' | 'url'
>;

/** An outbox row as it is written: pending, due `now`, no attempt yet (callbacks and lifecycle webhooks alike). */
export function pendingDelivery(fields: NewDelivery, now: Date): Delivery {
  return {
    ...fields,
    status: 'pending',
    attempts: 0,
    nextAttemptAt: now,
    leaseOwner: null,
    leaseExpiresAt: null,
    lastStatus: null,
    lastError: null,
    createdAt: now,
    deliveredAt: null,
  };
}

/** A claim of one job: who takes it, when, and for how long before anyone may retake it. */
export interface TurnClaim {
  owner: string;
  now: Date;
  leaseMs: number;
}

/**
 * Told to every process sharing the store when a job is queued or finishes, so waiters need not poll; when a piece
 * of a streamed reply was written (`delta`); and when a session's event log grew (`session-event`, see
 * `SessionEventOps`), so event streams need not poll either.
 */
export type StoreSignal = JobEvent | { type: 'session-event'; accountId: string; widgetId: string; sessionId: string };

export interface JobEvent {
  type: 'queued' | 'finished' | 'delta';
  jobId: string;
  widgetId: string;
  sessionId: string;
  /**
   * `delta` events: a piece of a streamed reply written by the process running the job, for a caller that waits in
   * another process; `at` is where it starts in the reply's text, so a receiver can tell a gap.
   */
  delta?: { text: string; at: number };
}

/** Step 3 of a turn (DESIGN.md section 3a), written at once by {@link TurnJobOps.commitTurn}. */
export interface TurnCommit {
  jobId: string;
  /** Nothing is written unless this lease holder still holds the running job. */
  owner: string;
  at: Date;
  /** The reply without its position: the store numbers it right after the session's last message. */
  reply: Omit<StoredMessage, 'seq'>;
  /**
   * The session after the reply: the form it surfaced (or none), and when the agent concluded the conversation. An
   * active session then becomes resolved at that instant with no pending form (`resolveByAgent`); a session ended
   * meanwhile by other means keeps its status. Null leaves the status as it is.
   */
  session: { pendingFormId: string | null; concludedAt: Date | null };
  /** The debit and its ledger row; null when the turn costs nothing. */
  charge: LedgerEntry | null;
  /** Outbox rows the reply causes (its callback delivery). */
  deliveries: Delivery[];
}

/** What accepting a turn writes, at once: see {@link TurnJobOps.acceptTurnJob}. */
export interface TurnAcceptance {
  job: TurnJob;
  /** The visitor's message when the turn starts at once (the job is claimed at acceptance); null when it is queued. */
  userMessage: StoredMessage | null;
  /** The session's activity after acceptance. */
  session: { lastActivityAt: Date; expiresAt: Date; messageCount: number; pendingFormId: string | null };
}

/**
 * A turn's acceptance as one guarded write: see {@link TurnJobOps.acceptTurnAtOnce}. The guard holds every check of
 * the full acceptance (engine/turns/accept.ts) that a message turn can fail; anything the guard cannot decide (a
 * form's answers, an expired session to record, an idempotency record to replay) leaves it to that full path.
 */
export interface GuardedTurnAcceptance {
  /**
   * The job as it is when claimed at once (status running, lease set, attempts 1). When an earlier job of its session
   * is unfinished it is stored queued instead: no lease, no attempt.
   */
  job: TurnJob;
  /** The visitor's message, numbered by the store after the session's last one; written only when the job is claimed. */
  userMessage: Omit<StoredMessage, 'seq'>;
  guard: {
    /** The session's account, which must exist, not be overdue, and have a positive balance. */
    accountId: string;
    /** A public (widget) key: the session must have been created by one, and an identity-bound session needs `identitySub`. */
    publicCaller: boolean;
    identitySub: string | null;
    /** The session must be active and not expired at this instant. */
    now: Date;
  };
  /** The session's activity after acceptance. */
  activity: { lastActivityAt: Date; expiresAt: Date };
  /** Written with the job; its (scope, key) must be new. */
  idempotency: IdempotencyRecord | null;
  /** Merged into the visitor's stored context (as `upsertVisitor` does). */
  visitorContext: VisitorContext | null;
  /** How many of the session's latest messages the agent sees. */
  historyLimit: number;
}

/** What {@link TurnJobOps.acceptTurnAtOnce} wrote and what the turn's agent needs, read in the same write. */
export interface GuardedTurnAccepted {
  /** The job was claimed at acceptance (its turn started: the visitor's message is in the history). */
  claimed: boolean;
  job: TurnJob;
  /** The session after acceptance. */
  session: Session;
  /** Claimed: the visitor's message as stored; else null. */
  userMessage: StoredMessage | null;
  /** The messages before the visitor's, oldest first, at most `historyLimit`. */
  history: StoredMessage[];
  visitorContext: VisitorContext;
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

export interface TurnJobOps {
  insertTurnJob(job: TurnJob): Promise<void>;
  /**
   * The writes of a turn's acceptance in one round trip (DESIGN.md section 3a): the job, its visitor message when
   * given, and the session's activity. All or nothing; fails like `insertTurnJob` and `insertMessage` on duplicates.
   */
  acceptTurnJob(acceptance: TurnAcceptance): Promise<void>;
  /**
   * The whole acceptance of a message turn in one atomic write (one round trip on SQL stores, DESIGN.md section 3a):
   * on the locked session row, when every condition of `guard` holds and the idempotency record is new, the job
   * (claimed when no earlier job of its session is unfinished), the visitor's message if claimed, the session's
   * activity, the idempotency record and the visitor's context; and it reads what the agent needs. Null when the
   * session is missing or any condition fails: nothing is written, and the caller takes the full path, which says why.
   */
  acceptTurnAtOnce(acceptance: GuardedTurnAcceptance): Promise<GuardedTurnAccepted | null>;
  getTurnJob(id: string): Promise<TurnJob | null>;
  /**
   * Claims up to `limit` jobs, oldest first: queued ones, and running ones whose lease expired. Only the oldest
   * unfinished job of a session is claimable, so a session's callback turns run in arrival order. Each claim
   * sets status running, the lease, and attempts + 1. Within a session "oldest" is insertion order: jobs are
   * inserted under the session lock, so that is arrival order even when `createdAt`s tie (same millisecond) or
   * disagree (clocks of several instances).
   */
  claimTurnJobs(query: ClaimQuery): Promise<TurnJob[]>;
  /** Whether the session has a queued or running job (accept claims its own job at once when it has none). */
  hasUnfinishedTurnJob(widgetId: string, sessionId: string): Promise<boolean>;
  /**
   * Claims the session's earliest unfinished job if it is queued or its lease expired (the claim rule of
   * {@link TurnJobOps.claimTurnJobs}, for one session); null when there is none or someone else holds it.
   */
  claimSessionTurnJob(widgetId: string, sessionId: string, claim: TurnClaim): Promise<TurnJob | null>;
  /** Heartbeat of a running job: pushes its lease to `until` if `owner` still holds it; false when lost. */
  extendTurnJobLease(id: string, owner: string, until: Date): Promise<boolean>;
  /**
   * Ends a job and erases its identity claims. With `owner`, only a running job that `owner` still holds is
   * ended (a worker whose lease was taken over must not finish the turn a second time). True when it ended.
   */
  finishTurnJob(id: string, outcome: { status: 'done' | 'failed'; error: string | null; at: Date; owner?: string }): Promise<boolean>;
  /**
   * Commits a turn in one atomic write (one round trip on SQL stores): the job done (only while `owner` holds it),
   * the reply numbered after the session's last message, the session updated (message count, pending form,
   * status), the charge, the deliveries, and a `finished` turn event. Returns the reply as stored, or null when the
   * job is no longer `owner`'s (or its session is gone), in which case nothing is written.
   */
  commitTurn(commit: TurnCommit): Promise<StoredMessage | null>;
  /** Tells every subscriber (see `Store.subscribeSignals`) about `event` once the current transaction commits. */
  publishSignal(event: StoreSignal): Promise<void>;

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
