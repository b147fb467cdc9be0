import { createLocalAgent, createScriptedAgent, DEMO_FORMS, DEMO_KNOWLEDGE, type ScriptedHandler } from '@svc/agents';
import { createMemoryStore, views, type Agent, type Store, type Widget } from '@svc/core';
import { createLogger, createRuntime, listen, operatorAdmin, seedDemo } from '@svc/server';
import { createPgliteStore } from '@svc/store-postgres';
import { XSS_MARKDOWN, XSS_PRODUCTS } from './xss-corpus.js';

export interface ServiceOptions {
  /** The origin of the site's pages: the only one the public key allows. */
  pageOrigin: string;
  /** PGlite in memory (real SQL, ~3-5 s to migrate) or the memory store (instant). Default memory. */
  store?: 'memory' | 'pglite';
  /** Seed the `/demo` widget first (`seedDemo`), as `pnpm start` does on an empty database. */
  demo?: boolean;
  /**
   * Run the background workers (the source sync job among them) with a site reader allowed to read loopback sites,
   * as a test's help centre is one.
   */
  workers?: boolean;
}

export interface Service {
  /** `http://127.0.0.1:<port>`: the API, `/widget.js` and `/demo`. */
  url: string;
  store: Store;
  widget: Widget;
  /** The widget's `pk_live_` key, allowed from `pageOrigin` only. */
  publicKey: string;
  /** Signs identity tokens for this widget (what a site keeps on its server). */
  identitySecret: string;
  /** Makes the agent wait before its next replies until the returned function is called (a slow model). */
  hold(): () => void;
  /**
   * Makes the next "stream slowly please" reply stop after its first sentence (written as a `message.delta`) until
   * the returned function is called: a model seen mid-answer.
   */
  holdMidStream(): () => void;
  /**
   * Stops answering: the socket is closed, so the browser's requests are refused (the service is down). Requests in
   * flight finish first, or are cut after `deadlineMs` (0: at once, as a crash or a proxy timeout would); 5 s by
   * default, since a session event stream an open widget follows never finishes by itself.
   */
  stop(deadlineMs?: number): Promise<void>;
  /** Listens again on the same port, with the same store (the service is back). */
  start(): Promise<void>;
  /** The visitor messages stored for a session, oldest first. */
  userMessages(sessionId: string): Promise<string[]>;
  close(): Promise<void>;
}

/**
 * What tests say to get a reply the knowledge base cannot give. Anything else goes to the local agent over the
 * demo knowledge base, so replies are the real ones: "Do you ship to Canada?" is answered from the shipping
 * page, "talk to sales" surfaces the demo form, "bye" ends the session.
 */
function hooks(pageOrigin: string, midStream: () => Promise<void> | null): Record<string, ScriptedHandler> {
  return {
    // Written in two sentences with a pause between them (see `holdMidStream`).
    'stream slowly please': async (request) => {
      request.onDelta?.(SLOW_STREAM[0]);
      await midStream();
      request.onDelta?.(SLOW_STREAM[1]);
      return { content: SLOW_STREAM.join(''), products: [] };
    },
    'xss please': () => ({ content: XSS_MARKDOWN, products: XSS_PRODUCTS }),
    // A reply much taller than the panel, with a nested list.
    'long please': () => ({ content: LONG_REPLY, products: [] }),
    // Products listed in the text as well as returned as cards, with images of the site's own (issue 12, defect 6).
    'tents please': () => ({
      content: `Here is what I found in our catalogue: ${TENTS.map((tent) => `[${tent.name}](${tent.url}) ($${tent.price.toFixed(2)})`).join(', ')}.`,
      products: TENTS.map((tent) => ({ ...tent, imageUrl: `${pageOrigin}/img/${tent.id}.png` })),
    }),
  };
}

/** The two pieces of the "stream slowly please" reply. */
export const SLOW_STREAM = ['Our **Trailhead 2** tent packs down small. ', 'It weighs 1.6 kg and sets up in five minutes.'] as const;

/** The first line of `LONG_REPLY`, which the visitor must see first. */
export const LONG_REPLY_START = 'Start of the long answer.';
const LONG_REPLY = [
  LONG_REPLY_START,
  '',
  ...Array.from({ length: 30 }, (_, i) => `Paragraph ${i + 1}: our tents are tested in wind, rain and snow before they ship.\n`),
  '- Tents',
  '  - Trailhead 2',
  '  - Ridge 3',
  '- Boots',
  '',
  'End of the long answer.',
].join('\n');

export const TENTS = [
  { id: 'trailhead-2', name: 'Trailhead 2 Tent', price: 249, currency: 'USD', url: 'https://shop.example/products/trailhead-2', description: 'Light.' },
  { id: 'ridge-3', name: 'Ridge 3 Tent', price: 329, currency: 'USD', url: 'https://shop.example/products/ridge-3', description: 'Roomy for three, with two doors, two vestibules and a rain fly rated for storms.' },
  { id: 'summit-4', name: 'Summit 4 Tent', price: 489, currency: 'USD', url: 'https://shop.example/products/summit-4', description: 'Four seasons.' },
];

function routingAgent(store: Store, HOOKS: Record<string, ScriptedHandler>): { agent: Agent; hold(): () => void } {
  const local = createLocalAgent({ knowledge: store });
  let gate: Promise<void> | null = null;
  const agent = createScriptedAgent(async (request) => {
    await gate;
    const hook = HOOKS[request.message.trim().toLowerCase()];
    return hook ? hook(request) : local.reply(request);
  });
  return {
    agent,
    hold() {
      let release!: () => void;
      gate = new Promise((resolve) => (release = resolve));
      return () => {
        gate = null;
        release();
      };
    },
  };
}

/**
 * The service in this process over a real socket: a store, the HTTP app with `/widget.js`, an account with
 * credits, a widget on the demo knowledge base with the demo forms, and a public key for the site's origin.
 */
export async function startService(options: ServiceOptions): Promise<Service> {
  const store = options.store === 'pglite' ? await createPgliteStore({}) : createMemoryStore();
  let midStream: Promise<void> | null = null;
  const { agent, hold } = routingAgent(store, hooks(options.pageOrigin, () => midStream));
  const runtime = await createRuntime({
    config: {
      cursorSecret: 'e2e-cursor-secret-0123456789abcdef',
      syncTimeoutMs: 25_000,
      agentTimeoutMs: 120_000,
      publicRateLimitPerMinute: 100_000,
      ...(options.workers ? { allowPrivateCallbacks: true } : {}),
    },
    store,
    logger: createLogger(process.env.SVC_E2E_LOG_LEVEL ?? 'silent'),
    agent,
  });
  const workers = options.workers ? runtime.startWorkers({ sourcePollMs: 200 }) : null;
  // Before any other key: seedDemo only seeds an empty database.
  if (options.demo) await seedDemo(store);

  const admin = operatorAdmin(store);
  const account = await admin.createAccount({ name: 'E2E Shop', credits: 100_000 });
  const { knowledgeBase } = await admin.importKnowledgeBase({ accountId: account.id, content: DEMO_KNOWLEDGE });
  const created = await admin.createWidget({
    accountId: account.id,
    name: 'Northwind Assistant',
    knowledgeBaseIds: [knowledgeBase.id],
    greeting: 'Hi! Ask me about shipping, returns or our gear.',
  });
  const widget = await admin.setWidgetForms(account.id, created.id, DEMO_FORMS);
  const { key: publicKey } = await admin.createPublicKey(account.id, { widgetId: widget.id, origins: [options.pageOrigin] });

  const listenOptions = { host: '127.0.0.1' };
  let server: Awaited<ReturnType<typeof listen>> | null = await listen(runtime, { port: 0, ...listenOptions });
  const { port } = server;
  return {
    url: server.url,
    store,
    widget,
    publicKey,
    identitySecret: views.identitySecret(widget),
    hold,
    holdMidStream() {
      let release!: () => void;
      midStream = new Promise((resolve) => (release = resolve));
      return () => {
        midStream = null;
        release();
      };
    },
    async stop(deadlineMs = 5_000) {
      await server?.close(deadlineMs);
      server = null;
    },
    async start() {
      server ??= await listen(runtime, { port, ...listenOptions });
    },
    async userMessages(sessionId) {
      const stored = await store.listMessages({ widgetId: widget.id, sessionId, limit: 1000 });
      return stored.filter((item) => item.role === 'user').map((item) => item.content);
    },
    async close() {
      await workers?.stop();
      await server?.close();
      await store.close();
    },
  };
}
