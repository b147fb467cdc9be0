import { DEMO_FORMS, DEMO_KNOWLEDGE } from '@svc/agents';
import { randomBase62, type Store } from '@svc/core';
import { operatorAdmin } from './cli/operator-admin.js';

/** The console sign-in the demo creates (DESIGN.md section 10): an owner of the demo account. */
export interface DemoOperator {
  email: string;
  /** Shown once: only its scrypt hash is stored. */
  password: string;
}

export const DEMO_OPERATOR_EMAIL = 'demo@example.com';

export interface DemoSeed {
  accountId: string;
  widgetId: string;
  knowledgeBaseId: string;
  keyId: string;
  /** Shown once: only the hash is stored. */
  apiKey: string;
  /** The console's owner sign-in, created with the demo. */
  operator: DemoOperator;
}

/**
 * First start on an empty database: a demo account with credits, a widget answering from a small shop
 * knowledge base, and a server key with every scope but `admin` (the printed demo key cannot manage the account). Returns null when the database already has keys.
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
  const operator = (await ensureDemoOperator(store))!;
  return { accountId: account.id, widgetId: widget.id, knowledgeBaseId: knowledgeBase.id, keyId: apiKey.id, apiKey: key, operator };
}

/**
 * The demo account's console owner, created when the demo account has no operator yet: on first start, and on a
 * demo database seeded before the console existed. Null when there is nothing to create (no demo, or operators
 * already exist): the password is only ever shown by the start that created it.
 */
export async function ensureDemoOperator(store: Store): Promise<DemoOperator | null> {
  const widgetId = await store.getOrCreateSetting('demo_widget_id', () => '');
  const widget = widgetId ? await store.getWidget(widgetId) : null;
  if (!widget || (await store.listOperators(widget.accountId)).length > 0) return null;
  // 20 base62 characters: about 119 bits, typed once and then changed in the console.
  const password = randomBase62(20);
  await operatorAdmin(store).createOperator(widget.accountId, { email: DEMO_OPERATOR_EMAIL, name: 'Demo owner', role: 'owner', password });
  return { email: DEMO_OPERATOR_EMAIL, password };
}
