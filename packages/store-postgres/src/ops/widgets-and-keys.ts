import type { StoreOps, Widget } from '@svc/core/store-kit';
import { json, toApiKey, toWidget, type ApiKeyRow, type WidgetRow } from '../rows.js';
import type { Db } from './db.js';
import { buildSet, type ColumnSpec } from './patch.js';

type WidgetAndKeyOps = Pick<
  StoreOps,
  | 'insertWidget'
  | 'getWidget'
  | 'updateWidget'
  | 'listWidgets'
  | 'insertApiKey'
  | 'getApiKey'
  | 'findApiKeyByHash'
  | 'listApiKeys'
  | 'revokeApiKey'
  | 'setApiKeyCallbackSecret'
>;

const WIDGET_PATCH_COLUMNS: Readonly<Record<keyof Omit<Widget, 'id' | 'accountId' | 'createdAt'>, ColumnSpec>> = {
  name: { column: 'name' },
  instructions: { column: 'instructions' },
  greeting: { column: 'greeting' },
  language: { column: 'language' },
  timezone: { column: 'timezone' },
  knowledgeBaseIds: { column: 'knowledge_base_ids', json: true },
  forms: { column: 'forms', json: true },
  sessionTtlSeconds: { column: 'session_ttl_seconds' },
  confidenceThreshold: { column: 'confidence_threshold' },
  theme: { column: 'theme', json: true },
  identitySecrets: { column: 'identity_secrets', json: true },
};

export function widgetAndKeyOps(db: Db): WidgetAndKeyOps {
  return {
    async insertWidget(widget) {
      await db().query(
        `insert into widgets (id, account_id, name, instructions, greeting, language, timezone, knowledge_base_ids, forms,
           session_ttl_seconds, theme, identity_secrets, created_at, confidence_threshold)
         values ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9::jsonb, $10, $11::jsonb, $12::jsonb, $13, $14)`,
        [
          widget.id,
          widget.accountId,
          widget.name,
          widget.instructions,
          widget.greeting,
          widget.language,
          widget.timezone,
          json(widget.knowledgeBaseIds),
          json(widget.forms),
          widget.sessionTtlSeconds,
          json(widget.theme),
          json(widget.identitySecrets),
          widget.createdAt,
          widget.confidenceThreshold,
        ],
      );
    },
    async getWidget(id) {
      const [row] = await db().query<WidgetRow>('select * from widgets where id = $1', [id]);
      return row ? toWidget(row) : null;
    },
    async updateWidget(id, patch) {
      const set = buildSet(patch, WIDGET_PATCH_COLUMNS, 2);
      const rows = set
        ? await db().query(`update widgets set ${set.sql} where id = $1 returning id`, [id, ...set.params])
        : await db().query('select id from widgets where id = $1', [id]);
      return rows.length > 0;
    },
    async listWidgets(accountId) {
      const rows = await db().query<WidgetRow>('select * from widgets where account_id = $1 order by created_at, id', [accountId]);
      return rows.map(toWidget);
    },

    async insertApiKey(apiKey) {
      await db().query(
        `insert into api_keys (id, account_id, kind, prefix, hash, scopes, callback_url, callback_secret, reply_format,
           widget_id, allowed_origins, created_at, revoked_at, name)
         values ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9, $10, $11::jsonb, $12, $13, $14)`,
        [
          apiKey.id,
          apiKey.accountId,
          apiKey.kind,
          apiKey.prefix,
          apiKey.hash,
          json(apiKey.scopes),
          apiKey.callbackUrl,
          apiKey.callbackSecret,
          apiKey.replyFormat,
          apiKey.widgetId,
          json(apiKey.allowedOrigins),
          apiKey.createdAt,
          apiKey.revokedAt,
          apiKey.name ?? null,
        ],
      );
    },
    async getApiKey(id) {
      const [row] = await db().query<ApiKeyRow>('select * from api_keys where id = $1', [id]);
      return row ? toApiKey(row) : null;
    },
    async findApiKeyByHash(hash) {
      const [row] = await db().query<ApiKeyRow>('select * from api_keys where hash = $1', [hash]);
      return row ? toApiKey(row) : null;
    },
    async listApiKeys(accountId) {
      const rows =
        accountId === undefined
          ? await db().query<ApiKeyRow>('select * from api_keys order by created_at, id')
          : await db().query<ApiKeyRow>('select * from api_keys where account_id = $1 order by created_at, id', [accountId]);
      return rows.map(toApiKey);
    },
    async setApiKeyCallbackSecret(id, secret) {
      const rows = await db().query('update api_keys set callback_secret = $2 where id = $1 returning id', [id, secret]);
      return rows.length > 0;
    },
    async revokeApiKey(id, at) {
      // The first revocation time stands: revoking twice reports false and changes nothing.
      const rows = await db().query('update api_keys set revoked_at = $2 where id = $1 and revoked_at is null returning id', [id, at]);
      return rows.length > 0;
    },
  };
}
