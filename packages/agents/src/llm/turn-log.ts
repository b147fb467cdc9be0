import type { MessageSource, Product, SurfacedForm } from '@svc/core/store-kit';

/**
 * What the tools did during one turn. The reply is built from it rather than from the model's words: products,
 * the form and the end of the session are facts the tools established, whatever the model then writes.
 */
export interface TurnLog {
  /** Products returned by `search_products`, first sighting first; keyed by id so a product appears once. */
  products: Map<string, Product>;
  /** The form `show_form` surfaced. One per reply: the engine records a single pending form. */
  form: SurfacedForm | null;
  /** `end_conversation` was called. */
  ended: boolean;
  /** `request_handoff` was called: the visitor asked for a person. */
  handoff: boolean;
  /** Searches the store answered (knowledge and products): each is a billed retrieval. */
  retrievals: number;
  /** Texts embedded and rerank calls made by those searches (optional providers). */
  embeddings: number;
  reranks: number;
  /** Documents `search_knowledge` returned at or above the widget's threshold, first sighting first: the reply's sources. */
  sources: Map<string, MessageSource>;
  /** The best confidence any knowledge search reached this turn; null when none ran. */
  confidence: number | null;
}

export function createTurnLog(): TurnLog {
  return { products: new Map(), form: null, ended: false, handoff: false, retrievals: 0, embeddings: 0, reranks: 0, sources: new Map(), confidence: null };
}
