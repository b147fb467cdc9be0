import { createLocalAgent } from '@svc/agents';
import type { Agent, Scope, Store } from '@svc/core';
import { createAccount, createApiKey, createLogger, createRuntime, createWidget, importKnowledgeBase, listen } from '@svc/server';
import { createPgliteStore } from '@svc/store-postgres';

/** A catalogue of 12 products and one shipping page: enough for pages of products and answers about shipping. */
const KNOWLEDGE = {
  name: 'Outdoor shop',
  products: Array.from({ length: 12 }, (_, i) => ({
    id: `tent-${String(i + 1).padStart(2, '0')}`,
    name: `Trail Tent ${i + 1}P`,
    price: 100 + i * 10,
    currency: 'EUR',
    description: `A ${i + 1}-person tent for hiking.`,
  })),
  documents: [{ title: 'Shipping', content: 'We ship to Canada, the United States and every country of the European Union in 5 to 7 days.' }],
};

const CONTACT_FORM = {
  id: 'contact_sales',
  title: 'Contact sales',
  triggers: ['talk to sales'],
  questions: [
    { id: 'name', label: 'Your name', kind: 'text' as const, required: true },
    { id: 'email', label: 'Your email', kind: 'email' as const, required: true },
  ],
};

export interface LiveServer {
  url: string;
  /** The service's store, for what an operator does beside the API (handoff replies). */
  store: Store;
  widgetId: string;
  knowledgeBaseId: string;
  /** A key per scope set the tests need. */
  keys: { chat: string; identity: string; knowledge: string; knowledgeWrite: string };
  close(): Promise<void>;
}

/**
 * The real service on a real socket: PGlite in memory, the local agent (slowed down for messages containing
 * "take your time", so a sync turn can outlast `syncTimeoutMs` and answer 202), a widget with a form and a key
 * per scope set.
 */
export async function startLiveServer(options: { syncTimeoutMs?: number } = {}): Promise<LiveServer> {
  const store: Store = await createPgliteStore({});
  const local = createLocalAgent({ knowledge: store });
  const agent: Agent = {
    async reply(request) {
      if (request.message.includes('take your time')) await new Promise((resolve) => setTimeout(resolve, (options.syncTimeoutMs ?? 0) + 300));
      return local.reply(request);
    },
  };
  const runtime = await createRuntime({
    config: { cursorSecret: 'client-e2e-cursor-secret-0123456789', syncTimeoutMs: options.syncTimeoutMs ?? 25_000, agentTimeoutMs: 60_000 },
    store,
    logger: createLogger('silent'),
    agent,
  });
  const account = await createAccount(store, { name: 'Client e2e', credits: 10_000 });
  const { knowledgeBase } = await importKnowledgeBase(store, { accountId: account.id, content: KNOWLEDGE });
  const widget = await createWidget(store, { accountId: account.id, name: 'Shop assistant', knowledgeBaseIds: [knowledgeBase.id], forms: [CONTACT_FORM] });
  const key = async (scopes: Scope[]) => (await createApiKey(store, { accountId: account.id, scopes })).key;
  const server = await listen(runtime, { port: 0, host: '127.0.0.1' });
  return {
    url: server.url,
    store,
    widgetId: widget.id,
    knowledgeBaseId: knowledgeBase.id,
    keys: {
      chat: await key(['conversations:chat']),
      identity: await key(['conversations:chat', 'identity:assert']),
      knowledge: await key(['knowledge:read']),
      knowledgeWrite: await key(['knowledge:write']),
    },
    async close() {
      await server.close();
      await store.close();
    },
  };
}
