import type { ApiError, RequestOptions } from './api.js';
import type { AnswerValue, HistoryItem, WidgetConfig } from './api-types.js';
import type { Conversation, ConversationOptions } from './conversation.js';
import type { Status } from './status.js';

/** A request under `/widgets/{id}/conversations[/{session}]`, with a fresh identity token. */
export type Call = <T>(session: string | null, suffix: string, request?: RequestOptions) => Promise<T>;

/**
 * A turn: a visitor message (an outbox item) or a form submission. Its `idempotencyKey` is kept across retries: the
 * server replays the first success instead of running the turn twice. The rest is the body that goes out.
 */
export type Turn = { idempotencyKey: string } & ({ content: string } | { formId: string; answers: Record<string, AnswerValue> });

/**
 * The one object the conversation's modules share (DESIGN.md 3b): the options it was created with, the state every
 * module reads, and the functions each module adds (session.ts, turn-stream.ts, outbox.ts, live-events.ts). What
 * only one module needs stays in that module's closure. One object rather than several passed about, because the
 * widget's budget is counted in bytes.
 */
export interface Context extends ConversationOptions, Conversation, Status {
  /**
   * Bumped when the conversation starts over (or the widget goes): every async step compares it with the value it
   * began with, so a late answer never lands in a newer conversation.
   */
  generation: number;
  /** The session's id: none (unset, or null) until the first message creates it or the stored one is loaded. */
  current?: string | null;
  /** The stored conversation loading: a new session, or the event stream, waits for it. */
  restoring: Promise<void>;

  // session.ts
  /** The widget's name, greeting, language and theme: read once (again after a failure). */
  fetchConfig(): Promise<WidgetConfig>;
  /** Requests under the widget's conversations, one function per HTTP method. */
  GET: Call;
  POST: Call;
  /** The whole history of a session, page after page. */
  history(session: string): Promise<HistoryItem[]>;
  /** Takes this session id (null: none), in storage too; the event stream follows it. */
  remember(id: string | null): void;
  /** The current session, created on first use. */
  ensure(): Promise<string>;

  // turn-stream.ts
  /**
   * Sends one turn after the ones before it and shows its reply; `accepted` runs once the service has the turn.
   * Resolves with the error, if any.
   */
  turn(turn: Turn, accepted?: () => void): Promise<ApiError | null>;

  // outbox.ts
  /** Sends the outbox in order until it is empty or the service says no. */
  pump(): Promise<void>;
  /** Adds a visitor message to the outbox and to the screen. */
  enqueue(content: string): void;
  /** Stops the timer of the next automatic retry. */
  stop(): void;
  /** Empties the outbox (the conversation starts over). */
  drop(): void;

  // live-events.ts
  /** The stream starts over for a new session (or none): from the session's first event. */
  follow(): void;
}
