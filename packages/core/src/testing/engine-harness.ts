import type { Agent, AgentReply, AgentRequest } from '../agent.js';
import { zeroMeters } from '../credits.js';
import type { Principal } from '../domain.js';
import { createEngine, type Engine, type EngineOptions } from '../engine/engine.js';
import { createMemoryStore } from '../store/memory-store.js';
import type { Store } from '../store/store.js';
import { makeAccount, makeApiKey, makeWidget } from './fixtures.js';

/**
 * An engine on a store seeded with one account, widget and server key, for engine tests without HTTP.
 *
 * @example
 * const h = await createEngineHarness({ agent: echoAgent() });
 * const sessionId = await h.session();
 * const { data } = await h.engine.sendMessage(h.principal, h.widget.id, sessionId, { content: 'Hi' });
 */
export interface EngineHarness {
  engine: Engine;
  store: Store;
  principal: Principal;
  widget: ReturnType<typeof makeWidget>;
  accountId: string;
  /** Creates an active session and returns its id. */
  session(): Promise<string>;
}

export async function createEngineHarness(
  options: Partial<EngineOptions> & { agent: Agent; store?: Store; balance?: number },
): Promise<EngineHarness> {
  const store = options.store ?? createMemoryStore();
  const account = makeAccount({ balance: options.balance ?? 1_000_000 });
  const widget = makeWidget({ accountId: account.id, knowledgeBaseIds: [] });
  const key = makeApiKey({ accountId: account.id, callbackUrl: null, callbackSecret: null });
  await store.insertAccount(account);
  await store.insertWidget(widget);
  await store.insertApiKey(key);
  const engine = createEngine({ cursorSecret: 'engine-harness-cursor-secret', ...options, store });
  const principal: Principal = {
    accountId: account.id,
    keyId: key.id,
    kind: 'secret',
    scopes: key.scopes,
    callbackUrl: key.callbackUrl,
    replyFormat: key.replyFormat,
    widgetId: null,
    identity: null,
  };
  return {
    engine,
    store,
    principal,
    widget,
    accountId: account.id,
    async session() {
      const created = await engine.createSession(principal, widget.id, { visitorId: 'visitor-1' });
      return created.data.sessionId;
    },
  };
}

/** A reply with the given content and one credit's worth of usage. */
export function agentReply(content: string, overrides: Partial<AgentReply> = {}): AgentReply {
  return {
    content,
    products: [],
    actions: [],
    forms: [],
    sessionEnded: false,
    usage: { inputTokens: 10, outputTokens: 5 },
    meters: zeroMeters(),
    ...overrides,
  };
}

/** Answers `echo: <message>` without streaming; `onRequest` sees each request first (to delay, fail, record). */
export function echoAgent(onRequest?: (request: AgentRequest) => Promise<void> | void): Agent {
  return {
    async reply(request) {
      await onRequest?.(request);
      return agentReply(`echo: ${request.message}`);
    },
  };
}
