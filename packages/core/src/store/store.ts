import type { TurnJobOps, StoreSignal } from './turn-job-store.js';
import type { GuardOps } from './guard-store.js';
import type { OperatorOps } from './operator-store.js';
import type { WebhookOps } from './webhook-store.js';
import type { SessionEventOps } from './session-event-store.js';
import type { AnalyticsOps } from './analytics-store.js';
import type { EvalOps } from './eval-store.js';
import type { VectorOps } from './vector-store.js';
import type { SourceOps } from './source-store.js';
import type { QuestionOps } from './question-store.js';
import type {
  Account,
  ApiKey,
  KnowledgeBase,
  KnowledgeDocument,
  LedgerEntry,
  MessageFeedback,
  Product,
  Session,
  StoredMessage,
  Visitor,
  VisitorContext,
  Widget,
} from '../domain.js';

/**
 * The storage port. One contract suite (`@svc/core/testing`) runs against every implementation: the memory
 * store here, PGlite and PostgreSQL. Methods are small and each is atomic on its own; several are made atomic
 * together with {@link Store.transaction}. `insert…` methods reject an id that already exists unless stated
 * otherwise. Returned objects are the caller's: mutating them changes nothing stored.
 */
export interface StoreOps extends TurnJobOps, GuardOps, WebhookOps, SessionEventOps, OperatorOps, AnalyticsOps, VectorOps, SourceOps, QuestionOps, EvalOps {
  // Accounts and credits
  insertAccount(account: Account): Promise<void>;
  getAccount(id: string): Promise<Account | null>;
  setAccountBalance(id: string, balance: number): Promise<boolean>;
  setAccountStatus(id: string, status: Account['status']): Promise<boolean>;
  /** Subtracts `amount` and returns the new balance (null when the account does not exist). Atomic. */
  debitAccount(id: string, amount: number): Promise<number | null>;
  insertLedgerEntry(entry: LedgerEntry): Promise<void>;
  /**
   * Debits `entry.total` and writes the ledger row, atomically and in one round trip; returns the new balance, or
   * null (and writes nothing) when the account does not exist.
   */
  chargeAccount(entry: LedgerEntry): Promise<number | null>;
  /** Newest first. */
  listLedgerEntries(accountId: string, limit: number): Promise<LedgerEntry[]>;

  // Widgets
  insertWidget(widget: Widget): Promise<void>;
  getWidget(id: string): Promise<Widget | null>;
  updateWidget(id: string, patch: Partial<Omit<Widget, 'id' | 'accountId' | 'createdAt'>>): Promise<boolean>;
  /** Oldest first. */
  listWidgets(accountId: string): Promise<Widget[]>;

  // API keys
  insertApiKey(key: ApiKey): Promise<void>;
  getApiKey(id: string): Promise<ApiKey | null>;
  findApiKeyByHash(hash: string): Promise<ApiKey | null>;
  /** All keys, or one account's, oldest first. */
  listApiKeys(accountId?: string): Promise<ApiKey[]>;
  /** Sets `revokedAt`; false when the key is unknown or already revoked (the first revocation time stands). */
  revokeApiKey(id: string, at: Date): Promise<boolean>;

  // Knowledge
  insertKnowledgeBase(kb: KnowledgeBase): Promise<void>;
  getKnowledgeBase(id: string): Promise<KnowledgeBase | null>;
  /** One account's knowledge bases, oldest first. */
  listKnowledgeBases(accountId: string): Promise<KnowledgeBase[]>;
  /**
   * Insert or replace products by id within the knowledge base; `sourceId` is the file source they came from
   * (DESIGN.md section 11 "Sources": deleting the source deletes them), null or absent for the products API's.
   */
  upsertProducts(knowledgeBaseId: string, products: Product[], sourceId?: string | null): Promise<void>;
  deleteProduct(knowledgeBaseId: string, productId: string): Promise<boolean>;
  /** Ordered by product id; `afterId` is the keyset position (exclusive). */
  listProducts(query: { knowledgeBaseId: string; afterId?: string; limit: number }): Promise<Product[]>;
  countProducts(knowledgeBaseId: string): Promise<number>;
  insertDocument(doc: KnowledgeDocument): Promise<void>;
  getDocument(knowledgeBaseId: string, documentId: string): Promise<KnowledgeDocument | null>;
  deleteDocument(knowledgeBaseId: string, documentId: string): Promise<boolean>;
  /** Deletes those of `documentIds` that exist in the knowledge base; returns how many. */
  deleteDocuments(knowledgeBaseId: string, documentIds: string[]): Promise<number>;
  /** Oldest first. */
  listDocuments(knowledgeBaseId: string): Promise<KnowledgeDocument[]>;
  /**
   * Ranked full-text search over documents (as passages, see `chunkDocument`) and products of the given knowledge
   * bases only. Words are OR-ed; hits have rank > 0, best first; `limit` applies to passages and products each.
   */
  searchKnowledge(query: KnowledgeQuery): Promise<KnowledgeHits>;

  // Sessions
  /** Inserts unless a session with the same (widgetId, id) exists; says which happened. */
  insertSession(session: Session): Promise<{ inserted: boolean }>;
  getSession(widgetId: string, sessionId: string): Promise<Session | null>;
  /**
   * Reads the session and, inside a transaction, locks its row until the transaction ends (`SELECT … FOR UPDATE`):
   * every change to a session and its turn jobs happens in a short transaction that starts here, so they apply one
   * at a time without any lock held across transactions.
   */
  lockSession(widgetId: string, sessionId: string): Promise<Session | null>;
  /**
   * {@link lockSession} and the paying account in one round trip (accepting a turn). Null when the session does not
   * exist. On PostgreSQL the account is as of the statement's start (a debit committed while it waited for the row
   * lock may not show), which the balance check tolerates: balances may dip below zero by the last turn's price.
   * Anything that must see what committed while waiting (a session's unfinished jobs) is read by a later statement.
   */
  lockSessionForTurn(widgetId: string, sessionId: string, accountId: string): Promise<{ session: Session; account: Account | null } | null>;
  updateSession(widgetId: string, sessionId: string, patch: SessionPatch): Promise<Session | null>;
  /** Marks every active session whose `expiresAt` is at or before `now` as expired; returns how many. */
  expireSessions(now: Date): Promise<number>;

  // Messages
  /** Fails if (widgetId, sessionId, seq) or the message id exists. */
  insertMessage(message: StoredMessage): Promise<void>;
  getMessage(widgetId: string, sessionId: string, messageId: string): Promise<StoredMessage | null>;
  /** Oldest first, seq > afterSeq. */
  listMessages(query: { widgetId: string; sessionId: string; afterSeq?: number; limit: number }): Promise<StoredMessage[]>;
  /** The last `limit` messages, returned oldest first (for agent context). */
  recentMessages(query: { widgetId: string; sessionId: string; limit: number }): Promise<StoredMessage[]>;
  /** Sets (replaces) a message's feedback; returns the message after, or null when it does not exist. */
  setMessageFeedback(query: { widgetId: string; sessionId: string; messageId: string; feedback: MessageFeedback }): Promise<StoredMessage | null>;

  // Visitors
  /** Merges the defined fields of `context` into the stored record, creating it if needed. */
  upsertVisitor(accountId: string, visitorId: string, context: VisitorContext, at: Date): Promise<Visitor>;
  getVisitor(accountId: string, visitorId: string): Promise<Visitor | null>;

  // Idempotency records (DESIGN.md section 4)
  getIdempotencyRecord(scope: string, key: string): Promise<IdempotencyRecord | null>;
  /** Inserts unless present; returns false when a record already exists. */
  putIdempotencyRecord(record: IdempotencyRecord): Promise<boolean>;
  /**
   * Settles a pending record (status 0): stores the response to replay, or with null deletes the record (the request
   * failed; a retry may run). Only a record still pending with `requestHash` is touched; true when one was.
   */
  settleIdempotencyRecord(
    scope: string,
    key: string,
    requestHash: string,
    response: { status: number; body: string } | null,
  ): Promise<boolean>;
  deleteIdempotencyRecordsBefore(before: Date): Promise<number>;

  // Settings (server-wide secrets such as the cursor key)
  /** Returns the stored value for `name`, storing `create()`'s result first if there is none. Race-safe. */
  getOrCreateSetting(name: string, create: () => string): Promise<string>;
}

export type SessionPatch = Partial<
  Pick<
    Session,
    | 'status'
    | 'language'
    | 'timezone'
    | 'messageCount'
    | 'rating'
    | 'lastActivityAt'
    | 'expiresAt'
    | 'resolvedAt'
    | 'pendingFormId'
    | 'identitySub'
    | 'handoff'
    | 'handedOff'
    | 'resolvedByOperator'
  >
>;

export interface KnowledgeQuery {
  knowledgeBaseIds: string[];
  text: string;
  /** BCP 47 language of the text, used to pick the stemming configuration where known. */
  language?: string;
  limit: number;
}

/**
 * The query's terms a hit contains, as the store reads words (its stemmer, its stopwords): `title` those in the
 * document's title or the product's name, `all` those anywhere. With {@link TermStatistics} they give retrieval its
 * confidence (DESIGN.md section 11): how much of the question the hit covers, rare words counting most.
 */
export interface TermMatch {
  title: string[];
  all: string[];
  /** How often each term of `all` occurs in the title and in the rest (the body, its heading trail included). */
  counts: Record<string, { title: number; body: number }>;
  /** Words the title and the rest hold, as the store counts them (its stopwords left out). */
  length: { title: number; body: number };
}

export interface KnowledgePassage {
  documentId: string;
  knowledgeBaseId: string;
  /** The passage's place in its document (`DocumentChunk.position`): with the ids, its key. */
  position: number;
  title: string;
  url: string | null;
  /** The chunk of the document that matched. */
  content: string;
  /** The store's text rank: comparable only within one answer of one store. */
  rank: number;
  matched: TermMatch;
}

export interface ProductHit {
  knowledgeBaseId: string;
  product: Product;
  rank: number;
  matched: TermMatch;
}

/** How common each of the query's terms is among the passages of the knowledge bases searched. */
export interface TermStatistics {
  /** Passages in the knowledge bases searched. */
  passages: number;
  /** Every term of the query as the store reads it → passages holding it (0 when none). */
  frequencies: Record<string, number>;
}

export interface KnowledgeHits {
  passages: KnowledgePassage[];
  products: ProductHit[];
  terms: TermStatistics;
}

export interface IdempotencyRecord {
  /** Who the key belongs to (the API key id and verified identity) and what it was used on (method and path). */
  scope: string;
  key: string;
  /** Hash of the request body, to refuse a key reused with different content. */
  requestHash: string;
  /** The first response, replayed as is (non-turn requests); 0 and '' for a turn, whose job holds the outcome. */
  status: number;
  body: string;
  /** Turns: the job whose reply a repeat answers with. */
  jobId: string | null;
  createdAt: Date;
}

export interface Store extends StoreOps {
  /** Runs `fn` atomically: all its writes commit together or none do. Nested calls join the outer one. */
  transaction<T>(fn: (tx: StoreOps) => Promise<T>): Promise<T>;
  /**
   * Calls `listener` for turn events published by any process sharing the store, this one included, after the
   * publishing transaction commits. Best effort (a dropped database connection may lose some): callers keep a
   * polling fallback. Returns the unsubscribe function.
   */
  subscribeSignals(listener: (event: StoreSignal) => void): () => void;
  close(): Promise<void>;
}
