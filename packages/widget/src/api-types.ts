/**
 * Shapes of the JSON the widget reads. Types only, taken from `@svc/core` so the widget and the server cannot drift
 * apart; they are erased at build time and add nothing to `widget.js` (DESIGN.md 1).
 */
import type {
  CreatedSession,
  FormQuestion,
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
} from '@svc/core';

export type {
  CreatedSession,
  FormQuestion,
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

export interface Envelope<T> {
  data: T;
}

export interface Page<T> {
  data: T[];
  pagination: { cursor: string | null; hasMore: boolean };
}

/** A form answer as the form-submission endpoint takes it. */
export type AnswerValue = string | number | boolean | string[];
