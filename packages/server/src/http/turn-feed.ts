import { SvcError, type EngineResult, type TurnObserver } from '@svc/core';
import type { MessageReply } from '@svc/core/schemas';

/** What a streamed turn reports after its acceptance, in order. */
export type TurnFeedEvent =
  | { type: 'delta'; text: string }
  | { type: 'completed'; data: MessageReply; creditsConsumed: number }
  | { type: 'failed'; error: unknown }
  /** No AI reply: a person has the conversation (DESIGN.md section 6); their reply comes on the session event stream. */
  | { type: 'handoff' };

/** A turn the engine accepted: from here on it runs to its end, whoever listens. */
export interface AcceptedTurn {
  messageId: string;
  sessionId: string;
  /** A repeated Idempotency-Key: the stream is the first request's turn, answered again (nothing ran twice). */
  replayed: boolean;
  /**
   * Starts delivery to `listener`: first what happened since acceptance, then each event as it happens. Called
   * once, by the response that streams it.
   */
  listen(listener: (event: TurnFeedEvent) => void): void;
  /** The listener went away (the client disconnected): later events are dropped; the turn still finishes. */
  stopListening(): void;
}

/** The outcome of starting a streamed turn: accepted and running, or answered at once without a stream. */
export type StreamedTurnStart = { accepted: AcceptedTurn } | { answered: EngineResult<unknown> };

/**
 * Starts a turn with an observer and settles at the moment it is accepted (or refused). A refusal before
 * acceptance rejects, so the HTTP adapter answers it as an ordinary JSON error with its status. A result that
 * comes without an acceptance (which the engine does not do in stream mode) is handed back as it is.
 *
 * @example
 * const start = await startStreamedTurn((observer) => engine.sendMessage(principal, widgetId, sessionId, body, observer));
 */
export function startStreamedTurn(run: (observer: TurnObserver) => Promise<EngineResult<unknown>>): Promise<StreamedTurnStart> {
  return new Promise<StreamedTurnStart>((resolve, reject) => {
    let accepted = false;
    let backlog: TurnFeedEvent[] | null = [];
    let listener: ((event: TurnFeedEvent) => void) | null = null;
    const emit = (event: TurnFeedEvent): void => {
      if (listener !== null) listener(event);
      else backlog?.push(event);
    };
    const turn: Omit<AcceptedTurn, 'messageId' | 'sessionId' | 'replayed'> = {
      listen(next) {
        const pending = backlog ?? [];
        backlog = null;
        listener = next;
        for (const event of pending) next(event);
      },
      stopListening() {
        backlog = null;
        listener = null;
      },
    };
    const observer: TurnObserver = {
      onAccepted(info) {
        if (accepted) return;
        accepted = true;
        resolve({ accepted: { ...turn, messageId: info.messageId, sessionId: info.sessionId, replayed: info.replayed } });
      },
      onDelta(text) {
        if (accepted && text !== '') emit({ type: 'delta', text });
      },
    };
    run(observer).then(
      (result) => {
        if (!accepted) {
          resolve({ answered: result });
        } else if (result.status === 200) {
          emit({ type: 'completed', data: result.data as MessageReply, creditsConsumed: result.creditsConsumed });
        } else if (result.status === 202 && (result.data as { messageId?: unknown }).messageId === null) {
          emit({ type: 'handoff' });
        } else {
          // Stream mode has no other 202 (core's answerTurn fails a stream past its wait); anything else is a failure.
          emit({ type: 'failed', error: new SvcError('internal_error', `The turn ended with status ${result.status} instead of a reply.`) });
        }
      },
      (error: unknown) => {
        if (accepted) emit({ type: 'failed', error });
        else reject(error);
      },
    );
  });
}
