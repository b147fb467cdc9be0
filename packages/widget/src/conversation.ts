// Plain constants, which the build writes where they are read (rolldown's inlineConst): no object of names ships.
import { MESSAGE_COMPLETED, MESSAGE_CREATED, MESSAGE_DELTA, MESSAGE_FAILED, MESSAGE_HANDOFF, MESSAGE_START, SESSION_UPDATED } from '@svc/core/event-stream';
import { ApiError, type Api, type RequestOptions } from './api.js';
import type {
  AnswerValue,
  CreatedSession,
  Envelope,
  HistoryItem,
  MessageReply,
  Page,
  Rating,
  SessionView,
  WidgetConfig,
} from './api-types.js';
import type { ChatMessage, ChatState } from './chat-state.js';
import type { VisitorDetails } from './identify-validation.js';
import { readEvents } from './event-stream.js';
import { plainText } from './markdown.js';
import { chatMessage, fromHistory, newKey, patchMessages, placed } from './messages.js';
import { randomId } from './random-id.js';
import { later, sleep, toApiError, transient } from './retry.js';
import { createStatus } from './status.js';
import { clearStorage, loadOutbox, loadSession, saveOutbox, saveSession, saveVisitorId, type PendingMessage } from './storage.js';
import type { Store } from './store.js';

/** How often a 202 reply is looked for in the history, and for how long (the server's agent limit is 120 s). */
export const POLL_MS = 2000;
const POLL_LIMIT_MS = 180_000;
/** History pages followed at most (100 items each). */
const MAX_PAGES = 50;
export { RETRY_MAX_MS } from './retry.js';

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
  /** The loader's own read of `/widget/config`, used instead of a second request (read again if it failed). */
  prefetchedConfig?: Promise<WidgetConfig> | undefined;
}

export interface Conversation {
  /** The current visitor's `identify()` details, which pre-fill forms. */
  details(): VisitorDetails;
  /** Loads the widget's name, greeting, language and theme. */
  start(): void;
  /** Reloads the stored conversation once: on the first open of a bubble, at once for a chatbox. */
  restore(): Promise<void>;
  /**
   * Follows the session's event stream (DESIGN.md 6) while the panel is open: operator messages and session changes
   * appear live. Resumes after a dropped connection where it left off, also on the next open; false stops it.
   */
  listen(on: boolean): void;
  /**
   * Sends a visitor message (spec 4.2) through the outbox: kept in storage until the service accepts it, sent in
   * order after the ones before it (so Enter while a reply is pending queues it). Ignored once the conversation ended.
   */
  send(text: string): Promise<void>;
  /** Sends the outbox now: the banner's retry, the browser coming back online, the tab becoming visible. */
  retryNow(): void;
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

/** The visitor's IANA zone, sent so replies and form dates use the visitor's clock. */
const timezone = (): { timezone?: string } => {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return zone ? { timezone: zone } : {};
};

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
  /** Turns (messages and forms) go out one at a time, in order: each waits for the previous one's reply. */
  let lane: Promise<unknown> = Promise.resolve();
  /** The generation whose outbox is being sent, or -1: one sender at a time. */
  let pumping = -1;
  let configRequest: Promise<WidgetConfig> | null = null;
  let resendTimer: ReturnType<typeof setTimeout> | undefined;
  let backoff = 0;
  /** The event stream being read, aborted when the panel closes or the session changes. */
  let live: AbortController | undefined;
  let listening = false;
  /**
   * The last event seen: a new connection asks for what came after it (`Last-Event-ID`), no gap and no repeat. Before
   * any, `0` asks for the session's whole log: what a person wrote before the stream opened (the panel closed, the
   * history loaded a moment earlier) is never missed, and what is on screen already is not shown again.
   */
  let lastEvent = '0';
  /** One automatic new-visitor restart per `identity_mismatch` streak, so a refusal can never loop. */
  let mismatchRetried = false;
  const state = (): ChatState => store.get();
  const set = (patch: Partial<ChatState>): void => store.set(patch);
  const status = createStatus(store, signal);
  /** Changes the messages with these keys (a streamed reply grows through here too). */
  const update = (targets: string[], patch: Partial<ChatMessage>): void => patchMessages(store, targets, patch);

  /** Unsent messages, oldest first, with the key of their bubble on screen; mirrored in storage. */
  let outbox: (PendingMessage & { key: string })[] = loadOutbox(apiKey, visitorId).map((item) => ({ ...item, key: newKey() }));
  if (outbox.length) set({ messages: outbox.map((item) => chatMessage('user', item.content, { key: item.key, status: 'sending' })) });
  const persist = (): void => saveOutbox(apiKey, visitorId, outbox.map(({ content, idempotencyKey }) => ({ content, idempotencyKey })));
  const markOutbox = (to: ChatMessage['status']): void => update(outbox.map((item) => item.key), { status: to });
  const statusOf = (key: string): ChatMessage['status'] => state().messages.find((item) => item.key === key)?.status;

  const inLane = <T>(task: () => Promise<T>): Promise<T> => {
    const next = lane.then(task, task);
    lane = next.catch(() => undefined);
    return next;
  };

  let prefetched = options.prefetchedConfig;
  const fetchConfig = (): Promise<WidgetConfig> => api<Envelope<WidgetConfig>>('GET', '/widget/config').then((body) => body.data);
  const config = (): Promise<WidgetConfig> =>
    (configRequest ??= (prefetched ? prefetched.catch(fetchConfig) : fetchConfig()).then(
      (data) => {
        set({ config: data });
        return data;
      },
      (error: unknown) => {
        configRequest = null;
        prefetched = undefined;
        throw error;
      },
    ));

  /** A request under `/widgets/{id}/conversations[/{session}]`, with a fresh identity token. */
  async function call<T>(method: 'GET' | 'POST', session: string | null, suffix: string, request?: RequestOptions): Promise<T> {
    await tokens.ensureFresh();
    const { widgetId } = await config();
    return api<T>(method, `/widgets/${enc(widgetId)}/conversations${session ? `/${enc(session)}` : ''}${suffix}`, request);
  }

  function remember(id: string | null): void {
    sessionId = id;
    lastEvent = '0';
    saveSession(apiKey, id === null ? null : { sessionId: id, visitorId });
    conversation.listen(listening);
  }

  async function history(session: string): Promise<HistoryItem[]> {
    const items: HistoryItem[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < MAX_PAGES; page++) {
      const suffix: string = `/messages?limit=100${cursor ? `&cursor=${enc(cursor)}` : ''}`;
      const body = await call<Page<HistoryItem>>('GET', session, suffix);
      items.push(...body.data);
      cursor = body.pagination.cursor;
      if (!body.pagination.hasMore || !cursor) break;
    }
    return items;
  }

  /** A session that ended meanwhile stops the stream (nothing more will come). */
  const follow = (view: SessionView): void => {
    if (view.status !== 'active') set({ session: 'ended' });
  };

  /** An operator message from the stream, shown once (one already on screen, from the history, is not). */
  function show(item: HistoryItem): void {
    if (item.author && !state().messages.some((shown) => shown.id === item.messageId)) {
      set({ messages: [...state().messages, fromHistory(item)], announcement: `${item.author.name}: ${plainText(item.content)}` });
    }
  }

  /**
   * Reads the session's event stream until the panel closes, the session ends or the conversation starts over. A
   * dropped connection comes back after 1 s, doubling up to 8 s, and resumes after the last event seen.
   */
  async function stream(stop: AbortSignal): Promise<void> {
    const current = generation;
    await restoring;
    for (let wait = 0; ; wait = later(wait)) {
      await sleep(wait);
      const id = sessionId;
      if (stop.aborted || current !== generation || !id || state().session === 'ended') return;
      try {
        const body = await call<ReadableStream<Uint8Array>>('GET', id, '/events', { headers: { 'Last-Event-ID': lastEvent }, signal: stop });
        wait = 0;
        for await (const [event, data, eventId] of readEvents(body)) {
          if (stop.aborted || current !== generation) return;
          if (eventId) lastEvent = eventId;
          if (event === MESSAGE_CREATED) show(data);
          if (event === SESSION_UPDATED) follow(data);
          if (state().session === 'ended') return;
        }
      } catch (error) {
        // A refusal (the session gone, the key refused, no stream on this service) does not change by asking again.
        if (!transient(toApiError(error).status)) return;
      }
    }
  }

  /** Reloads a stored conversation: its state, then its history (spec 4.6, 4.7). */
  async function load(stored: string): Promise<void> {
    const current = generation;
    set({ loading: true });
    try {
      const body = await call<Envelope<SessionView>>('GET', stored, '');
      if (current !== generation) return;
      // An ended conversation stays on screen until it is rated; after that the next visit starts afresh.
      if (body.data.status !== 'active' && body.data.rating !== null) return remember(null);
      const items = await history(stored);
      if (current !== generation) return;
      sessionId = stored;
      set({
        // The history replaces what is on screen, except the messages not sent yet (the outbox, and what the
        // visitor typed while the history loaded): they follow it, and go out after it.
        messages: [...items.map(fromHistory), ...state().messages.filter((item) => item.status)],
        session: body.data.status === 'active' ? 'active' : 'ended',
        rating: body.data.rating,
      });
    } catch (error) {
      if (current !== generation || signal.aborted) return;
      const { code, status: httpStatus } = toApiError(error);
      if (code === 'identity_mismatch') return conversation.newVisitor();
      // The stored id is unknown or unusable (data reset, another widget): start a new conversation.
      if (code === 'session_not_found' || httpStatus === 400) return remember(null);
      restored = false;
      status.fail(error, () => void conversation.restore().then(() => void pump()));
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
    const body = await call<Envelope<CreatedSession>>('POST', null, '', {
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

  /**
   * 202 (DESIGN.md 4, slow model): the reply lands in the history under `messageId`; look for it there. The turn
   * is accepted by then, so a poll that fails (the service restarting, say) is simply tried again.
   */
  async function awaitReply(session: string, messageId: string | null, turn: number): Promise<Reply> {
    const deadline = Date.now() + POLL_LIMIT_MS;
    while (Date.now() < deadline && turn === generation) {
      await sleep(POLL_MS);
      let items: HistoryItem[];
      try {
        items = await history(session);
      } catch (error) {
        const { status } = toApiError(error);
        if (status === 0 || status >= 500) continue;
        throw error;
      }
      const found = items.find((item) => item.messageId === messageId);
      // Whether that turn ended the session is not in the history; the next message learns it (409).
      if (found) return { ...found, products: found.products ?? [], sessionEnded: false };
    }
    throw new ApiError(504, 'reply_timeout', '');
  }

  /**
   * Shows a reply. A reply already on screen (a retry the service answered by replaying a turn whose first answer
   * was lost, after the history was reloaded) is not shown twice, nor is the visitor message it answers.
   */
  function receive(reply: Reply, question: string | null, draft?: string): void {
    const products = reply.products ?? [];
    // The streamed bubble gives way to the final reply, which keeps its key (and so its place and scroll position).
    const list = state().messages.filter((item) => item.key !== draft);
    const known = list.some((item) => item.id === reply.messageId);
    const answer = chatMessage('assistant', reply.content, {
      ...(draft && { key: draft }),
      id: reply.messageId,
      products,
      forms: reply.forms ?? [],
    });
    set({
      messages: known ? list.filter((item) => item.key !== question) : placed(list, question, answer),
      ...(!known && { announcement: [plainText(reply.content), ...products.map((product) => product.name)].filter(Boolean).join('. ') }),
      ...(reply.sessionEnded && { session: 'ended' as const }),
    });
  }

  /**
   * One turn: session, then the POST with `response_type: "stream"` (DESIGN.md 4). `accepted` runs once the service
   * has the turn. The reply's bubble appears with the first delta (the typing indicator until then) and grows as the
   * agent writes; `message.completed` carries the same reply a sync call returns, which then replaces it. A stream
   * that breaks after `message.start` loses nothing: the reply is read from the history under its id (as after a
   * 202), never sent again. Resolves with the error, if any.
   */
  async function run(turn: Turn, accepted: () => void, question: string | null): Promise<ApiError | null> {
    const current = generation;
    let messageId: string | undefined;
    let reply: Reply | undefined;
    let draft: string | undefined;
    let text = '';
    set({ typing: true });
    try {
      if (!state().online) throw new ApiError(0, 'offline', '');
      const id = await session();
      const body = await call<ReadableStream<Uint8Array>>('POST', id, turn.path, {
        body: { ...turn.body, ...timezone(), response_type: 'stream' },
        headers: { 'Idempotency-Key': turn.idempotencyKey },
      });
      if (current !== generation) return null;
      accepted();
      set({ problem: null });
      try {
        for await (const [event, data] of readEvents(body)) {
          if (current !== generation) return null;
          if (event === MESSAGE_START) messageId = data.messageId;
          if (event === MESSAGE_COMPLETED) reply = data.data;
          if (event === MESSAGE_FAILED) throw new ApiError(502, data.error.code, data.error.message);
          // A person has the conversation: no AI reply; theirs comes on the session's event stream.
          if (event === MESSAGE_HANDOFF) return null;
          // A replayed turn already on screen is not drafted a second time.
          if (event === MESSAGE_DELTA && data.text && !state().messages.some((item) => item.id === messageId)) {
            text += data.text;
            if (draft) update([draft], { content: text });
            else {
              // Created with its first text, so it is on screen at once and the list scrolls to its start. No id
              // until it completes: the id marks a reply already on screen (a replay), which this is not.
              const bubble = chatMessage('assistant', text);
              draft = bubble.key;
              set({ typing: false, messages: placed(state().messages, question, bubble) });
            }
          }
        }
      } catch (error) {
        // Only a failed turn ends here; a broken connection reads the reply from the history below.
        if (error instanceof ApiError) throw error;
      }
      if (!messageId) throw new ApiError(0, 'network_error', '');
      reply ??= await awaitReply(id, messageId, current);
      if (current === generation) receive(reply, question, draft);
      return null;
    } catch (error) {
      if (current !== generation || signal.aborted) return null;
      // No half-written bubble stays behind a failure (the banner's retry replays the turn).
      set({ messages: state().messages.filter((item) => item.key !== draft) });
      return toApiError(error);
    } finally {
      if (current === generation) set({ typing: false });
    }
  }

  function schedule(ms: number): void {
    clearTimeout(resendTimer);
    resendTimer = setTimeout(() => void pump(), ms);
  }

  /** Sends the outbox in order until it is empty or the service says no; a failure decides what happens next. */
  async function pump(): Promise<void> {
    const current = generation;
    if (pumping === current) return;
    pumping = current;
    clearTimeout(resendTimer);
    try {
      while (current === generation && !signal.aborted) {
        const item = outbox.find((entry) => statusOf(entry.key) !== 'failed');
        if (!item) return;
        update([item.key], { status: 'sending' });
        const turn: Turn = { path: '/messages', body: { content: item.content }, idempotencyKey: item.idempotencyKey };
        const error = await inLane(() =>
          run(
            turn,
            () => {
              // The service has it now: it is no longer the widget's to keep, whatever happens to the reply.
              outbox = outbox.filter((entry) => entry !== item);
              persist();
              update([item.key], { status: undefined });
            },
            item.key,
          ),
        );
        if (current !== generation) return;
        if (!error) {
          backoff = 0;
          mismatchRetried = false;
          continue;
        }
        if (!outbox.includes(item)) {
          // Accepted, but the reply did not come: asking again replays the turn instead of running it twice.
          status.fail(error, () => void inLane(() => run(turn, () => undefined, item.key)));
          continue;
        }
        if (!handle(error, item)) return;
      }
    } finally {
      if (pumping === current) pumping = -1;
    }
  }

  /** What a refused or failed outbox message means for it and the ones after it. True: go on with the next. */
  function handle(error: ApiError, item: PendingMessage & { key: string }): boolean {
    const { status: httpStatus, code } = error;
    if (code === 'identity_mismatch' && !mismatchRetried) {
      // The stored conversation belongs to someone else: start over as a new visitor and send the outbox there.
      mismatchRetried = true;
      const pending = outbox.map((entry) => entry.content);
      conversation.newVisitor();
      for (const content of pending) enqueue(content);
      void pump();
      return false;
    }
    if (code === 'session_not_active') {
      // Resolved or expired meanwhile: the conversation is over (it can be rated); these can no longer go to it.
      markOutbox('failed');
      outbox = [];
      persist();
      set({ session: 'ended' });
      return false;
    }
    if (code === 'session_not_found') remember(null);
    if (transient(httpStatus)) {
      // The service is unreachable, busy or failing: keep every message and try again by itself.
      markOutbox('queued');
      status.fail(error, conversation.retryNow);
      backoff = later(backoff);
      schedule(httpStatus === 429 ? (error.retryAfter ?? 10) * 1000 : backoff);
      return false;
    }
    if (httpStatus === 402 || httpStatus === 401 || httpStatus === 403 || code === 'session_not_found' || code === 'widget_not_found') {
      // Retrying on a timer cannot help here; the banner's retry (when it has one) sends them all again.
      markOutbox('failed');
      status.fail(error, conversation.retryNow);
      return false;
    }
    // This message cannot be sent as it is (another 4xx); the ones after it still can.
    outbox = outbox.filter((entry) => entry !== item);
    persist();
    update([item.key], { status: 'failed' });
    status.fail(error, conversation.retryNow);
    return true;
  }

  function enqueue(content: string): void {
    const item = { content, idempotencyKey: randomId('idem_'), key: newKey() };
    outbox.push(item);
    persist();
    set({ messages: [...state().messages, chatMessage('user', content, { key: item.key, status: 'sending' })] });
  }

  const conversation: Conversation = {
    details: () => details,

    start() {
      config().catch((error: unknown) => status.fail(error, conversation.start));
      // Messages left unsent by the previous page: their conversation first, then they go out.
      if (outbox.length) void conversation.restore().then(() => pump());
    },

    restore() {
      // Once per conversation, stored or not: a conversation begun on this page is on screen already (reopening
      // a bubble must not add its history a second time).
      if (!restored) {
        restored = true;
        const stored = loadSession(apiKey, visitorId);
        if (stored) restoring = load(stored);
      }
      return restoring;
    },

    listen(on) {
      listening = on;
      live?.abort();
      if (on) {
        const controller = (live = new AbortController());
        // Done for good (ended, refused): the connection closes too.
        void stream(controller.signal).finally(() => controller.abort());
      }
    },

    async send(text) {
      const content = text.trim();
      if (!content || state().session === 'ended') return;
      // The token first: a sign-out it reveals starts a new conversation, which this message then opens.
      await tokens.ensureFresh();
      enqueue(content);
      await pump();
    },

    retryNow() {
      clearTimeout(resendTimer);
      backoff = 0;
      // Nothing waiting to go out: retry what failed instead (loading the history, the config, a rating).
      if (!outbox.length) return state().problem?.retry?.();
      markOutbox('sending');
      set({ problem: null });
      void pump();
    },

    async submitForm(messageKey, formId, answers, summary) {
      if (state().session === 'ended') return null;
      const turn: Turn = { path: '/form-submissions', body: { formId, answers }, idempotencyKey: randomId('idem_') };
      const error = await inLane(() =>
        run(
          turn,
          () => set({ sentForms: [...state().sentForms, `${messageKey}/${formId}`], messages: [...state().messages, chatMessage('user', summary)] }),
          null,
        ),
      );
      if (error?.code === 'form_rejected') return { [error.field?.replace(/^answers\./, '') ?? '']: error.message };
      if (error?.code === 'session_not_active') set({ session: 'ended' });
      else if (error) {
        if (error.code === 'session_not_found') remember(null);
        status.fail(error, () => void conversation.submitForm(messageKey, formId, answers, summary));
      }
      return null;
    },

    async end() {
      const id = sessionId;
      if (!id || state().session !== 'active') return;
      try {
        await call('POST', id, '/end');
        if (id === sessionId) set({ session: 'ended' });
      } catch (error) {
        status.fail(error, () => void conversation.end());
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
        status.fail(error, () => void conversation.rate(rating));
      }
    },

    startOver() {
      generation++;
      restored = true;
      status.stopCountdown();
      clearTimeout(resendTimer);
      remember(null);
      outbox = [];
      persist();
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
      live?.abort();
      status.stopCountdown();
      clearTimeout(resendTimer);
    },
  };
  return conversation;
}
