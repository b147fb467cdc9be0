import { DEFAULT_CONFIDENCE_THRESHOLD } from '../retrieval/retrieve.js';
import { zeroCredits } from '../credits.js';
import type {
  Account,
  ApiKey,
  KnowledgeBase,
  KnowledgeDocument,
  KnowledgeSource,
  LedgerEntry,
  Product,
  Session,
  SourcePage,
  StoredMessage,
  Widget,
} from '../domain.js';
import type { Delivery, TurnJob } from '../store/turn-job-store.js';
import type { ConsoleSession, Operator } from '../store/operator-store.js';
import type { IdempotencyRecord } from '../store/store.js';
import type { WebhookEndpoint } from '../store/webhook-store.js';

/**
 * Valid entities for tests, every field filled (so a round-trip checks them all); pass overrides for what a test
 * is about. Ids are unique within the process.
 *
 * @example
 * const account = makeAccount({ balance: 5 });
 * const session = makeSession({ accountId: account.id, status: 'resolved' });
 */

/** Fixed instant the fixtures are dated from, with milliseconds so precision loss shows up. */
export const FIXTURE_TIME = new Date('2026-03-14T09:26:53.589Z');

let counter = 0;

/** `prefix_` then a process-unique, sortable suffix. */
export function fixtureId(prefix: string): string {
  counter++;
  return `${prefix}_${String(counter).padStart(6, '0')}`;
}

/** `FIXTURE_TIME` moved by `seconds`. */
export function at(seconds: number): Date {
  return new Date(FIXTURE_TIME.getTime() + seconds * 1000);
}

export function makeAccount(overrides: Partial<Account> = {}): Account {
  return { id: fixtureId('acct'), name: 'Acme Outdoor', balance: 1000, status: 'active', createdAt: at(0), ...overrides };
}

export function makeWidget(overrides: Partial<Widget> = {}): Widget {
  return {
    id: fixtureId('wgt'),
    accountId: 'acct_fixture',
    name: 'Support bot',
    instructions: 'Answer from the knowledge base. Be brief.',
    greeting: 'Hi! How can I help?',
    language: 'en',
    timezone: 'Europe/Paris',
    knowledgeBaseIds: ['kb_fixture_1', 'kb_fixture_2'],
    forms: [
      {
        id: 'callback',
        title: 'Request a call back',
        triggers: ['call me', 'phone me'],
        questions: [
          { id: 'name', label: 'Your name', kind: 'text', required: true },
          { id: 'slot', label: 'When?', kind: 'select', required: false, options: ['morning', 'afternoon'] },
          { id: 'people', label: 'How many?', kind: 'number', required: false, min: 1, max: 12 },
        ],
      },
    ],
    sessionTtlSeconds: 86_400,
    confidenceThreshold: DEFAULT_CONFIDENCE_THRESHOLD,
    theme: { primaryColor: '#4f46e5', position: 'bottom-left' },
    identitySecrets: [],
    createdAt: at(0),
    ...overrides,
  };
}

export function makeApiKey(overrides: Partial<ApiKey> = {}): ApiKey {
  const id = fixtureId('key');
  return {
    id,
    accountId: 'acct_fixture',
    kind: 'secret',
    prefix: 'sk_live_AbCd',
    hash: `hash-of-${id}`,
    scopes: ['conversations:chat', 'identity:assert'],
    callbackUrl: 'https://example.com/svc-callback',
    callbackSecret: 'whsec_fixture',
    replyFormat: 'markdown',
    widgetId: null,
    allowedOrigins: [],
    createdAt: at(0),
    revokedAt: null,
    ...overrides,
  };
}

export function makeKnowledgeBase(overrides: Partial<KnowledgeBase> = {}): KnowledgeBase {
  return { id: fixtureId('kb'), accountId: 'acct_fixture', name: 'Help centre', createdAt: at(0), ...overrides };
}

export function makeDocument(overrides: Partial<KnowledgeDocument> = {}): KnowledgeDocument {
  return {
    id: fixtureId('doc'),
    knowledgeBaseId: 'kb_fixture_1',
    sourceId: null,
    title: 'Opening hours',
    content: 'Our shop is open Monday to Saturday, 9am to 6pm.',
    url: 'https://example.com/help/hours',
    createdAt: at(0),
    ...overrides,
  };
}

export function makeSource(overrides: Partial<KnowledgeSource> = {}): KnowledgeSource {
  return {
    id: fixtureId('src'),
    knowledgeBaseId: 'kb_fixture_1',
    accountId: 'acct_fixture_1',
    type: 'website',
    url: 'https://example.com/help/',
    fileName: null,
    include: ['https://example.com/help/*'],
    exclude: ['*/private/*'],
    maxPages: 500,
    schedule: 'daily',
    status: 'ready',
    progress: { found: 5, fetched: 3, unchanged: 1, failed: 1, skipped: 0 },
    lastSync: { startedAt: at(10), finishedAt: at(20), error: null },
    nextSyncAt: at(86_420),
    generation: 1,
    lease: null,
    createdAt: at(0),
    ...overrides,
  };
}

export function makeSourcePage(overrides: Partial<SourcePage> = {}): SourcePage {
  return {
    sourceId: 'src_fixture_1',
    url: 'https://example.com/help/a',
    state: 'fetched',
    etag: '"v1"',
    lastModified: 'Sat, 14 Mar 2026 09:26:53 GMT',
    contentHash: 'ab'.repeat(32),
    documentIds: ['doc_a1', 'doc_a2'],
    links: ['https://example.com/help/b', 'https://example.com/help/c'],
    status: null,
    error: null,
    generation: 1,
    updatedAt: at(0),
    ...overrides,
  };
}

export function makeProduct(overrides: Partial<Product> = {}): Product {
  return {
    id: fixtureId('prod'),
    name: 'Trail backpack 30L',
    price: 89.9,
    currency: 'EUR',
    description: 'Light backpack for day hikes, with a rain cover.',
    url: 'https://example.com/p/backpack-30',
    imageUrl: 'https://example.com/img/backpack-30.jpg',
    ...overrides,
  };
}

export function makeSession(overrides: Partial<Session> = {}): Session {
  return {
    widgetId: 'wgt_fixture',
    id: fixtureId('sess'),
    accountId: 'acct_fixture',
    visitorId: 'visitor-42',
    status: 'active',
    language: 'en-GB',
    timezone: 'Europe/London',
    messageCount: 0,
    rating: null,
    createdAt: at(0),
    lastActivityAt: at(0),
    expiresAt: at(86_400),
    resolvedAt: null,
    pendingFormId: null,
    identitySub: null,
    creatorKeyKind: 'secret',
    creatorKeyId: null,
    handoff: null,
    handedOff: false,
    resolvedByOperator: false,
    ...overrides,
  };
}

export function makeMessage(overrides: Partial<StoredMessage> = {}): StoredMessage {
  return {
    id: fixtureId('msg'),
    widgetId: 'wgt_fixture',
    sessionId: 'sess_fixture',
    seq: 1,
    role: 'assistant',
    content: 'We ship to **Canada** in 5-7 days.',
    products: [{ id: 'prod_in_reply', name: 'Trail backpack 30L', price: 89.9, currency: 'EUR' }],
    actions: [{ type: 'link', label: 'Shipping policy', url: 'https://example.com/shipping' }],
    forms: [
      {
        formId: 'callback',
        title: 'Request a call back',
        questions: [{ id: 'slot', label: 'When?', kind: 'select', required: true, options: ['morning', 'afternoon'] }],
      },
    ],
    sessionEnded: false,
    credits: { ...zeroCredits(), chat: 1, retrieval: 1, rerank: 0.5 },
    usage: { inputTokens: 812, outputTokens: 64 },
    createdAt: at(1),
    ...overrides,
  };
}

export function makeLedgerEntry(overrides: Partial<LedgerEntry> = {}): LedgerEntry {
  return {
    id: fixtureId('led'),
    accountId: 'acct_fixture',
    operation: 'message.turn',
    widgetId: 'wgt_fixture',
    sessionId: 'sess_fixture',
    messageId: 'msg_fixture',
    credits: { ...zeroCredits(), chat: 2, retrieval: 1 },
    total: 3,
    createdAt: at(0),
    ...overrides,
  };
}

export function makeIdempotencyRecord(overrides: Partial<IdempotencyRecord> = {}): IdempotencyRecord {
  return {
    scope: 'key_fixture POST /widgets/wgt_fixture/conversations',
    key: fixtureId('idem'),
    requestHash: 'sha256-of-body',
    status: 201,
    body: '{"data":{"sessionId":"sess_1"},"meta":{"creditsConsumed":1}}',
    jobId: null,
    createdAt: at(0),
    ...overrides,
  };
}

/** A queued callback turn carrying a verified identity, as a turn's acceptance writes it. */
export function makeTurnJob(overrides: Partial<TurnJob> = {}): TurnJob {
  return {
    id: fixtureId('job'),
    accountId: 'acct_fixture',
    keyId: 'key_fixture',
    widgetId: 'wgt_fixture',
    sessionId: 'sess_fixture',
    userMessageId: fixtureId('msg'),
    replyMessageId: fixtureId('msg'),
    kind: 'message',
    mode: 'callback',
    content: 'Do you ship to Canada? 🇨🇦',
    answers: null,
    identity: { sub: 'user-7', email: 'ada@example.com', email_verified: true, plan: 'pro', seats: 3 },
    timezone: 'America/Montreal',
    status: 'queued',
    attempts: 0,
    leaseOwner: null,
    leaseExpiresAt: null,
    createdAt: at(0),
    finishedAt: null,
    error: null,
    ...overrides,
  };
}

/** A pending `message.completed` delivery, due at once. The payload's spacing and characters must survive. */
export function makeDelivery(overrides: Partial<Delivery> = {}): Delivery {
  return {
    id: fixtureId('dlv'),
    accountId: 'acct_fixture',
    keyId: 'key_fixture',
    webhookId: null,
    widgetId: 'wgt_fixture',
    sessionId: 'sess_fixture',
    messageId: 'msg_fixture',
    event: 'message.completed',
    payload: '{"event":"message.completed", "messageId":"msg_fixture","data":{"content":"Livré au Canada \\u2014 en 5-7 jours 🚚"}}',
    url: 'https://example.com/svc-callback',
    status: 'pending',
    attempts: 0,
    nextAttemptAt: at(0),
    leaseOwner: null,
    leaseExpiresAt: null,
    lastStatus: null,
    lastError: null,
    createdAt: at(0),
    deliveredAt: null,
    ...overrides,
  };
}

/** A lifecycle webhook endpoint receiving every event, with no rotation in progress. */
export function makeWebhook(overrides: Partial<WebhookEndpoint> = {}): WebhookEndpoint {
  return {
    id: fixtureId('whk'),
    accountId: 'acct_fixture',
    url: 'https://hooks.example.com/svc?tenant=ä',
    events: ['session.created', 'session.resolved', 'session.expired', 'session.rated'],
    secret: 'whsec_fixture_current',
    previousSecret: null,
    previousSecretExpiresAt: null,
    createdAt: at(0),
    ...overrides,
  };
}

export function makeOperator(overrides: Partial<Operator> = {}): Operator {
  const id = fixtureId('op');
  return {
    id,
    accountId: 'acct_fixture',
    email: `${id}@operators.example`,
    name: 'Zoë Operator',
    role: 'owner',
    passwordHash: 'scrypt$fixture',
    createdAt: at(0),
    passwordChangedAt: at(1),
    ...overrides,
  };
}

export function makeConsoleSession(overrides: Partial<ConsoleSession> = {}): ConsoleSession {
  const id = fixtureId('cs');
  return {
    id,
    tokenHash: `hash_${id}`,
    operatorId: 'op_fixture',
    accountId: 'acct_fixture',
    csrfToken: `csrf_${id}`,
    createdAt: at(0),
    expiresAt: at(3600),
    lastSeenAt: at(0),
    ...overrides,
  };
}
