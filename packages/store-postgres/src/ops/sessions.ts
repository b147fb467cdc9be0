import type { Account, SessionPatch, StoreOps } from '@svc/core/store-kit';
import { json, storedHandoff, toAccount, toMessage, toSession, type MessageRow, type SessionRow } from '../rows.js';
import type { Db } from './db.js';
import { buildSet, type ColumnSpec } from './patch.js';

type SessionOps = Pick<
  StoreOps,
  'lockSession' | 'lockSessionForTurn' | 'insertSession' | 'getSession' | 'updateSession' | 'expireSessions' | 'insertMessage' | 'getMessage' | 'listMessages' | 'recentMessages' | 'setMessageFeedback'
>;

const SESSION_PATCH_COLUMNS: Readonly<Record<keyof SessionPatch, ColumnSpec>> = {
  status: { column: 'status' },
  language: { column: 'language' },
  timezone: { column: 'timezone' },
  messageCount: { column: 'message_count' },
  rating: { column: 'rating' },
  lastActivityAt: { column: 'last_activity_at' },
  expiresAt: { column: 'expires_at' },
  resolvedAt: { column: 'resolved_at' },
  pendingFormId: { column: 'pending_form_id' },
  identitySub: { column: 'identity_sub' },
  handoff: { column: 'handoff', json: true },
  handedOff: { column: 'handed_off' },
  resolvedByOperator: { column: 'resolved_by_operator' },
};

/** A session row with its account's columns (null when the account is missing). */
interface LockedForTurnRow extends SessionRow {
  a_id: string | null;
  a_name: string | null;
  a_balance: number | null;
  a_status: Account['status'] | null;
  a_created_at: Date | null;
}

export function sessionOps(db: Db): SessionOps {
  return {
    async insertSession(session) {
      const rows = await db().query(
        `insert into sessions (widget_id, id, account_id, visitor_id, status, language, timezone, message_count, rating,
           created_at, last_activity_at, expires_at, resolved_at, pending_form_id, identity_sub, creator_key_kind, creator_key_id, handoff,
           handed_off, resolved_by_operator, purpose)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18::jsonb, $19, $20, $21)
         on conflict (widget_id, id) do nothing
         returning id`,
        [
          session.widgetId,
          session.id,
          session.accountId,
          session.visitorId,
          session.status,
          session.language,
          session.timezone,
          session.messageCount,
          session.rating,
          session.createdAt,
          session.lastActivityAt,
          session.expiresAt,
          session.resolvedAt,
          session.pendingFormId,
          session.identitySub,
          session.creatorKeyKind,
          session.creatorKeyId,
          session.handoff === null ? null : json(storedHandoff(session.handoff)),
          session.handedOff,
          session.resolvedByOperator,
          session.purpose ?? 'visitor',
        ],
      );
      return { inserted: rows.length > 0 };
    },
    async getSession(widgetId, sessionId) {
      const [row] = await db().query<SessionRow>('select * from sessions where widget_id = $1 and id = $2', [widgetId, sessionId]);
      return row ? toSession(row) : null;
    },
    async lockSession(widgetId, sessionId) {
      const [row] = await db().query<SessionRow>('select * from sessions where widget_id = $1 and id = $2 for update', [widgetId, sessionId]);
      return row ? toSession(row) : null;
    },
    async lockSessionForTurn(widgetId, sessionId, accountId) {
      // `for update of s` locks the session row only. A row lock waited for yields the row's latest version, but the
      // rest of the statement (the account) is read as of its start: see the port's note.
      const [row] = await db().query<LockedForTurnRow>(
        `select s.*, a.id as a_id, a.name as a_name, a.balance as a_balance, a.status as a_status, a.created_at as a_created_at
           from sessions s left join accounts a on a.id = $3
          where s.widget_id = $1 and s.id = $2
            for update of s`,
        [widgetId, sessionId, accountId],
      );
      if (!row) return null;
      const account =
        row.a_id === null || row.a_name === null || row.a_balance === null || row.a_status === null || row.a_created_at === null
          ? null
          : toAccount({ id: row.a_id, name: row.a_name, balance: row.a_balance, status: row.a_status, created_at: row.a_created_at });
      return { session: toSession(row), account };
    },
    async updateSession(widgetId, sessionId, patch) {
      const stored = patch.handoff === undefined ? patch : { ...patch, handoff: storedHandoff(patch.handoff) };
      const set = buildSet(stored, SESSION_PATCH_COLUMNS, 3);
      const [row] = set
        ? await db().query<SessionRow>(`update sessions set ${set.sql} where widget_id = $1 and id = $2 returning *`, [
            widgetId,
            sessionId,
            ...set.params,
          ])
        : await db().query<SessionRow>('select * from sessions where widget_id = $1 and id = $2', [widgetId, sessionId]);
      return row ? toSession(row) : null;
    },
    async expireSessions(now) {
      const [row] = await db().query<{ count: number }>(
        `with expired as (
           update sessions set status = 'expired' where status = 'active' and expires_at <= $1 returning 1
         )
         select count(*)::int as count from expired`,
        [now],
      );
      return row?.count ?? 0;
    },

    async insertMessage(message) {
      await db().query(
        `insert into messages (id, widget_id, session_id, seq, role, content, products, actions, forms, session_ended,
           credits, usage, created_at, author, sources, outcome, confidence)
         values ($1, $2, $3, $4, $5, $6, $7::jsonb, $8::jsonb, $9::jsonb, $10, $11::jsonb, $12::jsonb, $13, $14::jsonb,
           $15::jsonb, $16, $17)`,
        [
          message.id,
          message.widgetId,
          message.sessionId,
          message.seq,
          message.role,
          message.content,
          json(message.products),
          json(message.actions),
          json(message.forms),
          message.sessionEnded,
          message.credits === null ? null : json(message.credits),
          message.usage === null ? null : json(message.usage),
          message.createdAt,
          message.author === undefined ? null : json(message.author),
          message.sources === undefined ? null : json(message.sources),
          message.outcome ?? null,
          message.confidence ?? null,
        ],
      );
    },
    async getMessage(widgetId, sessionId, messageId) {
      const [row] = await db().query<MessageRow>('select * from messages where id = $3 and widget_id = $1 and session_id = $2', [
        widgetId,
        sessionId,
        messageId,
      ]);
      return row ? toMessage(row) : null;
    },
    async listMessages({ widgetId, sessionId, afterSeq, limit }) {
      const rows = await db().query<MessageRow>(
        `select * from messages
          where widget_id = $1 and session_id = $2 and ($3::integer is null or seq > $3)
          order by seq limit $4`,
        [widgetId, sessionId, afterSeq ?? null, limit],
      );
      return rows.map(toMessage);
    },
    async recentMessages({ widgetId, sessionId, limit }) {
      const rows = await db().query<MessageRow>(
        `select * from (
           select * from messages where widget_id = $1 and session_id = $2 order by seq desc limit $3
         ) recent
         order by seq`,
        [widgetId, sessionId, limit],
      );
      return rows.map(toMessage);
    },
    async setMessageFeedback({ widgetId, sessionId, messageId, feedback }) {
      const [row] = await db().query<MessageRow>(
        'update messages set feedback = $4::jsonb where id = $3 and widget_id = $1 and session_id = $2 returning *',
        [widgetId, sessionId, messageId, json({ ...feedback, updatedAt: feedback.updatedAt.toISOString() })],
      );
      return row ? toMessage(row) : null;
    },
  };
}
