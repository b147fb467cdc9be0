/**
 * How a caller watches a turn as it runs (DESIGN.md section 4, streaming). The HTTP adapter turns these calls
 * into server-sent events; the engine never knows about HTTP.
 *
 * @example
 * await engine.sendMessage(principal, widgetId, sessionId, { content: 'Hi', response_type: 'stream' }, {
 *   onAccepted: ({ messageId }) => send(TURN_EVENT.start, { messageId }),
 *   onDelta: (text) => send(TURN_EVENT.delta, { text }),
 * });
 */
export interface TurnObserver {
  /**
   * The turn was accepted (its job committed): from here on errors are reported as message.failed. `replayed`: the
   * request repeated an earlier one's Idempotency-Key, and what follows is that turn's reply (nothing runs again).
   */
  onAccepted(info: { messageId: string; sessionId: string; replayed: boolean }): void;
  /** A piece of reply text, in order, as the agent writes it (raw Markdown). */
  onDelta(text: string): void;
}

/** Observer calls must never break a turn: a caller that went away or threw changes nothing stored. */
export function safeObserver(observer: TurnObserver | undefined): TurnObserver | undefined {
  if (!observer) return undefined;
  return {
    onAccepted(info) {
      try {
        observer.onAccepted(info);
      } catch {
        // The caller's problem, not the turn's: the reply still lands in the history.
      }
    },
    onDelta(text) {
      try {
        observer.onDelta(text);
      } catch {
        // Same: a broken listener must not abort the agent.
      }
    },
  };
}
