import type { Account, ApiKey, ConsoleSession, Credits, Delivery, WebhookEndpoint, FormDefinition, IdentityClaims, IdentitySecret, KnowledgeBase, KnowledgeDocument, LedgerEntry, Handoff, MessageAction, MessageAuthor, MessageFeedback, MessageOutcome, MessageSource, QuestionGroup, Operator, Product, Scope, Session, StoredMessage, SurfacedForm, TokenUsage, TurnJob, Visitor, VisitorContext, Widget, WidgetTheme } from '@svc/core/store-kit';

/**
 * Rows as both drivers return them: `timestamptz` as Date, JSONB parsed, `double precision` and `integer` as numbers.
 * Mappers rename columns and turn SQL nulls of optional product fields back into absent properties.
 */

export interface AccountRow {
  id: string;
  name: string;
  balance: number;
  status: Account['status'];
  created_at: Date;
}

export const toAccount = (row: AccountRow): Account => ({
  id: row.id,
  name: row.name,
  balance: Number(row.balance),
  status: row.status,
  createdAt: row.created_at,
});

export interface LedgerEntryRow {
  id: string;
  account_id: string;
  operation: string;
  widget_id: string | null;
  session_id: string | null;
  message_id: string | null;
  credits: Credits;
  total: number;
  created_at: Date;
}

export const toLedgerEntry = (row: LedgerEntryRow): LedgerEntry => ({
  id: row.id,
  accountId: row.account_id,
  operation: row.operation,
  widgetId: row.widget_id,
  sessionId: row.session_id,
  messageId: row.message_id,
  credits: row.credits,
  total: Number(row.total),
  createdAt: row.created_at,
});

export interface WidgetRow {
  id: string;
  account_id: string;
  name: string;
  instructions: string;
  greeting: string;
  language: string;
  timezone: string;
  knowledge_base_ids: string[];
  forms: FormDefinition[];
  session_ttl_seconds: number;
  confidence_threshold: number;
  theme: WidgetTheme;
  identity_secrets: StoredIdentitySecret[];
  created_at: Date;
}

/** An identity secret as JSONB holds it: instants as ISO strings (what `JSON.stringify` makes of a Date). */
export interface StoredIdentitySecret {
  secret: string;
  createdAt: string;
  retiresAt: string | null;
}

export const toWidget = (row: WidgetRow): Widget => ({
  id: row.id,
  accountId: row.account_id,
  name: row.name,
  instructions: row.instructions,
  greeting: row.greeting,
  language: row.language,
  timezone: row.timezone,
  knowledgeBaseIds: row.knowledge_base_ids,
  forms: row.forms,
  sessionTtlSeconds: row.session_ttl_seconds,
  confidenceThreshold: row.confidence_threshold,
  theme: row.theme,
  identitySecrets: row.identity_secrets.map(toIdentitySecret),
  createdAt: row.created_at,
});

const toIdentitySecret = (stored: StoredIdentitySecret): IdentitySecret => ({
  secret: stored.secret,
  createdAt: new Date(stored.createdAt),
  retiresAt: stored.retiresAt === null ? null : new Date(stored.retiresAt),
});

export interface ApiKeyRow {
  id: string;
  account_id: string;
  kind: ApiKey['kind'];
  prefix: string;
  hash: string;
  scopes: Scope[];
  callback_url: string | null;
  callback_secret: string | null;
  reply_format: ApiKey['replyFormat'];
  widget_id: string | null;
  allowed_origins: string[];
  created_at: Date;
  revoked_at: Date | null;
  name: string | null;
}

export const toApiKey = (row: ApiKeyRow): ApiKey => ({
  id: row.id,
  accountId: row.account_id,
  ...(row.name === null ? {} : { name: row.name }),
  kind: row.kind,
  prefix: row.prefix,
  hash: row.hash,
  scopes: row.scopes,
  callbackUrl: row.callback_url,
  callbackSecret: row.callback_secret,
  replyFormat: row.reply_format,
  widgetId: row.widget_id,
  allowedOrigins: row.allowed_origins,
  createdAt: row.created_at,
  revokedAt: row.revoked_at,
});

export interface KnowledgeBaseRow {
  id: string;
  account_id: string;
  name: string;
  created_at: Date;
}

export const toKnowledgeBase = (row: KnowledgeBaseRow): KnowledgeBase => ({
  id: row.id,
  accountId: row.account_id,
  name: row.name,
  createdAt: row.created_at,
});

export interface ProductRow {
  knowledge_base_id: string;
  id: string;
  name: string;
  price: number;
  currency: string | null;
  description: string | null;
  url: string | null;
  image_url: string | null;
}

const PRODUCT_COLUMN_NAMES = ['knowledge_base_id', 'id', 'name', 'price', 'currency', 'description', 'url', 'image_url'];

/** The `select` list of a product row, without its search vector, optionally qualified by a table alias. */
export function productColumns(alias?: string): string {
  return PRODUCT_COLUMN_NAMES.map((column) => (alias ? `${alias}.${column}` : column)).join(', ');
}

export function toProduct(row: ProductRow): Product {
  const product: Product = { id: row.id, name: row.name, price: Number(row.price) };
  if (row.currency !== null) product.currency = row.currency;
  if (row.description !== null) product.description = row.description;
  if (row.url !== null) product.url = row.url;
  if (row.image_url !== null) product.imageUrl = row.image_url;
  return product;
}

export interface DocumentRow {
  knowledge_base_id: string;
  id: string;
  title: string;
  content: string;
  url: string | null;
  /** Migration 12. */
  source_id?: string | null;
  created_at: Date;
}

export const toDocument = (row: DocumentRow): KnowledgeDocument => ({
  id: row.id,
  knowledgeBaseId: row.knowledge_base_id,
  sourceId: row.source_id ?? null,
  title: row.title,
  content: row.content,
  url: row.url,
  createdAt: row.created_at,
});

export interface SessionRow {
  widget_id: string;
  id: string;
  account_id: string;
  visitor_id: string;
  status: Session['status'];
  language: string | null;
  timezone: string | null;
  message_count: number;
  rating: Session['rating'];
  created_at: Date;
  last_activity_at: Date;
  expires_at: Date;
  resolved_at: Date | null;
  pending_form_id: string | null;
  identity_sub: string | null;
  creator_key_kind: Session['creatorKeyKind'];
  creator_key_id: string | null;
  handoff: StoredHandoff | null;
  handed_off: boolean;
  resolved_by_operator: boolean;
  purpose: 'visitor' | 'evaluation';
}

/** `sessions.handoff` as JSON: the instant as an ISO string. */
export interface StoredHandoff {
  state: Handoff['state'];
  since: string;
  operator: Handoff['operator'];
}

export const storedHandoff = (handoff: Handoff | null): StoredHandoff | null =>
  handoff === null ? null : { state: handoff.state, since: handoff.since.toISOString(), operator: handoff.operator };

export const toSession = (row: SessionRow): Session => ({
  widgetId: row.widget_id,
  id: row.id,
  accountId: row.account_id,
  visitorId: row.visitor_id,
  status: row.status,
  language: row.language,
  timezone: row.timezone,
  messageCount: row.message_count,
  rating: row.rating,
  createdAt: row.created_at,
  lastActivityAt: row.last_activity_at,
  expiresAt: row.expires_at,
  resolvedAt: row.resolved_at,
  pendingFormId: row.pending_form_id,
  identitySub: row.identity_sub,
  creatorKeyKind: row.creator_key_kind,
  creatorKeyId: row.creator_key_id,
  handoff: row.handoff === null ? null : { state: row.handoff.state, since: new Date(row.handoff.since), operator: row.handoff.operator },
  handedOff: row.handed_off,
  resolvedByOperator: row.resolved_by_operator,
  // Only evaluation sessions carry it, as the memory store keeps what it was given (a visitor's has none).
  ...(row.purpose === 'evaluation' ? { purpose: row.purpose } : {}),
});

export interface MessageRow {
  id: string;
  widget_id: string;
  session_id: string;
  seq: number;
  role: StoredMessage['role'];
  content: string;
  products: Product[];
  actions: MessageAction[];
  forms: SurfacedForm[];
  session_ended: boolean;
  credits: Credits | null;
  usage: TokenUsage | null;
  created_at: Date;
  author: MessageAuthor | null;
  sources: MessageSource[] | null;
  outcome: MessageOutcome | null;
  confidence: number | null;
  /** `updatedAt` as ISO text: a JSON column (or a message inside a JSON history) keeps no dates. */
  feedback?: (Omit<MessageFeedback, 'updatedAt'> & { updatedAt: string | Date }) | null;
}

export const toMessage = (row: MessageRow): StoredMessage => ({
  id: row.id,
  widgetId: row.widget_id,
  sessionId: row.session_id,
  seq: row.seq,
  role: row.role,
  content: row.content,
  products: row.products,
  actions: row.actions,
  forms: row.forms,
  sessionEnded: row.session_ended,
  credits: row.credits,
  usage: row.usage,
  createdAt: row.created_at,
  // Operator replies only: every other message has no `author` at all, as the memory store keeps them.
  ...(row.author === null || row.author === undefined ? {} : { author: row.author }),
  // AI replies only, as the memory store keeps them: other messages have none of the three.
  ...(row.sources === null || row.sources === undefined ? {} : { sources: row.sources }),
  ...(row.outcome === null || row.outcome === undefined ? {} : { outcome: row.outcome, confidence: row.confidence }),
  // Rated replies only, as the memory store keeps them.
  ...(row.feedback === null || row.feedback === undefined ? {} : { feedback: { ...row.feedback, updatedAt: new Date(row.feedback.updatedAt) } }),
});

export interface QuestionGroupRow {
  id: string;
  account_id: string;
  widget_id: string;
  kind: QuestionGroup['kind'];
  status: QuestionGroup['status'];
  sample: string;
  terms: string[];
  count: number;
  first_asked_at: Date;
  last_asked_at: Date;
  sessions: string[];
  daily: Record<string, number>;
  closed_at: Date | null;
  document_id: string | null;
}

export const toQuestionGroup = (row: QuestionGroupRow): QuestionGroup => ({
  id: row.id,
  accountId: row.account_id,
  widgetId: row.widget_id,
  kind: row.kind,
  status: row.status,
  sample: row.sample,
  terms: row.terms,
  count: row.count,
  firstAskedAt: row.first_asked_at,
  lastAskedAt: row.last_asked_at,
  sessions: row.sessions,
  daily: row.daily,
  closedAt: row.closed_at,
  documentId: row.document_id,
});

export interface VisitorRow {
  account_id: string;
  visitor_id: string;
  context: VisitorContext;
  updated_at: Date;
}

export const toVisitor = (row: VisitorRow): Visitor => ({
  accountId: row.account_id,
  visitorId: row.visitor_id,
  context: row.context,
  updatedAt: row.updated_at,
});

export interface TurnJobRow {
  id: string;
  /** Insertion order; internal to the store. */
  seq: string | number;
  account_id: string;
  key_id: string;
  widget_id: string;
  session_id: string;
  user_message_id: string;
  reply_message_id: string;
  kind: TurnJob['kind'];
  mode: TurnJob['mode'];
  content: string;
  answers: TurnJob['answers'];
  identity: IdentityClaims | null;
  timezone: string | null;
  status: TurnJob['status'];
  attempts: number;
  lease_owner: string | null;
  lease_expires_at: Date | null;
  created_at: Date;
  finished_at: Date | null;
  error: string | null;
}

export const toTurnJob = (row: TurnJobRow): TurnJob => ({
  id: row.id,
  accountId: row.account_id,
  keyId: row.key_id,
  widgetId: row.widget_id,
  sessionId: row.session_id,
  userMessageId: row.user_message_id,
  replyMessageId: row.reply_message_id,
  kind: row.kind,
  mode: row.mode,
  content: row.content,
  answers: row.answers,
  identity: row.identity,
  timezone: row.timezone,
  status: row.status,
  attempts: row.attempts,
  leaseOwner: row.lease_owner,
  leaseExpiresAt: row.lease_expires_at,
  createdAt: row.created_at,
  finishedAt: row.finished_at,
  error: row.error,
});

export interface DeliveryRow {
  id: string;
  account_id: string;
  key_id: string | null;
  webhook_id: string | null;
  widget_id: string;
  session_id: string;
  message_id: string | null;
  event: Delivery['event'];
  payload: string;
  url: string;
  status: Delivery['status'];
  attempts: number;
  next_attempt_at: Date;
  lease_owner: string | null;
  lease_expires_at: Date | null;
  last_status: number | null;
  last_error: string | null;
  created_at: Date;
  delivered_at: Date | null;
}

export const toDelivery = (row: DeliveryRow): Delivery => ({
  id: row.id,
  accountId: row.account_id,
  keyId: row.key_id,
  webhookId: row.webhook_id,
  widgetId: row.widget_id,
  sessionId: row.session_id,
  messageId: row.message_id,
  event: row.event,
  payload: row.payload,
  url: row.url,
  status: row.status,
  attempts: row.attempts,
  nextAttemptAt: row.next_attempt_at,
  leaseOwner: row.lease_owner,
  leaseExpiresAt: row.lease_expires_at,
  lastStatus: row.last_status,
  lastError: row.last_error,
  createdAt: row.created_at,
  deliveredAt: row.delivered_at,
});

export interface WebhookRow {
  id: string;
  account_id: string;
  url: string;
  events: WebhookEndpoint['events'];
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  created_at: Date;
}

export const toWebhook = (row: WebhookRow): WebhookEndpoint => ({
  id: row.id,
  accountId: row.account_id,
  url: row.url,
  events: row.events,
  secret: row.secret,
  previousSecret: row.previous_secret,
  previousSecretExpiresAt: row.previous_secret_expires_at,
  createdAt: row.created_at,
});

export interface OperatorRow {
  id: string;
  account_id: string;
  email: string;
  name: string;
  role: Operator['role'];
  password_hash: string;
  created_at: Date;
  password_changed_at: Date;
}

export const toOperator = (row: OperatorRow): Operator => ({
  id: row.id,
  accountId: row.account_id,
  email: row.email,
  name: row.name,
  role: row.role,
  passwordHash: row.password_hash,
  createdAt: row.created_at,
  passwordChangedAt: row.password_changed_at,
});

export interface ConsoleSessionRow {
  id: string;
  token_hash: string;
  operator_id: string;
  account_id: string;
  csrf_token: string;
  created_at: Date;
  expires_at: Date;
  last_seen_at: Date;
}

export const toConsoleSession = (row: ConsoleSessionRow): ConsoleSession => ({
  id: row.id,
  tokenHash: row.token_hash,
  operatorId: row.operator_id,
  accountId: row.account_id,
  csrfToken: row.csrf_token,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  lastSeenAt: row.last_seen_at,
});

/** JSONB parameters are sent as JSON text and cast in SQL (`$1::jsonb`): both drivers then agree on the encoding. */
export const json = (value: unknown): string => JSON.stringify(value);
