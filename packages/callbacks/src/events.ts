/**
 * The delivery payloads, declared here rather than imported from `@svc/core` so the package keeps zero runtime
 * dependencies and its published types stand alone. `event-shape.ts` checks every field typed here.
 */

/** The eight buckets of spec 2.6, all present in every reply (`plugin` was `api` before release 1.31.0). */
export interface CallbackCredits {
  chat: number;
  retrieval: number;
  orchestration: number;
  embedding: number;
  rerank: number;
  plugin: number;
  pluginRerank: number;
  crawler: number;
}

export interface CallbackUsage {
  inputTokens: number;
  outputTokens: number;
}

/** Spec 2.4 shows `id`, `name` and `price`; the server may send more fields (currency, url, imageUrl…). */
export interface CallbackProduct {
  id: string;
  name: string;
  price: number;
  [field: string]: unknown;
}

/** Item shape not fixed by the spec; the server sends `{ type, label, value?, url? }`. */
export interface CallbackAction {
  [field: string]: unknown;
}

/** A dynamic form surfaced by the reply (DESIGN.md 4, "Forms"): answer it with a form submission. */
export interface CallbackForm {
  formId: string;
  title: string;
  questions: Array<{ id: string; label: string; kind: string; required: boolean; [field: string]: unknown }>;
}

/** `message.completed` (spec 6): the AI reply to a callback-mode message or form submission is ready. */
export interface MessageCompletedEvent {
  event: 'message.completed';
  /** The delivery's id, inside the signed body: de-duplicate on it (equal to the X-Svc-Delivery header). */
  deliveryId: string;
  messageId: string;
  sessionId: string;
  widgetId: string;
  data: {
    content: string;
    products: CallbackProduct[];
    actions: CallbackAction[];
    /** Present when the AI surfaced a form. */
    forms?: CallbackForm[];
    sessionEnded: boolean;
    credits: CallbackCredits;
    usage: CallbackUsage;
    /** Present when a person wrote this reply during a handoff (credits and usage are then zero). */
    author?: MessageAuthor;
  };
}

/** The writer of an operator reply (DESIGN.md 6). */
export interface MessageAuthor {
  type: 'operator';
  name: string;
}

/** A handoff to a person: `requested` until an operator accepts it, then `active`; null while the AI answers. */
export interface LifecycleHandoff {
  state: 'requested' | 'active';
  /** ISO 8601: when it entered this state. */
  since: string;
  /** Who took it over (`id` null for a name given on the CLI or a server key); null while requested. */
  operator: { id: string | null; name: string } | null;
}

/** `message.failed` (DESIGN.md 5): processing failed; the user's message is stored, no reply was produced. */
export interface MessageFailedEvent {
  event: 'message.failed';
  /** The delivery's id, inside the signed body: de-duplicate on it (equal to the X-Svc-Delivery header). */
  deliveryId: string;
  messageId: null;
  sessionId: string;
  widgetId: string;
  error: { code: string; message: string };
}

/** A session as get-session shows it: the `data` of every lifecycle event, as it is after the change. */
export interface LifecycleSession {
  sessionId: string;
  widgetId: string;
  visitorId: string;
  status: 'active' | 'resolved' | 'expired';
  messageCount: number;
  rating: 'positive' | 'negative' | null;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601; null unless resolved. */
  resolvedAt: string | null;
  /** Null while the AI answers (absent from servers older than handoff). */
  handoff?: LifecycleHandoff | null;
}

/**
 * The envelope of the lifecycle webhooks (DESIGN.md 5), sent to an account's webhook endpoints (`svc webhooks
 * create`) and signed with the endpoint's secret.
 */
interface LifecycleEventBase<Name extends string> {
  event: Name;
  /** The event's id: the same at every endpoint told about this change. */
  id: string;
  /** The delivery's id, inside the signed body: de-duplicate on it (equal to the X-Svc-Delivery header). */
  deliveryId: string;
  /** ISO 8601: when the change happened. */
  createdAt: string;
  data: LifecycleSession;
}

/** A session was created (not resumed). */
export type SessionCreatedEvent = LifecycleEventBase<'session.created'>;

/**
 * A session was resolved: `ended` by the end-session call, `agent` when the AI concluded the conversation,
 * `operator` when a person resolved it.
 */
export interface SessionResolvedEvent extends LifecycleEventBase<'session.resolved'> {
  reason: 'ended' | 'agent' | 'operator';
}

/** A session expired after its widget's idle time. */
export type SessionExpiredEvent = LifecycleEventBase<'session.expired'>;

/** A resolved or expired session was rated (again: a new rating replaces the old one). */
export type SessionRatedEvent = LifecycleEventBase<'session.rated'>;

/**
 * A handoff changed: `state` `requested` (the visitor asked for a person), `active` (an operator took over) or
 * `released` (back to the AI; `data.handoff` is then null).
 */
export interface SessionHandoffEvent extends LifecycleEventBase<'session.handoff'> {
  state: 'requested' | 'active' | 'released';
}

/** The feedback a visitor left on one AI reply (a thumbs up or down, and why). */
export interface MessageFeedback {
  messageId: string;
  rating: 'up' | 'down';
  reason: 'wrong' | 'incomplete' | 'unhelpful' | 'other' | null;
  comment: string | null;
  /** ISO 8601. */
  updatedAt: string;
}

/** A visitor rated an AI reply (again: new feedback replaces the old); `data` is the reply's session. */
export interface MessageFeedbackEvent extends LifecycleEventBase<'message.feedback'> {
  feedback: MessageFeedback;
}

export type LifecycleEvent = SessionCreatedEvent | SessionResolvedEvent | SessionExpiredEvent | SessionRatedEvent | SessionHandoffEvent | MessageFeedbackEvent;

/** Discriminated on `event`: `switch (callback.event.event)` narrows to the payload. */
export type CallbackEvent = MessageCompletedEvent | MessageFailedEvent | LifecycleEvent;

export type CallbackEventName = CallbackEvent['event'];

/** A delivery that passed every check. */
export interface VerifiedCallback {
  event: CallbackEvent;
  /**
   * The delivery id: the same on every retry of one delivery. Retries happen when your 2xx did not arrive in time,
   * so record it (a unique key) and skip ids already handled. It is read from the signed body (`event.deliveryId`)
   * and must equal the X-Svc-Delivery header, so a captured delivery replayed under a new id is rejected rather
   * than passing your de-duplication.
   */
  deliveryId: string;
  /** `X-Svc-Timestamp`, Unix seconds of this attempt. */
  timestamp: number;
}
