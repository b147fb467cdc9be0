import type { QuestionGroup, QuestionGroupKind, QuestionGroupStatus } from '../domain.js';

/**
 * Question groups (DESIGN.md section 12): the unanswered and thumbs-down questions of a widget, grouped by
 * similarity as they arrive. Core decides which group a question joins; the store keeps the counts atomic.
 */
export interface QuestionOps {
  insertQuestionGroup(group: QuestionGroup): Promise<void>;
  getQuestionGroup(id: string): Promise<QuestionGroup | null>;
  /** The open groups of one widget and kind, most recently asked first, at most `limit`: the candidates to join. */
  openQuestionGroups(query: { widgetId: string; kind: QuestionGroupKind; limit: number }): Promise<QuestionGroup[]>;
  /**
   * One more question in the group, atomically: `count` + 1, `lastAskedAt` the later of the two, the day's count + 1
   * (`day`: `YYYY-MM-DD`), and `sessionId` appended unless present (the oldest dropped past `maxSessions`). Null when
   * the group does not exist.
   */
  addQuestionToGroup(id: string, asked: { at: Date; day: string; sessionId: string; maxSessions: number }): Promise<QuestionGroup | null>;
  /** Resolves or dismisses an open group; null (and nothing changed) when it is not open or does not exist. */
  closeQuestionGroup(id: string, close: { status: Exclude<QuestionGroupStatus, 'open'>; at: Date; documentId: string | null }): Promise<QuestionGroup | null>;
  /**
   * An account's groups with `status`, optionally of one widget, most recently asked first (then id descending);
   * `before` is the keyset position of the previous page's last group (exclusive).
   */
  listQuestionGroups(query: {
    accountId: string;
    widgetId?: string | undefined;
    status: QuestionGroupStatus;
    before?: { lastAskedAt: Date; id: string } | undefined;
    limit: number;
  }): Promise<QuestionGroup[]>;
}
