import { z } from 'zod';
import type { KnowledgeDocument, QuestionGroup } from '../domain.js';
import { manualSource } from '../sources/sources.js';
import { SvcError } from '../errors.js';
import { base64url, fromBase64url } from '../cursor.js';
import { documentView } from '../engine/knowledge.js';
import { utcDay } from '../question-groups.js';
import type { DocumentView } from '../schemas/knowledge.js';
import { answerQuestionRequestSchema, questionFiltersSchema, type QuestionFilters, type QuestionGroupView } from '../schemas/questions.js';
import { parseInput } from '../schemas/validate.js';
import { owned, type AccountScope, type AdminContext } from './context.js';

/**
 * The questions page (DESIGN.md section 12): the groups of unanswered and thumbs-down questions, the answer that
 * resolves a group (a knowledge document, used from the next turn on) and dismissal.
 */

const TREND_DAYS = 14;
const DAY_MS = 86_400_000;

export function questionGroupView(group: QuestionGroup, today: Date): QuestionGroupView {
  const trend = Array.from({ length: TREND_DAYS }, (_, i) => {
    const date = utcDay(new Date(today.getTime() - (TREND_DAYS - 1 - i) * DAY_MS));
    return { date, count: group.daily[date] ?? 0 };
  });
  return {
    id: group.id,
    widgetId: group.widgetId,
    kind: group.kind,
    sample: group.sample,
    count: group.count,
    firstAskedAt: group.firstAskedAt.toISOString(),
    lastAskedAt: group.lastAskedAt.toISOString(),
    status: group.status,
    sessions: [...group.sessions],
    trend,
    documentId: group.documentId,
  };
}

/** An account's groups, most recently asked first; `nextCursor` pages on (null on the last page). */
export async function listQuestionGroups(
  ctx: AdminContext,
  accountId: string,
  filters: QuestionFilters = {},
): Promise<{ items: QuestionGroupView[]; nextCursor: string | null }> {
  const input = parseInput(questionFiltersSchema, filters);
  const limit = input.limit ?? 50;
  const groups = await ctx.store.listQuestionGroups({
    accountId,
    widgetId: input.widgetId,
    status: input.status ?? 'open',
    before: input.cursor === undefined ? undefined : decodeCursor(input.cursor),
    limit: limit + 1,
  });
  const page = groups.slice(0, limit);
  const last = page.at(-1);
  const now = ctx.clock.now();
  return { items: page.map((group) => questionGroupView(group, now)), nextCursor: groups.length > limit && last ? encodeCursor(last) : null };
}

async function loadGroup(ctx: AdminContext, scope: AccountScope, groupId: string): Promise<QuestionGroup> {
  return owned(scope, await ctx.store.getQuestionGroup(groupId), {
    code: 'question_group_not_found',
    message: `Question group ${groupId} was not found.`,
    field: 'groupId',
  });
}

const closedError = (group: QuestionGroup): SvcError =>
  new SvcError('question_group_closed', `Question group ${group.id} is already ${group.status}.`);

/**
 * Writes the answer of a group as a knowledge document (in `knowledgeBaseId`, by default the widget's first knowledge
 * base; titled with the group's sample unless `title` is given) and resolves the group, together. Full-text retrieval
 * finds the document from the next turn on; its vectors follow with the embedding job.
 */
export async function answerQuestionGroup(ctx: AdminContext, scope: AccountScope, answer: { groupId: string; body: unknown }): Promise<DocumentView> {
  const { groupId } = answer;
  const input = parseInput(answerQuestionRequestSchema, answer.body);
  const group = await loadGroup(ctx, scope, groupId);
  if (group.status !== 'open') throw closedError(group);
  const widget = await ctx.store.getWidget(group.widgetId);
  const kbId = input.knowledgeBaseId ?? widget?.knowledgeBaseIds[0];
  if (kbId === undefined) {
    throw new SvcError('validation_failed', 'The widget has no knowledge base: name one in knowledgeBaseId.', { field: 'knowledgeBaseId' });
  }
  const kb = await ctx.store.getKnowledgeBase(kbId);
  if (!kb || kb.accountId !== group.accountId) {
    throw new SvcError('knowledge_base_not_found', `Knowledge base ${kbId} was not found.`, { field: 'knowledgeBaseId' });
  }
  const doc = await ctx.store.transaction(async (tx) => {
    // An answer written here is a hand-written document: it joins the knowledge base's manual source.
    const source = await manualSource(ctx, tx, kb);
    const written: KnowledgeDocument = {
      id: ctx.ids.random('doc'),
      knowledgeBaseId: kb.id,
      sourceId: source.id,
      title: input.title ?? [...group.sample].slice(0, 300).join('').trim(),
      content: input.content,
      url: null,
      createdAt: ctx.clock.now(),
    };
    const closed = await tx.closeQuestionGroup(group.id, { status: 'resolved', at: written.createdAt, documentId: written.id });
    if (!closed) throw closedError((await tx.getQuestionGroup(group.id)) ?? group);
    await tx.insertDocument(written);
    return written;
  });
  ctx.onWork?.('embedding');
  return documentView(doc);
}

/** Dismisses an open group: it leaves the open list; the same question asked again opens a new group. */
export async function dismissQuestionGroup(ctx: AdminContext, scope: AccountScope, groupId: string): Promise<QuestionGroupView> {
  const group = await loadGroup(ctx, scope, groupId);
  const now = ctx.clock.now();
  const closed = await ctx.store.closeQuestionGroup(group.id, { status: 'dismissed', at: now, documentId: null });
  if (!closed) throw closedError((await ctx.store.getQuestionGroup(group.id)) ?? group);
  return questionGroupView(closed, now);
}

// The account is re-checked on every page (the list is filtered by it), so an unsigned keyset position is enough.
const cursorSchema = z.object({ t: z.iso.datetime(), id: z.string().min(1) });

function encodeCursor(group: QuestionGroup): string {
  return base64url(new TextEncoder().encode(JSON.stringify({ t: group.lastAskedAt.toISOString(), id: group.id })));
}

function decodeCursor(cursor: string): { lastAskedAt: Date; id: string } {
  try {
    const position = cursorSchema.parse(JSON.parse(new TextDecoder().decode(fromBase64url(cursor))));
    return { lastAskedAt: new Date(position.t), id: position.id };
  } catch {
    throw new SvcError('invalid_cursor', 'cursor is not a cursor of this list; omit it to start from the first page.', { field: 'cursor' });
  }
}
