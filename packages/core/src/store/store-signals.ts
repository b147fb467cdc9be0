import type { StoreSignal } from './turn-job-store.js';

/** In-process fan-out of turn events, shared by the stores (each adds its own cross-process relay, if any). */
export interface SignalBus {
  /** Calls every listener soon (never synchronously: a publisher may be in the middle of a commit). */
  publish(event: StoreSignal): void;
  subscribe(listener: (event: StoreSignal) => void): () => void;
}

export function createSignalBus(): SignalBus {
  const listeners = new Set<(event: StoreSignal) => void>();
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
