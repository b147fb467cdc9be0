import { ApiError, type Api, type ApiResponse, type RequestOptions } from './api.js';
import type {
  AnswerValue,
  CreatedSession,
  Envelope,
  HistoryItem,
  MessageReply,
  Page,
  ProcessingReply,
  Rating,
  SessionView,
  WidgetConfig,
} from './api-types.js';
import type { ChatMessage, ChatState, Problem } from './chat-state.js';
import type { VisitorDetails } from './identify-validation.js';
import { plainText } from './markdown.js';
import { randomId } from './random-id.js';
import { clearStorage, loadSession, saveSession, saveVisitorId } from './storage.js';
import type { Store } from './store.js';
import { warn } from './warn.js';

/** How often a 202 reply is looked for in the history, and for how long (the server's agent limit is 120 s). */
export const POLL_MS = 2000;
const POLL_LIMIT_MS = 180_000;
/** History pages followed at most (100 items each). */
const MAX_PAGES = 50;

export interface ConversationOptions {
  api: Api;
  apiKey: string;
  store: Store<ChatState>;
  visitorId: string;
  details: VisitorDetails;
  tokens: { ensureFresh(): Promise<void> };
  signal: AbortSignal;
  /** The previous visitor's `identify()` payload must not follow a new visitor. */
  forgetIdentity(): void;
}

export interface Conversation {
  /** The current visitor's `identify()` details, which pre-fill forms. */
  details(): VisitorDetails;
  /** Loads the widget's name, greeting, language and theme. */
  start(): void;
  /** Reloads the stored conversation once: on the first open of a bubble, at once for a chatbox. */
  restore(): Promise<void>;
  /** Sends a visitor message (spec 4.2); ignored while a turn runs or once the conversation ended. */
  send(text: string): Promise<void>;
  /**
   * Submits a surfaced form (spec 4.3). Resolves with problems by question id (`form_rejected` names
   * `answers.<id>`; `''` when it names none), or null when accepted or when the banner shows the failure.
   */
  submitForm(messageKey: string, formId: string, answers: Record<string, AnswerValue>, summary: string): Promise<Record<string, string> | null>;
  /** Ends the conversation (spec 4.4); the rating question follows. */
  end(): Promise<void>;
  /** Rates the ended conversation (spec 4.5); rating again replaces the rating. */
  rate(rating: Rating): Promise<void>;
  /** A fresh conversation for the same visitor: the next message creates a new session. */
  startOver(): void;
  /** Automatic sign-out (spec 4.9): nothing of the previous visitor survives, in storage or in memory. */
  newVisitor(): void;
  dispose(): void;
}

type Reply = Pick<MessageReply, 'messageId' | 'content' | 'products' | 'forms' | 'sessionEnded'>;
interface Turn {
  path: '/messages' | '/form-submissions';
  body: Record<string, unknown>;
  /** Kept across retries: the server replays the first success instead of running the turn twice. */
  idempotencyKey: string;
}

const enc = encodeURIComponent;
/** Anything thrown, as an ApiError: a bug in the widget counts as a server-side failure (retry may help). */
const toApiError = (error: unknown): ApiError => (error instanceof ApiError ? error : new ApiError(500, 'client_error', String(error)));

/** The visitor's IANA zone, sent so replies and form dates use the visitor's clock. */
const timezone = (): { timezone?: string } => {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return zone ? { timezone: zone } : {};
};

/** Polling pauses. Not cancelled on destroy: the loop checks `generation` after each one and stops. */
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The conversation behind the chat UI: widget config, the session (created by the first message, reloaded from
 * storage after a page reload), turns, forms, rating, and what to show when something fails. Every async step
 * checks `generation`, bumped when the conversation starts over, so a late answer never lands in a newer one.
 */
export function createConversation(options: ConversationOptions): Conversation {
  const { api, apiKey, store, tokens, signal } = options;
  let visitorId = options.visitorId;
  let details = options.details;
  let sessionId: string | null = null;
  let generation = 0;
  let restored = false;
  let restoring: Promise<void> = Promise.resolve();
  let busy = false;
  let configRequest: Promise<WidgetConfig> | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let keys = 0;
  const state = (): ChatState => store.get();
  const set = (patch: Partial<ChatState>): void => store.set(patch);

  const message = (role: ChatMessage['role'], content: string, id: string | null = null, products: ChatMessage['products'] = [], forms: ChatMessage['forms'] = []): ChatMessage => ({
    key: `m${++keys}`,
    id,
    role,
    content,
    products,
    forms,
  });

  const config = (): Promise<WidgetConfig> =>
    (configRequest ??= api<Envelope<WidgetConfig>>('GET', '/widget/config').then(
      ({ body }) => {
        set({ config: body.data });
        return body.data;
      },
      (error: unknown) => {
        configRequest = null;
        throw error;
      },
    ));

  /** A request under `/widgets/{id}/conversations[/{session}]`, with a fresh identity token. */
  async function call<T>(method: 'GET' | 'POST', session: string | null, suffix: string, request?: RequestOptions): Promise<ApiResponse<T>> {
    await tokens.ensureFresh();
    const { widgetId } = await config();
    return api<T>(method, `/widgets/${enc(widgetId)}/conversations${session ? `/${enc(session)}` : ''}${suffix}`, request);
  }

  function remember(id: string | null): void {
    sessionId = id;
    saveSession(apiKey, id === null ? null : { sessionId: id, visitorId });
  }

  /** Turns an error into what the banner shows; problems only the site's developer can fix are logged for them. */
  function fail(error: unknown, retry: () => void): void {
    if (signal.aborted) return;
    const { status, code, message: text, retryAfter } = toApiError(error);
    let problem: Problem;
    if (status === 0) problem = { kind: 'offline', retry };
    else if (status === 402) problem = { kind: 'unavailable', retry };
    else if (status === 429) {
      const wait = (retryAfter ?? 10) * 1000;
      problem = { kind: 'busy', retry, retryAt: Date.now() + wait };
      clearTimeout(retryTimer);
      retryTimer = setTimeout(() => state().problem === problem && set({ problem: { kind: 'busy', retry } }), wait);
    } else if (status === 401 || status === 403 || code === 'widget_not_found') {
      warn(`refused (${code}): ${text}`);
      problem = { kind: 'unavailable', retry: null };
    } else {
      // Another 4xx will not change on retry; a 5xx or a timeout may.
      problem = { kind: 'error', retry: status >= 400 && status < 500 ? null : retry };
    }
    set({ problem });
  }

  async function history(session: string): Promise<HistoryItem[]> {
    const items: HistoryItem[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < MAX_PAGES; page++) {
      const suffix: string = `/messages?limit=100${cursor ? `&cursor=${enc(cursor)}` : ''}`;
      const { body } = await call<Page<HistoryItem>>('GET', session, suffix);
      items.push(...body.data);
      cursor = body.pagination.cursor;
      if (!body.pagination.hasMore || !cursor) break;
    }
    return items;
  }

  /** Reloads a stored conversation: its state, then its history (spec 4.6, 4.7). */
  async function load(stored: string): Promise<void> {
    const current = generation;
    set({ loading: true });
    try {
      const { body } = await call<Envelope<SessionView>>('GET', stored, '');
      if (current !== generation) return;
      // An ended conversation stays on screen until it is rated; after that the next visit starts afresh.
      if (body.data.status !== 'active' && body.data.rating !== null) return remember(null);
      const items = await history(stored);
      if (current !== generation) return;
      sessionId = stored;
      set({
        // After the history: what the visitor sent while it loaded.
        messages: [...items.map((item) => message(item.role, item.content, item.messageId, item.products)), ...state().messages],
        session: body.data.status === 'active' ? 'active' : 'ended',
        rating: body.data.rating,
      });
    } catch (error) {
      if (current !== generation || signal.aborted) return;
      const { code, status } = toApiError(error);
      if (code === 'identity_mismatch') return conversation.newVisitor();
      // The stored id is unknown or unusable (data reset, another widget): start a new conversation.
      if (code === 'session_not_found' || status === 400) return remember(null);
      restored = false;
      fail(error, () => void conversation.restore());
    } finally {
      if (current === generation) set({ loading: false });
    }
  }

  /** The current session, created on first use (a public key cannot choose a session id: DESIGN.md 4). */
  async function session(): Promise<string> {
    // A message sent while the stored conversation still loads goes to that conversation.
    await restoring;
    if (sessionId) return sessionId;
    const { name, email, phone, company } = details;
    const { body } = await call<Envelope<CreatedSession>>('POST', null, '', {
      body: {
        visitorId,
        language: (await config()).language || navigator.language,
        ...timezone(),
        // JSON drops the undefined members.
        ...((name ?? email ?? phone ?? company) !== undefined && { visitorContext: { name, email, phone, company } }),
      },
    });
    remember(body.data.sessionId);
    set({ session: 'active' });
    return body.data.sessionId;
  }

  /** 202 (DESIGN.md 4, slow model): the reply lands in the history under `messageId`; look for it there. */
  async function awaitReply(session: string, messageId: string | null, turn: number): Promise<Reply> {
    const deadline = Date.now() + POLL_LIMIT_MS;
    while (Date.now() < deadline && turn === generation) {
      await sleep(POLL_MS);
      const found = (await history(session)).find((item) => item.messageId === messageId);
      // Whether that turn ended the session is not in the history; the next message learns it (409).
      if (found) return { ...found, products: found.products ?? [], sessionEnded: false };
    }
    throw new ApiError(504, 'reply_timeout', 'The reply did not arrive in time.');
  }

  function receive(reply: Reply): void {
    const products = reply.products ?? [];
    set({
      messages: [...state().messages, message('assistant', reply.content, reply.messageId, products, reply.forms ?? [])],
      announcement: [plainText(reply.content), ...products.map((product) => product.name)].filter(Boolean).join('. '),
      ...(reply.sessionEnded && { session: 'ended' as const }),
    });
  }

  /** One turn: session, POST, the reply (waited for after a 202). Resolves with the error, if any. */
  async function run(turn: Turn, accepted: () => void): Promise<ApiError | null> {
    const current = generation;
    busy = true;
    set({ typing: true, problem: null });
    try {
      if (!state().online) throw new ApiError(0, 'offline', 'The browser is offline.');
      const id = await session();
      const { status, body } = await call<Envelope<MessageReply | ProcessingReply>>('POST', id, turn.path, {
        body: { ...turn.body, ...timezone() },
        idempotencyKey: turn.idempotencyKey,
      });
      if (current !== generation) return null;
      accepted();
      const reply = status === 202 || 'status' in body.data ? await awaitReply(id, body.data.messageId, current) : body.data;
      if (current === generation) receive(reply);
      return null;
    } catch (error) {
      if (current !== generation || signal.aborted) return null;
      return toApiError(error);
    } finally {
      if (current === generation) {
        busy = false;
        set({ typing: false });
      }
    }
  }

  function failed(error: ApiError, messageKey: string | null, retry: () => void): void {
    if (messageKey) markFailed(messageKey, true);
    // Resolved or expired meanwhile: the conversation is over, and can be rated.
    if (error.code === 'session_not_active') return set({ session: 'ended' });
    if (error.code === 'session_not_found') remember(null);
    fail(error, retry);
  }

  function markFailed(key: string, on: boolean): void {
    set({ messages: state().messages.map((item) => (item.key === key ? { ...item, failed: on } : item)) });
  }

  async function deliver(item: ChatMessage, turn: Turn, firstAttempt: boolean): Promise<void> {
    markFailed(item.key, false);
    const error = await run(turn, () => undefined);
    if (!error) return;
    if (error.code === 'identity_mismatch' && firstAttempt) {
      // The stored conversation belongs to someone else: start over as a new visitor and send it there.
      conversation.newVisitor();
      const again = message('user', item.content);
      set({ messages: [again] });
      return deliver(again, turn, false);
    }
    failed(error, item.key, () => void deliver(item, turn, false));
  }

  const conversation: Conversation = {
    details: () => details,

    start() {
      config().catch((error: unknown) => fail(error, conversation.start));
    },

    restore() {
      const stored = loadSession(apiKey, visitorId);
      if (!restored && stored) {
        restored = true;
        restoring = load(stored);
      }
      return restoring;
    },

    async send(text) {
      const content = text.trim();
      if (!content || busy || state().session === 'ended') return;
      busy = true;
      // The token first: a sign-out it reveals starts a new conversation, which this message then opens.
      await tokens.ensureFresh();
      const item = message('user', content);
      set({ messages: [...state().messages, item] });
      await deliver(item, { path: '/messages', body: { content }, idempotencyKey: randomId('idem_') }, true);
    },

    async submitForm(messageKey, formId, answers, summary) {
      if (busy || state().session === 'ended') return null;
      const turn: Turn = { path: '/form-submissions', body: { formId, answers }, idempotencyKey: randomId('idem_') };
      const error = await run(turn, () =>
        set({ sentForms: [...state().sentForms, `${messageKey}/${formId}`], messages: [...state().messages, message('user', summary)] }),
      );
      if (error?.code === 'form_rejected') return { [error.field?.replace(/^answers\./, '') ?? '']: error.message };
      if (error) failed(error, null, () => void conversation.submitForm(messageKey, formId, answers, summary));
      return null;
    },

    async end() {
      const id = sessionId;
      if (!id || state().session !== 'active') return;
      try {
        await call('POST', id, '/end');
        if (id === sessionId) set({ session: 'ended' });
      } catch (error) {
        fail(error, () => void conversation.end());
      }
    },

    async rate(rating) {
      const id = sessionId;
      const previous = state().rating;
      if (!id || state().session !== 'ended') return;
      set({ rating, problem: null });
      try {
        await call('POST', id, '/rate', { body: { rating } });
      } catch (error) {
        if (id !== sessionId) return;
        set({ rating: previous });
        fail(error, () => void conversation.rate(rating));
      }
    },

    startOver() {
      generation++;
      busy = false;
      restored = true;
      clearTimeout(retryTimer);
      remember(null);
      set({ messages: [], session: 'none', rating: null, problem: null, typing: false, loading: false, announcement: '', sentForms: [] });
    },

    newVisitor() {
      clearStorage();
      visitorId = randomId('v_');
      saveVisitorId(visitorId);
      details = {};
      options.forgetIdentity();
      conversation.startOver();
    },

    dispose() {
      generation++;
      clearTimeout(retryTimer);
    },
  };
  return conversation;
}
