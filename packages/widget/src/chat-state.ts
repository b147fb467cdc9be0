import type { Product, Rating, SurfacedForm, WidgetConfig } from './api-types.js';

export interface ChatMessage {
  /** Local key, stable for rendering; `id` is the server's messageId once known. */
  key: string;
  id: string | null;
  role: 'user' | 'assistant';
  content: string;
  products: Product[];
  /** Forms surfaced by a reply received in this page view (history items carry none). */
  forms: SurfacedForm[];
  /**
   * A visitor message not accepted yet: `sending` (in the outbox, going out now), `queued` (waiting for the
   * service or the network to come back; retried automatically), `failed` (retrying cannot help by itself: the
   * banner's retry sends it again). Absent once the service accepted it.
   */
  status?: 'sending' | 'queued' | 'failed';
  /** When it was written (epoch ms): the history's `createdAt`, or when it was typed or arrived. */
  at?: number;
  /** The name of the person who wrote it (an operator who took over from the AI); absent for the AI's replies. */
  author?: string;
}

/** What the status banner shows. `retry` is null when trying again cannot help (a misconfigured key, say). */
export interface Problem {
  /**
   * Its text is the interface string of the same name (`OFFLINE`…). `offline`: the browser says it has no network; `unreachable`: it has
   * one but the service does not answer; `busy` is a 429; `unavailable` is a 402 (with a retry) or a key the
   * service refuses (without one: only the site's developer can fix that).
   */
  kind: 'offline' | 'unreachable' | 'busy' | 'unavailable' | 'error';
  retry: (() => void) | null;
  /** 429: epoch ms before which retrying is pointless (from `Retry-After`). */
  retryAt?: number;
}

export type SessionPhase = 'none' | 'active' | 'ended';

export interface ChatState {
  open: boolean;
  online: boolean;
  config: WidgetConfig | null;
  /** History is being restored after a reload. */
  loading: boolean;
  messages: ChatMessage[];
  typing: boolean;
  session: SessionPhase;
  rating: Rating | null;
  problem: Problem | null;
  /** Text of the latest reply for the polite live region; restored history is not announced. */
  announcement: string;
  /** `${messageKey}/${formId}` of forms already sent, shown as done. */
  sentForms: string[];
}

export function initialChatState(open: boolean): ChatState {
  return {
    open,
    online: navigator.onLine,
    config: null,
    loading: false,
    messages: [],
    typing: false,
    session: 'none',
    rating: null,
    problem: null,
    announcement: '',
    sentForms: [],
  };
}
