import type { Api } from './api.js';
import type { AnswerValue, Rating, WidgetConfig } from './api-types.js';
import type { ChatState } from './chat-state.js';
import type { Context } from './context.js';
import type { VisitorDetails } from './identify-validation.js';
import { createLiveEvents } from './live-events.js';
import { chatMessage } from './messages.js';
import { createOutbox } from './outbox.js';
import { randomId } from './random-id.js';
import { createSession } from './session.js';
import { createStatus } from './status.js';
import type { Store } from './store.js';
import { createTurnStream } from './turn-stream.js';

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
  details: VisitorDetails;
  /** Loads the widget's name, greeting, language and theme. */
  start(): void;
  /** Reloads the stored conversation once: on the first open of a bubble, at once for a chatbox (session.ts). */
  restore(): Promise<void>;
  /**
   * Follows the session's event stream (DESIGN.md 6) while the panel is open: operator messages and session changes
   * appear live. Resumes after a dropped connection where it left off, also on the next open; false stops it
   * (live-events.ts).
   */
  listen(on: boolean): void;
  /**
   * Sends a visitor message (spec 4.2) through the outbox: kept in storage until the service accepts it, sent in
   * order after the ones before it (so Enter while a reply is pending queues it). Ignored once the conversation ended.
   */
  send(text: string): Promise<void>;
  /** Sends the outbox now: the banner's retry, the browser coming back online, the tab becoming visible (outbox.ts). */
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
  /** A fresh conversation for the same visitor: the next message creates a new session (session.ts). */
  startOver(): void;
  /** Automatic sign-out (spec 4.9): nothing of the previous visitor survives, in storage or in memory (session.ts). */
  newVisitor(): void;
  dispose(): void;
}

/**
 * The conversation behind the chat UI, put together from modules with one job each, which share one context
 * (context.ts): the session (session.ts), the turns and their streamed replies (turn-stream.ts), the outbox
 * (outbox.ts), the session's event stream (live-events.ts) and the status banner (status.ts). What is left here
 * is what the UI asks for that spans them.
 */
export function createConversation(options: ConversationOptions): Conversation {
  // The options become the context: its modules read them, and the visitor's id and details change with the visitor.
  // Filled in below; nothing runs before it is whole (a module's factory reads only the options).
  const c = options as Context;
  const state = c.store.get;
  const set = c.store.set;
  const conversation: Pick<Conversation, 'start' | 'send' | 'submitForm' | 'end' | 'rate' | 'dispose'> = {
    start() {
      c.fetchConfig().catch((error: unknown) => c.fail(error, c.start));
      // Messages left unsent by the previous page (the only messages on screen yet): their conversation first, then
      // they go out.
      if (state().messages.length) void c.restore().then(c.pump);
    },

    async send(text) {
      const content = text.trim();
      if (!content || state().session === 'ended') return;
      // The token first: a sign-out it reveals starts a new conversation, which this message then opens.
      await c.tokens.ensureFresh();
      c.enqueue(content);
      await c.pump();
    },

    async submitForm(messageKey, formId, answers, summary) {
      if (state().session === 'ended') return null;
      const error = await c.turn({ formId, answers, idempotencyKey: randomId('idem_') }, () =>
        set({ sentForms: [...state().sentForms, `${messageKey}/${formId}`], messages: [...state().messages, chatMessage('user', summary)] }),
      );
      if (error?.code === 'form_rejected') return { [error.field?.replace(/^answers\./, '') ?? '']: error.message };
      if (error?.code === 'session_not_active') set({ session: 'ended' });
      else if (error) {
        if (error.code === 'session_not_found') c.remember(null);
        c.fail(error, () => void c.submitForm(messageKey, formId, answers, summary));
      }
      return null;
    },

    async end() {
      const id = c.current;
      if (!id || state().session !== 'active') return;
      try {
        await c.POST(id, '/end');
        if (id === c.current) set({ session: 'ended' });
      } catch (error) {
        c.fail(error, () => void c.end());
      }
    },

    async rate(rating) {
      const id = c.current;
      const previous = state().rating;
      if (!id || state().session !== 'ended') return;
      set({ rating, problem: null });
      try {
        await c.POST(id, '/rate', { body: { rating } });
      } catch (error) {
        if (id !== c.current) return;
        set({ rating: previous });
        c.fail(error, () => void c.rate(rating));
      }
    },

    dispose() {
      c.generation++;
      c.listen(false);
      c.stopCountdown();
      c.stop();
    },
  };
  return Object.assign(
    c,
    createStatus(c.store, c.signal),
    { generation: 0, restoring: Promise.resolve() },
    createSession(c),
    createTurnStream(c),
    createOutbox(c),
    createLiveEvents(c),
    conversation,
  );
}
