import { DEMO_FORMS, DEMO_KNOWLEDGE } from '@svc/agents';
import type { Store } from '@svc/core';
import { operatorAdmin } from './admin/operator-admin.js';

export interface DemoSeed {
  accountId: string;
  widgetId: string;
  knowledgeBaseId: string;
  keyId: string;
  /** Shown once: only the hash is stored. */
  apiKey: string;
}

/**
 * First start on an empty database: a demo account with credits, a widget answering from a small shop
 * knowledge base, and a server key with every scope. Returns null when the database already has keys.
 */
export async function seedDemo(store: Store): Promise<DemoSeed | null> {
  if ((await store.listApiKeys()).length > 0) return null;
  const admin = operatorAdmin(store);
  const account = await admin.createAccount({ name: 'Demo', credits: 10_000 });
  const { knowledgeBase } = await admin.importKnowledgeBase({ accountId: account.id, content: DEMO_KNOWLEDGE });
  const widget = await admin.createWidget({
    accountId: account.id,
    name: 'Northwind Assistant',
    knowledgeBaseIds: [knowledgeBase.id],
    greeting: "Hi! I'm the Northwind Outfitters assistant. Ask me about our gear, shipping, returns or sizing.",
    forms: DEMO_FORMS,
  });
  const { apiKey, key } = await admin.createApiKey({
    accountId: account.id,
    scopes: ['conversations:chat', 'identity:assert', 'knowledge:read', 'knowledge:write'],
  });
  // The /demo page finds the demo widget through this setting and makes its public key (bound to SVC_PUBLIC_URL) on first use.
  await store.getOrCreateSetting('demo_widget_id', () => widget.id);
  return { accountId: account.id, widgetId: widget.id, knowledgeBaseId: knowledgeBase.id, keyId: apiKey.id, apiKey: key };
}
