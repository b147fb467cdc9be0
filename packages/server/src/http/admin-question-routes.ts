import { answerQuestionRequestSchema, documentSchema, envelope, metaSchema, questionFiltersSchema, questionGroupSchema } from '@svc/core/schemas';
import type { ErrorCode } from '@svc/core';
import { z } from 'zod';
import { ADMIN, BODY, OWNER, ok, V1 } from './admin-route-kit.js';
import type { Route } from './routes.js';

/**
 * The admin API's questions page (DESIGN.md section 12): groups of unanswered and thumbs-down questions, the answer
 * that resolves one (a knowledge document) and dismissal. Owners only, like the knowledge they write.
 */

const groupPath = `${V1}/questions/{groupId}`;
const GROUP: ErrorCode[] = ['validation_failed', 'question_group_not_found', 'question_group_closed'];

export const QUESTION_ROUTES: Route[] = [
  {
    method: 'get',
    path: `${V1}/questions`,
    operationId: 'adminListQuestions',
    tag: 'admin',
    summary: 'List unanswered and thumbs-down questions',
    description:
      'Questions the assistant could not answer (`kind: "unanswered"`) and questions whose reply a visitor rated down (`thumbs_down`), grouped by similarity as they arrive: each group with its first question as `sample`, how often it was asked, when, the sessions that asked (at most 20) and a 14-day `trend`. `status` `open` (default), `resolved` or `dismissed`; most recently asked first; `meta.nextCursor` pages on (null on the last page). Evaluation sessions never appear here.',
    auth: 'admin',
    roles: OWNER,
    query: questionFiltersSchema,
    responses: {
      200: {
        schema: z.object({ data: z.array(questionGroupSchema), meta: metaSchema.extend({ nextCursor: z.string().nullable() }) }),
        description: 'A page of question groups.',
      },
    },
    errors: [...ADMIN, 'validation_failed', 'invalid_cursor'],
    handler: async ({ c, core, caller, query }) => {
      const page = await core.admin.listQuestionGroups(caller.accountId, query);
      return c.json({ data: page.items, meta: { creditsConsumed: 0, nextCursor: page.nextCursor } });
    },
  },
  {
    method: 'post',
    path: `${groupPath}/answer`,
    operationId: 'adminAnswerQuestion',
    tag: 'admin',
    summary: 'Write the answer to a question group',
    description:
      "Adds `content` as a knowledge document (to `knowledgeBaseId`, by default the widget's first knowledge base; titled with the group's sample unless `title` is given) and resolves the group. The very next turn can answer from it. A group already resolved or dismissed answers 409 `question_group_closed`.",
    auth: 'admin',
    roles: OWNER,
    body: { schema: answerQuestionRequestSchema, required: true },
    responses: { 201: { schema: envelope(documentSchema), description: 'The new knowledge document.' } },
    errors: [...ADMIN, ...BODY, ...GROUP, 'knowledge_base_not_found'],
    handler: async ({ core, caller, params, body }) => ok(await core.admin.answerQuestionGroup(caller.accountId, params.groupId!, body), 201),
  },
  {
    method: 'post',
    path: `${groupPath}/dismiss`,
    operationId: 'adminDismissQuestion',
    tag: 'admin',
    summary: 'Dismiss a question group',
    description: 'Takes an open group off the list without answering it; the same question asked again opens a new group.',
    auth: 'admin',
    roles: OWNER,
    responses: { 200: { schema: envelope(questionGroupSchema), description: 'The dismissed group.' } },
    errors: [...ADMIN, 'invalid_json', ...GROUP],
    handler: async ({ core, caller, params }) => ok(await core.admin.dismissQuestionGroup(caller.accountId, params.groupId!)),
  },
];
