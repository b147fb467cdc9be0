import type { ReplyFormat } from '../domain.js';

/** Something to tell about failures that happen after a response was sent (a slow turn that then fails). */
export interface EngineLogger {
  error(message: string, details: Record<string, unknown>): void;
}

export type ReplyFormatter = (markdown: string, format: ReplyFormat) => string;

/** What every engine method returns: the HTTP adapter only adds the envelope. */
export interface EngineResult<T> {
  status: 200 | 201 | 202;
  data: T;
  creditsConsumed: number;
  /** A repeat of an earlier request with the same `Idempotency-Key`, answered from it (turns). */
  replayed?: true;
}

export interface PageResult<T> {
  status: 200;
  data: T[];
  pagination: { cursor: string | null; hasMore: boolean; total?: number };
  creditsConsumed: number;
}
