import type { QuestionOps } from '@svc/core/store-kit';
import { json, toQuestionGroup, type QuestionGroupRow } from '../rows.js';
import type { Db } from './db.js';

/**
 * Question groups (DESIGN.md section 12). A question joins its group in one statement: count, last asked, the day's
 * count and the bounded session list change together, so questions filed at once are all counted.
 */
const ADD_QUESTION = /* sql */ `
  update question_groups set
    count = count + 1,
    last_asked_at = greatest(last_asked_at, $2),
    daily = jsonb_set(daily, array[$3::text], to_jsonb(coalesce((daily ->> $3::text)::integer, 0) + 1)),
    sessions = case
      when sessions ? $4::text then sessions
      when jsonb_array_length(sessions) >= $5::integer then (sessions - 0) || jsonb_build_array($4::text)
      else sessions || jsonb_build_array($4::text)
    end
  where id = $1
  returning *`;

export function questionOps(db: Db): QuestionOps {
  return {
    async insertQuestionGroup(group) {
      await db().query(
        `insert into question_groups (id, account_id, widget_id, kind, status, sample, terms, count, first_asked_at, last_asked_at,
           sessions, daily, closed_at, document_id)
         values ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9, $10, $11::jsonb, $12::jsonb, $13, $14)`,
        [
          group.id,
          group.accountId,
          group.widgetId,
          group.kind,
          group.status,
          group.sample,
          json(group.terms),
          group.count,
          group.firstAskedAt,
          group.lastAskedAt,
          json(group.sessions),
          json(group.daily),
          group.closedAt,
          group.documentId,
        ],
      );
    },
    async getQuestionGroup(id) {
      const [row] = await db().query<QuestionGroupRow>('select * from question_groups where id = $1', [id]);
      return row ? toQuestionGroup(row) : null;
    },
    async openQuestionGroups({ widgetId, kind, limit }) {
      const rows = await db().query<QuestionGroupRow>(
        `select * from question_groups where widget_id = $1 and kind = $2 and status = 'open'
          order by last_asked_at desc, id desc limit $3`,
        [widgetId, kind, Math.max(0, limit)],
      );
      return rows.map(toQuestionGroup);
    },
    async addQuestionToGroup(id, { at, day, sessionId, maxSessions }) {
      const [row] = await db().query<QuestionGroupRow>(ADD_QUESTION, [id, at, day, sessionId, maxSessions]);
      return row ? toQuestionGroup(row) : null;
    },
    async closeQuestionGroup(id, { status, at, documentId }) {
      const [row] = await db().query<QuestionGroupRow>(
        `update question_groups set status = $2, closed_at = $3, document_id = $4 where id = $1 and status = 'open' returning *`,
        [id, status, at, documentId],
      );
      return row ? toQuestionGroup(row) : null;
    },
    async listQuestionGroups({ accountId, widgetId, status, before, limit }) {
      const rows = await db().query<QuestionGroupRow>(
        `select * from question_groups
          where account_id = $1 and status = $2 and ($3::text is null or widget_id = $3)
            and ($4::timestamptz is null or (last_asked_at, id) < ($4, $5::text))
          order by last_asked_at desc, id desc limit $6`,
        [accountId, status, widgetId ?? null, before?.lastAskedAt ?? null, before?.id ?? null, Math.max(0, limit)],
      );
      return rows.map(toQuestionGroup);
    },
  };
}
