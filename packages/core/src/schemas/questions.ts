import { z } from 'zod';
import { isoDateTime } from './common.js';

/** GET /admin/v1/questions (DESIGN.md section 12): one widget or all, open by default, newest asked first. */
export const questionFiltersSchema = z.strictObject({
  widgetId: z.string().min(1).max(128).optional(),
  status: z.enum(['open', 'resolved', 'dismissed'], { error: 'status must be "open", "resolved" or "dismissed"' }).optional(),
  cursor: z.string().max(512).optional(),
  limit: z.coerce.number({ error: 'limit must be an integer from 1 to 100' }).int().min(1).max(100).optional(),
});

/** A group of similar questions the assistant failed, as the admin API shows it. */
export const questionGroupSchema = z.object({
  id: z.string().describe('`qgr_…`'),
  widgetId: z.string(),
  kind: z.enum(['unanswered', 'thumbs_down']).describe('`unanswered`: the assistant did not know; `thumbs_down`: the visitor rated the reply down.'),
  sample: z.string().describe('The first question of the group, as asked.'),
  count: z.int().describe('How many times a question of the group was asked.'),
  firstAskedAt: isoDateTime,
  lastAskedAt: isoDateTime,
  status: z.enum(['open', 'resolved', 'dismissed']),
  sessions: z.array(z.string()).describe('The sessions that asked, oldest first (at most the 20 newest).'),
  trend: z.array(z.object({ date: z.string(), count: z.int() })).describe('Questions per UTC day, the last 14 days, oldest first.'),
  documentId: z.string().nullable().describe('The knowledge document written as its answer (resolved groups).'),
});

/** POST /admin/v1/questions/{groupId}/answer: the knowledge document that answers the group. */
export const answerQuestionRequestSchema = z.strictObject({
  knowledgeBaseId: z.string().min(1).max(128).optional(),
  title: z.string({ error: 'title must be a string' }).trim().min(1, { error: 'title must not be empty' }).max(300).optional(),
  content: z
    .string({ error: 'content must be a string' })
    .refine((value) => value.trim().length > 0, { error: 'content must not be empty or blank' })
    .refine((value) => value.length <= 60_000, { error: 'content must be at most 60000 characters' }),
});

export type QuestionFilters = z.input<typeof questionFiltersSchema>;
export type QuestionGroupView = z.infer<typeof questionGroupSchema>;
export type AnswerQuestionRequest = z.infer<typeof answerQuestionRequestSchema>;
