import type { TurnEvent } from './callback-store.js';

/** In-process fan-out of turn events, shared by the stores (each adds its own cross-process relay, if any). */
export interface TurnEventBus {
  /** Calls every listener soon (never synchronously: a publisher may be in the middle of a commit). */
  publish(event: TurnEvent): void;
  subscribe(listener: (event: TurnEvent) => void): () => void;
}

export function createTurnEventBus(): TurnEventBus {
  const listeners = new Set<(event: TurnEvent) => void>();
  return {
    publish(event) {
      if (listeners.size === 0) return;
      queueMicrotask(() => {
        for (const listener of listeners) {
          try {
            listener(event);
          } catch {
            // A listener's failure is its own: the others still hear about the event.
          }
        }
      });
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
