import type { IdentityClaims } from './agent.js';
import type { Credits, TokenUsage } from './credits.js';

/** Entities as the engine stores them. Timestamps are `Date`s here; schemas turn them into ISO strings. */

export type AccountStatus = 'active' | 'overdue';

export interface Account {
  id: string;
  name: string;
  /** Credits left. May dip below zero by the price of the last turn: it is checked before work, debited after. */
  balance: number;
  status: AccountStatus;
  createdAt: Date;
}

export type QuestionKind =
  | 'text'
  | 'textarea'
  | 'email'
  | 'phone'
  | 'number'
  | 'boolean'
  | 'select'
  | 'multiselect'
  | 'date'
  | 'time'
  | 'datetime';

export interface FormQuestion {
  id: string;
  label: string;
  kind: QuestionKind;
  required: boolean;
  options?: string[];
  min?: number;
  max?: number;
}

export interface FormDefinition {
  id: string;
  title: string;
  /** Phrases that make the local agent surface this form. */
  triggers?: string[];
  questions: FormQuestion[];
}

/** The widget's look (`widgetThemeSchema` validates it): see schemas/widget.ts. */
export interface WidgetTheme {
  primaryColor?: string;
  title?: string;
  subtitle?: string;
  avatarUrl?: string;
  darkMode?: 'auto' | 'light' | 'dark';
  position?: 'bottom-right' | 'bottom-left';
  launcherIcon?: string;
}

/** A secret that signs the widget's identity tokens (HS256). Rotation keeps the old one until it retires. */
export interface IdentitySecret {
  secret: string;
  createdAt: Date;
  /** After this instant tokens signed with it are refused; null while it is the current secret. */
  retiresAt: Date | null;
}

export interface Widget {
  id: string;
  accountId: string;
  name: string;
  /** System instructions for the agent. */
  instructions: string;
  greeting: string;
  /** Default BCP 47 language. */
  language: string;
  /** Default IANA time zone. */
  timezone: string;
  knowledgeBaseIds: string[];
  forms: FormDefinition[];
  /** Inactivity after which an active session expires. */
  sessionTtlSeconds: number;
  /**
   * 0-1: below this retrieval confidence the agent does not answer from a passage; it says it does not know and
   * offers the closest articles and a person (DESIGN.md section 11).
   */
  confidenceThreshold: number;
  theme: WidgetTheme;
  /** Newest first. Empty: the widget accepts no identity tokens. */
  identitySecrets: IdentitySecret[];
  createdAt: Date;
}

/** `admin`: the admin API (`/admin/v1`) as the account's owner, for scripts and back offices (DESIGN.md section 10). */
export type Scope = 'conversations:chat' | 'identity:assert' | 'knowledge:read' | 'knowledge:write' | 'admin';
export const SCOPES: readonly Scope[] = ['conversations:chat', 'identity:assert', 'knowledge:read', 'knowledge:write', 'admin'];

export type ReplyFormat = 'markdown' | 'text' | 'messenger' | 'whatsapp';
export const REPLY_FORMATS: readonly ReplyFormat[] = ['markdown', 'text', 'messenger', 'whatsapp'];

export type ApiKeyKind = 'secret' | 'public';

export interface ApiKey {
  id: string;
  accountId: string;
  /** What the owner calls it (shown in listings, and as the author of operator replies sent with it); absent: unnamed. */
  name?: string;
  kind: ApiKeyKind;
  /** First characters of the key, for display in listings (`sk_live_AbCd…`). Never enough to use it. */
  prefix: string;
  /** Hex SHA-256 of the whole key. The key itself is never stored. */
  hash: string;
  scopes: Scope[];
  callbackUrl: string | null;
  /** Needed in clear to sign deliveries; shown once at creation. */
  callbackSecret: string | null;
  replyFormat: ReplyFormat;
  /** Public keys only: the widget they are bound to and the origins allowed to use them. */
  widgetId: string | null;
  allowedOrigins: string[];
  createdAt: Date;
  revokedAt: Date | null;
}

export type SessionStatus = 'active' | 'resolved' | 'expired';
export type Rating = 'positive' | 'negative';

export interface VisitorContext {
  name?: string;
  email?: string;
  phone?: string;
  company?: string;
}

/** Who answers as a person during a handoff (an operator of the console, or the CLI's `--as` name). */
export interface OperatorRef {
  /** The operator's id when known (console); null for a name only (CLI, server key). */
  id: string | null;
  name: string;
}

/**
 * A handoff to a person (DESIGN.md section 6): `requested` by the visitor (through the agent) or taken over by an
 * operator (`active`). While it is set the AI does not answer; releasing it clears it.
 */
export interface Handoff {
  state: 'requested' | 'active';
  since: Date;
  operator: OperatorRef | null;
}

export interface Session {
  widgetId: string;
  id: string;
  accountId: string;
  visitorId: string;
  status: SessionStatus;
  language: string | null;
  timezone: string | null;
  messageCount: number;
  rating: Rating | null;
  createdAt: Date;
  lastActivityAt: Date;
  /** When the session expires if nothing happens before; pushed forward by every activity. */
  expiresAt: Date;
  resolvedAt: Date | null;
  /** Form surfaced by the last reply and not yet answered. */
  pendingFormId: string | null;
  /** The verified `sub` the session was created with (widget identity token); others may not use it. */
  identitySub: string | null;
  /**
   * The kind of key that created the session. Sessions a server key created are never reachable with a public
   * key (DESIGN.md section 4): their ids may be guessable (order numbers), and a browser must not open them.
   */
  creatorKeyKind: ApiKeyKind;
  /** The key that created the session: operator replies reach its callback URL. Null for sessions older than it. */
  creatorKeyId: string | null;
  /** Null while the AI answers. */
  handoff: Handoff | null;
  /** Whether a handoff was ever requested or taken over; stays true once released or resolved (the handoff rate). */
  handedOff: boolean;
  /** Whether an operator resolved the conversation (rather than its visitor, caller or agent). */
  resolvedByOperator: boolean;
  /**
   * `evaluation` for a conversation an eval run holds (DESIGN.md section 12): never billed, never in analytics, left
   * out of the conversations list unless asked for. Absent means `visitor`.
   */
  purpose?: SessionPurpose;
}

export type SessionPurpose = 'visitor' | 'evaluation';

export interface Product {
  id: string;
  name: string;
  price: number;
  currency?: string;
  description?: string;
  url?: string;
  imageUrl?: string;
}

export type MessageRole = 'user' | 'assistant';

export interface SurfacedForm {
  formId: string;
  title: string;
  questions: FormQuestion[];
}

/**
 * A button under a reply (DESIGN.md section 13): `reply` sends `text` as the visitor's next message (a quick reply),
 * `link` opens an http(s) address in a new tab.
 */
export type MessageAction = { type: 'reply'; label: string; text: string } | { type: 'link'; label: string; url: string };

/** A knowledge document an answer used (DESIGN.md section 11); suggestions offered instead of an answer are not sources. */
export interface MessageSource {
  documentId: string;
  title: string;
  url: string | null;
}

/**
 * What became of a visitor's message (DESIGN.md section 12): answered from knowledge (or small talk), unanswered
 * (the agent did not know), handed to a person, answered with a form, or the conversation ended.
 */
export type MessageOutcome = 'answered' | 'unanswered' | 'handed_off' | 'form' | 'ended';
export const MESSAGE_OUTCOMES: readonly MessageOutcome[] = ['answered', 'unanswered', 'handed_off', 'form', 'ended'];

/** Set on the messages a person wrote (role `assistant`); AI and visitor messages have none. */
export interface MessageAuthor {
  type: 'operator';
  name: string;
}

export interface StoredMessage {
  id: string;
  widgetId: string;
  sessionId: string;
  /** 1-based position in the session; history pages are keyed on it. */
  seq: number;
  role: MessageRole;
  content: string;
  products: Product[];
  actions: MessageAction[];
  forms: SurfacedForm[];
  sessionEnded: boolean;
  credits: Credits | null;
  usage: TokenUsage | null;
  createdAt: Date;
  /** Operator messages only (absent, not undefined, on every other message). */
  author?: MessageAuthor;
  /** AI replies: the documents the answer used (absent on visitor and operator messages, and on older replies). */
  sources?: MessageSource[];
  /** AI replies: what the turn came to, and the retrieval confidence it was decided on (null: no retrieval). */
  outcome?: MessageOutcome;
  confidence?: number | null;
  /** AI replies a visitor rated (DESIGN.md section 12): absent until rated; a new rating replaces it. */
  feedback?: MessageFeedback;
}

/** A visitor's thumbs on one reply (DESIGN.md section 12). */
export type FeedbackRating = 'up' | 'down';
export type FeedbackReason = 'wrong' | 'incomplete' | 'unhelpful' | 'other';
export interface MessageFeedback {
  rating: FeedbackRating;
  reason: FeedbackReason | null;
  comment: string | null;
  updatedAt: Date;
}

/**
 * A group of similar questions the assistant failed (DESIGN.md section 12): asked and unanswered, or asked before a
 * reply rated thumbs-down. Built incrementally: each new question joins the most similar open group of its widget
 * and kind, or opens one.
 */
export type QuestionGroupKind = 'unanswered' | 'thumbs_down';
export type QuestionGroupStatus = 'open' | 'resolved' | 'dismissed';
export interface QuestionGroup {
  id: string;
  accountId: string;
  widgetId: string;
  kind: QuestionGroupKind;
  status: QuestionGroupStatus;
  /** The first question of the group, as asked. */
  sample: string;
  /** The sample's distinct terms (folded, stemmed, no stopwords): what later questions are compared with. */
  terms: string[];
  count: number;
  firstAskedAt: Date;
  lastAskedAt: Date;
  /** The sessions that asked, oldest first, at most {@link MAX_GROUP_SESSIONS} (the newest kept). */
  sessions: string[];
  /** Questions per UTC day (`YYYY-MM-DD`). */
  daily: Record<string, number>;
  /** When it was resolved or dismissed. */
  closedAt: Date | null;
  /** The knowledge document written as its answer. */
  documentId: string | null;
}
export const MAX_GROUP_SESSIONS = 20;

export interface KnowledgeBase {
  id: string;
  accountId: string;
  name: string;
  createdAt: Date;
}

export interface KnowledgeDocument {
  id: string;
  knowledgeBaseId: string;
  /** The source it came from (a website page, a file, the manual source); null only for documents stored without one. */
  sourceId: string | null;
  title: string;
  content: string;
  url: string | null;
  createdAt: Date;
}

export type SourceType = 'website' | 'file' | 'manual';
export type SourceStatus = 'queued' | 'syncing' | 'ready' | 'failed';
export type SourceSchedule = 'off' | 'daily' | 'weekly';

export interface SourceProgress {
  /** Pages that entered this sync's frontier. */
  found: number;
  fetched: number;
  unchanged: number;
  failed: number;
  skipped: number;
}

/**
 * A knowledge source (DESIGN.md section 11 "Sources"): a website crawled by the sync job, an uploaded file, or the
 * knowledge base's one manual source (the documents API).
 */
export interface KnowledgeSource {
  id: string;
  knowledgeBaseId: string;
  accountId: string;
  type: SourceType;
  /** The start URL or sitemap of a website. */
  url: string | null;
  /** The uploaded file's name. */
  fileName: string | null;
  include: string[];
  exclude: string[];
  maxPages: number | null;
  schedule: SourceSchedule;
  status: SourceStatus;
  progress: SourceProgress;
  lastSync: { startedAt: Date; finishedAt: Date | null; error: string | null } | null;
  /** When the schedule queues the next sync (null: only on demand). */
  nextSyncAt: Date | null;
  /** Counts syncs: a page reached by this sync carries the number, one not reached is removed at its end. */
  generation: number;
  /** The sync job's claim: a crashed worker's source is resumed by another once `expiresAt` passes. */
  lease: { owner: string; expiresAt: Date } | null;
  createdAt: Date;
}

/** Where a page of a website source stands: `pending` pages are the frontier of the running sync. */
export type SourcePageState = 'pending' | 'fetched' | 'unchanged' | 'failed' | 'skipped' | 'gone';

/** A page of a website source, by canonical URL (unique per source). */
export interface SourcePage {
  sourceId: string;
  url: string;
  state: SourcePageState;
  /** The validators the site sent, replayed on the next read (If-None-Match, If-Modified-Since). */
  etag: string | null;
  lastModified: string | null;
  /** SHA-256 of the page's extracted text, hex: two pages of a source with the same hash are one page. */
  contentHash: string | null;
  /** The documents the page was stored as (one, or its parts when longer than a document may be). */
  documentIds: string[];
  /** Its outgoing links (or a sitemap's URLs), so a page unchanged since the last sync still leads the crawl on. */
  links: string[];
  /** The HTTP status of a gone or failed read. */
  status: number | null;
  /** Why it failed or was skipped. */
  error: string | null;
  /** The sync that last reached it ({@link KnowledgeSource.generation}). */
  generation: number;
  updatedAt: Date;
}

export interface Visitor {
  accountId: string;
  visitorId: string;
  context: VisitorContext;
  updatedAt: Date;
}

export interface LedgerEntry {
  id: string;
  accountId: string;
  /** What was paid for: `session.create`, `message.turn`, `messages.list`… */
  operation: string;
  widgetId: string | null;
  sessionId: string | null;
  messageId: string | null;
  credits: Credits;
  total: number;
  createdAt: Date;
}

/** Who is calling: resolved from the API key by the adapter, trusted by the engine. */
export interface Principal {
  accountId: string;
  keyId: string;
  kind: ApiKeyKind;
  scopes: readonly Scope[];
  callbackUrl: string | null;
  replyFormat: ReplyFormat;
  /** Public keys: the only widget they may address. */
  widgetId: string | null;
  /** Public keys: claims of a verified widget identity token sent with this request (spec 4.9, 5.4). */
  identity: IdentityClaims | null;
}
