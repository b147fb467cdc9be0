import type {
  Account,
  ApiKey,
  KnowledgeBase,
  KnowledgeDocument,
  KnowledgeSource,
  LedgerEntry,
  Product,
  QuestionGroup,
  Session,
  SourcePage,
  StoredMessage,
  Visitor,
  Widget,
} from '../domain.js';
import type { Delivery, TurnJob } from './turn-job-store.js';
import type { DocumentChunk } from './chunking.js';
import { Journal, Table } from './memory-tables.js';
import type { ConsoleSession, Operator } from './operator-store.js';
import type { IdempotencyRecord } from './store.js';
import type { WebhookEndpoint } from './webhook-store.js';
import type { SessionEvent } from './session-event-store.js';
import type { EvalRun, StoredEvalSuite } from './eval-store.js';

/** A document with the passages it was split into on insert, as the SQL stores keep them in a table. */
export interface IndexedDocument {
  document: KnowledgeDocument;
  chunks: DocumentChunk[];
  /**
   * Model → position → vector, and model → position → embedding lease. They live in the document's row, which a
   * replacement or deletion replaces whole: the SQL stores' cascade from passage to vector and lease.
   */
  vectors?: Readonly<Record<string, Readonly<Record<number, Float32Array>>>>;
  leases?: Readonly<Record<string, Readonly<Record<number, { owner: string; expiresAt: number }>>>>;
}

/**
 * A turn job and its position in insertion order. A session's jobs are inserted under the session lock, so that
 * order is their arrival order, even when two share a millisecond (SQL stores: an identity column).
 */
export interface SequencedTurnJob {
  job: TurnJob;
  seq: number;
}

export interface MemoryState {
  journal: Journal;
  accounts: Table<Account>;
  ledger: Table<LedgerEntry>;
  widgets: Table<Widget>;
  apiKeys: Table<ApiKey>;
  knowledgeBases: Table<KnowledgeBase>;
  /** Keyed by (knowledgeBaseId, productId); `sourceId`: the file source they came from. */
  products: Table<{ knowledgeBaseId: string; product: Product; sourceId: string | null }>;
  /** Knowledge sources by id. */
  sources: Table<KnowledgeSource>;
  /** Pages of website sources, keyed by (sourceId, url). */
  sourcePages: Table<SourcePage>;
  /** Keyed by (knowledgeBaseId, documentId). */
  documents: Table<IndexedDocument>;
  /** Knowledge base id → its vector version (see `VectorOps.vectorVersions`). */
  vectorVersions: Table<number>;
  /** Keyed by (widgetId, sessionId). */
  sessions: Table<Session>;
  /** A session's messages in seq order, keyed by (widgetId, sessionId); arrays are replaced, never mutated. */
  sessionMessages: Table<StoredMessage[]>;
  /** Message id → (widgetId, sessionId) key, for id uniqueness and lookups. */
  messageIds: Table<string>;
  /** Keyed by (accountId, visitorId). */
  visitors: Table<Visitor>;
  /** Keyed by (scope, key). */
  idempotency: Table<IdempotencyRecord>;
  settings: Table<string>;
  turnJobs: Table<SequencedTurnJob>;
  /** Last `seq` handed out; like a SQL sequence it is not rolled back, so gaps are possible. */
  turnJobSeq: { last: number };
  deliveries: Table<Delivery>;
  webhooks: Table<WebhookEndpoint>;
  /** The session event log, keyed by id. */
  sessionEvents: Table<SessionEvent>;
  /** Last event id handed out; like a SQL sequence it is not rolled back. */
  sessionEventSeq: { last: number };
  /** Rate-limit counters keyed by (client, window start in ms). */
  rateCounters: Table<{ windowStart: number; count: number }>;
  operators: Table<Operator>;
  consoleSessions: Table<ConsoleSession>;
  /** Failed sign-ins keyed by (email or address, window start in ms). */
  loginFailures: Table<{ windowStart: number; count: number }>;
  questionGroups: Table<QuestionGroup>;
  /** Keyed by (widgetId, name). */
  evalSuites: Table<StoredEvalSuite>;
  /** Keyed by run id. */
  evalRuns: Table<EvalRun>;
}

export function createMemoryState(): MemoryState {
  const journal = new Journal();
  const table = <V>(): Table<V> => new Table<V>(journal);
  return {
    journal,
    accounts: table(),
    ledger: table(),
    widgets: table(),
    apiKeys: table(),
    knowledgeBases: table(),
    products: table(),
    sources: table(),
    sourcePages: table(),
    documents: table(),
    vectorVersions: table(),
    sessions: table(),
    sessionMessages: table(),
    messageIds: table(),
    visitors: table(),
    idempotency: table(),
    settings: table(),
    turnJobs: table(),
    turnJobSeq: { last: 0 },
    deliveries: table(),
    webhooks: table(),
    sessionEvents: table(),
    sessionEventSeq: { last: 0 },
    rateCounters: table(),
    operators: table(),
    consoleSessions: table(),
    loginFailures: table(),
    questionGroups: table(),
    evalSuites: table(),
    evalRuns: table(),
  };
}
