import { DEFAULT_CONFIDENCE_THRESHOLD } from '@svc/core/store-kit';
import type { AgentRequest, Session, Store, Widget } from '@svc/core/store-kit';
import { createMemoryStore } from '@svc/core/testing';
import { DEMO_FORMS } from './demo/demo-forms.js';
import { DEMO_KNOWLEDGE } from './demo/demo-knowledge.js';

/** Shared by this package's tests; not exported from the package. */

const CREATED = new Date('2026-01-01T00:00:00.000Z');
export const ACCOUNT_ID = 'acct_demo';
export const KNOWLEDGE_BASE_ID = 'kb_demo';

/** A memory store holding the demo knowledge base, as the server seeds it on first run. */
export async function seedDemoStore(): Promise<Store> {
  const store = createMemoryStore();
  await store.insertAccount({ id: ACCOUNT_ID, name: 'Demo', balance: 1000, status: 'active', createdAt: CREATED });
  await store.insertKnowledgeBase({ id: KNOWLEDGE_BASE_ID, accountId: ACCOUNT_ID, name: DEMO_KNOWLEDGE.name, createdAt: CREATED });
  await store.upsertProducts(KNOWLEDGE_BASE_ID, DEMO_KNOWLEDGE.products);
  for (const [index, doc] of DEMO_KNOWLEDGE.documents.entries()) {
    await store.insertDocument({ id: `doc_${index + 1}`, knowledgeBaseId: KNOWLEDGE_BASE_ID, sourceId: null, ...doc, createdAt: CREATED });
  }
  return store;
}

export function demoWidget(overrides: Partial<Widget> = {}): Widget {
  return {
    id: 'wgt_demo',
    accountId: ACCOUNT_ID,
    name: 'Northwind Outfitters',
    instructions: 'You are the helpful assistant of Northwind Outfitters, an outdoor gear shop.',
    greeting: "Hi! I'm Northwind's assistant.",
    language: 'en',
    timezone: 'America/Los_Angeles',
    knowledgeBaseIds: [KNOWLEDGE_BASE_ID],
    forms: DEMO_FORMS,
    sessionTtlSeconds: 86_400,
    confidenceThreshold: DEFAULT_CONFIDENCE_THRESHOLD,
    theme: {},
    identitySecrets: [],
    createdAt: CREATED,
    ...overrides,
  };
}

function demoSession(widget: Widget): Session {
  return {
    widgetId: widget.id,
    id: 'sess_demo',
    accountId: ACCOUNT_ID,
    visitorId: 'visitor-1',
    status: 'active',
    language: null,
    timezone: null,
    messageCount: 0,
    rating: null,
    createdAt: CREATED,
    lastActivityAt: CREATED,
    expiresAt: new Date(CREATED.getTime() + 86_400_000),
    resolvedAt: null,
    pendingFormId: null,
    identitySub: null,
    creatorKeyKind: 'secret',
    creatorKeyId: null,
    handoff: null,
    handedOff: false,
    resolvedByOperator: false,
  };
}

/** An agent request for `message` on the demo widget, in English unless told otherwise. */
export function demoRequest(message: string, overrides: Partial<AgentRequest> = {}): AgentRequest {
  const widget = overrides.widget ?? demoWidget();
  return {
    widget,
    session: demoSession(widget),
    history: [],
    message,
    visitorContext: {},
    identity: null,
    language: 'en',
    timezone: widget.timezone,
    now: CREATED,
    signal: new AbortController().signal,
    ...overrides,
  };
}
