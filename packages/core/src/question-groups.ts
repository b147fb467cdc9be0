import { MAX_GROUP_SESSIONS, type QuestionGroup, type QuestionGroupKind } from './domain.js';
import type { Clock } from './clock.js';
import type { Ids } from './ids.js';
import type { StoreOps } from './store/store.js';
import { STOPWORDS, stemEnglish } from './text-terms.js';

/**
 * Grouping of failed questions (DESIGN.md section 12), incremental: a new question is compared with the open groups
 * of its widget and kind only (at most {@link CANDIDATE_GROUPS}, the most recently asked), joins the most similar one
 * when the similarity reaches {@link QUESTION_SIMILARITY}, else opens a group of its own. Nothing is recomputed over
 * the history.
 *
 * Similarity is the Jaccard index of the two term sets: words folded (lower case, no accents), stopwords of the
 * four languages dropped, English suffixes stripped (text-terms.ts, as retrieval counts words). A group is
 * compared through its first question's terms, so a group does not drift as it grows.
 */
export const QUESTION_SIMILARITY = 0.5;
export const CANDIDATE_GROUPS = 200;
/** The sample kept for a group: the question's first characters. */
const SAMPLE_CHARS = 500;

/** The distinct terms of a question, as groups compare them. */
export function questionTerms(text: string): string[] {
  const words = text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words.filter((word) => !STOPWORDS.has(word)).map(stemEnglish))];
}

/** Jaccard index of two term sets: 1 the same words, 0 none in common (two empty sets: 0, never grouped). */
export function questionSimilarity(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  const left = new Set(a);
  const shared = b.filter((term) => left.has(term)).length;
  return shared / (left.size + new Set(b).size - shared);
}

/**
 * Evaluation sessions (DESIGN.md section 12: an eval run's conversations, marked `purpose: "evaluation"` on the
 * session by the evals) never reach the questions page. Read loosely, so the check holds whether or not this
 * build's Session declares the mark.
 */
export const isEvaluation = (session: object): boolean => (session as { purpose?: unknown }).purpose === 'evaluation';

/** The UTC day of an instant, `YYYY-MM-DD`: the key of a group's daily counts. */
export const utcDay = (at: Date): string => at.toISOString().slice(0, 10);

export interface AskedQuestion {
  accountId: string;
  widgetId: string;
  sessionId: string;
  kind: QuestionGroupKind;
  question: string;
}

/**
 * Files `asked` into its group, in `tx` (the caller's transaction) or the store: the most similar open group of the
 * widget and kind, or a new one. Returns the group after.
 */
export async function recordQuestion(ctx: { clock: Clock; ids: Ids }, tx: StoreOps, asked: AskedQuestion): Promise<QuestionGroup> {
  const at = ctx.clock.now();
  const terms = questionTerms(asked.question);
  const candidates = await tx.openQuestionGroups({ widgetId: asked.widgetId, kind: asked.kind, limit: CANDIDATE_GROUPS });
  let best: { group: QuestionGroup; score: number } | null = null;
  for (const group of candidates) {
    const score = questionSimilarity(terms, group.terms);
    if (score >= QUESTION_SIMILARITY && (!best || score > best.score)) best = { group, score };
  }
  if (best) {
    const joined = await tx.addQuestionToGroup(best.group.id, { at, day: utcDay(at), sessionId: asked.sessionId, maxSessions: MAX_GROUP_SESSIONS });
    if (joined) return joined;
  }
  const group: QuestionGroup = {
    id: ctx.ids.random('qgr'),
    accountId: asked.accountId,
    widgetId: asked.widgetId,
    kind: asked.kind,
    status: 'open',
    sample: [...asked.question.trim()].slice(0, SAMPLE_CHARS).join(''),
    terms,
    count: 1,
    firstAskedAt: at,
    lastAskedAt: at,
    sessions: [asked.sessionId],
    daily: { [utcDay(at)]: 1 },
    closedAt: null,
    documentId: null,
  };
  await tx.insertQuestionGroup(group);
  return group;
}
