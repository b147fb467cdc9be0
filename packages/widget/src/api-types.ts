/**
 * Shapes of the JSON the widget reads. Types only, taken from the wire contract (`@svc/core/schemas`) so the widget
 * and the server cannot drift apart; they are erased at build time and add nothing to `widget.js` (DESIGN.md 1).
 */
import type {
  CreatedSession,
  FormQuestion,
  HandoffView,
  HistoryItem,
  MessageReply,
  ProcessingReply,
  Product,
  QuestionKind,
  Rating,
  SessionStatus,
  SessionView,
  SurfacedForm,
  WidgetConfig,
} from '@svc/core/schemas';

export type {
  CreatedSession,
  FormQuestion,
  HandoffView,
  HistoryItem,
  MessageReply,
  ProcessingReply,
  Product,
  QuestionKind,
  Rating,
  SessionStatus,
  SessionView,
  SurfacedForm,
  WidgetConfig,
};

/** A person asked for or answering (DESIGN.md 6): in the session view, null while the AI answers. */
export type Handoff = NonNullable<HandoffView>;

export interface Envelope<T> {
  data: T;
}

export interface Page<T> {
  data: T[];
  pagination: { cursor: string | null; hasMore: boolean };
}

/** A form answer as the form-submission endpoint takes it. */
export type AnswerValue = string | number | boolean | string[];
