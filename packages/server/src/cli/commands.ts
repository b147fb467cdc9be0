import { readFile, rename, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { parseArgs } from 'node:util';
import { ANY_ACCOUNT, isSvcError, views, type AdminApi, type Store } from '@svc/core';
import { backupPgliteStore, migrate } from '@svc/store-postgres';
import type { ServerConfig } from '../config.js';
import { userDirectory } from '../config.js';
import { operatorAdmin } from './operator-admin.js';
import { runOperatorCommand } from './operators-cli.js';
import { CONVERSATION_OPTIONS, isConversationCommand, runConversationCommand } from './conversations-cli.js';
import { isSourceCommand, runSourceCommand, SOURCE_OPTIONS, type SourceValues } from './sources-cli.js';
import { sourcesCore } from './source-sync.js';
import { runEvalCommand } from './evals-cli.js';

/**
 * The `svc` administration commands, run against a store: by the CLI on the database directly, or by a running
 * server on the CLI's behalf when the embedded database is held by that server (see admin-route.ts). Each command
 * only translates: flags in, one operation of `@svc/core`'s admin module, JSON and a human line out. Whoever runs
 * `svc` on the database administers every account, hence {@link ANY_ACCOUNT}.
 */
export class UsageError extends Error {}

export const OPTIONS = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  port: { type: 'string' },
  host: { type: 'string' },
  name: { type: 'string' },
  credits: { type: 'string' },
  account: { type: 'string' },
  balance: { type: 'string' },
  'knowledge-base': { type: 'string', multiple: true },
  greeting: { type: 'string' },
  language: { type: 'string' },
  timezone: { type: 'string' },
  'session-ttl': { type: 'string' },
  scopes: { type: 'string' },
  'callback-url': { type: 'string' },
  'reply-format': { type: 'string' },
  id: { type: 'string' },
  file: { type: 'string' },
  role: { type: 'string' },
  demo: { type: 'boolean' },
  out: { type: 'string' },
  widget: { type: 'string' },
  origins: { type: 'string' },
  failed: { type: 'boolean' },
  limit: { type: 'string' },
  'grace-hours': { type: 'string' },
  url: { type: 'string' },
  events: { type: 'string' },
  'grace-seconds': { type: 'string' },
  email: { type: 'string' },
  format: { type: 'string' },
  ...CONVERSATION_OPTIONS,
  ...SOURCE_OPTIONS,
} as const;

export type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

function required(values: Values, name: keyof Values): string {
  const value = values[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${String(name)} is required`);
  return value;
}

export function number(raw: string, flag: string): number {
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value)) throw new UsageError(`--${flag} must be a number; got "${raw}"`);
  return value;
}

async function readJsonFile(file: string): Promise<unknown> {
  const path = resolve(userDirectory(), file);
  try {
    return JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new UsageError(`Cannot read ${path} as JSON: ${(error as Error).message}`);
  }
}

/** What a command prints: `json` with --json, else `text`; `exitCode` when not 0 although it ran (a failed eval). */
export interface CommandOutput {
  json: unknown;
  text: string;
  exitCode?: number;
}

interface CommandContext {
  values: Values;
  admin: AdminApi;
  store: Store;
  config: ServerConfig;
}

const optional = <K extends string, T>(key: K, value: T | undefined): { [P in K]?: T } =>
  (value === undefined ? {} : { [key]: value }) as { [P in K]?: T };

const list = (value: string): string[] => value.split(',').map((item) => item.trim()).filter(Boolean);

const COMMANDS: Record<string, (c: CommandContext) => Promise<CommandOutput>> = {
  async migrate({ store }) {
    const applied = await migrate(store);
    return { json: { applied }, text: applied.length ? `Applied migrations: ${applied.join(', ')}` : 'Database is up to date.' };
  },

  async backup({ values, store, config }) {
    if (config.databaseUrl) {
      throw new UsageError('svc backup copies the embedded database; with DATABASE_URL use pg_dump (README, "Backups").');
    }
    const out = resolve(userDirectory(), required(values, 'out'));
    const archive = await backupPgliteStore(store);
    // Written under a temporary name and renamed: an interrupted backup never leaves a truncated file behind.
    const partial = `${out}.partial`;
    await writeFile(partial, archive, { mode: 0o600 });
    await rename(partial, out);
    return { json: { file: out, bytes: archive.length }, text: `Backed up ${config.dataDir} to ${out} (${archive.length} bytes).` };
  },

  async 'accounts create'({ values, admin }) {
    const account = await admin.createAccount({
      name: required(values, 'name'),
      ...optional('credits', values.credits === undefined ? undefined : number(values.credits, 'credits')),
    });
    return { json: { id: account.id, name: account.name, balance: account.balance }, text: `Created account ${account.id} with ${account.balance} credits.` };
  },

  async 'credits set'({ values, admin }) {
    const account = await admin.setCredits(required(values, 'account'), number(required(values, 'balance'), 'balance'));
    return { json: { id: account.id, balance: account.balance }, text: `Account ${account.id} now has ${account.balance} credits.` };
  },

  async 'widgets create'({ values, admin }) {
    const widget = await admin.createWidget({
      accountId: required(values, 'account'),
      name: required(values, 'name'),
      knowledgeBaseIds: values['knowledge-base'] ?? [],
      ...optional('greeting', values.greeting),
      ...optional('language', values.language),
      ...optional('timezone', values.timezone),
      ...optional('sessionTtlSeconds', values['session-ttl'] === undefined ? undefined : number(values['session-ttl'], 'session-ttl')),
    });
    const identitySecret = views.identitySecret(widget);
    return {
      json: { id: widget.id, name: widget.name, knowledgeBaseIds: widget.knowledgeBaseIds, identitySecret },
      text: `Created widget ${widget.id}.\nIdentity token secret: ${identitySecret}\nStore it on your server now: it is not shown again.`,
    };
  },

  async 'widgets rotate-identity-secret'({ values, admin }) {
    const hours = values['grace-hours'] === undefined ? 24 : number(values['grace-hours'], 'grace-hours');
    const { widget, identitySecret } = await admin.rotateIdentitySecret(ANY_ACCOUNT, required(values, 'widget'), hours * 3600);
    return {
      json: { id: widget.id, identitySecret, previousSecretsValidForHours: hours },
      text: `New identity token secret for ${widget.id}: ${identitySecret}\nTokens signed with the previous secret are accepted for ${hours} more hours.`,
    };
  },

  async 'widgets set-forms'({ values, admin }) {
    const widget = await admin.setWidgetForms(ANY_ACCOUNT, required(values, 'widget'), await readJsonFile(required(values, 'file')));
    const ids = widget.forms.map((f) => f.id);
    return {
      json: { id: widget.id, forms: ids },
      text: `Widget ${widget.id} now offers ${widget.forms.length} form(s): ${ids.join(', ') || 'none'}.`,
    };
  },

  async 'widgets set-theme'({ values, admin }) {
    const widget = await admin.setWidgetTheme(ANY_ACCOUNT, required(values, 'widget'), await readJsonFile(required(values, 'file')));
    return { json: { id: widget.id, theme: widget.theme }, text: `Widget ${widget.id} now has the theme ${JSON.stringify(widget.theme)}.` };
  },

  async 'keys create'({ values, admin }) {
    const created = await admin.createApiKey({
      accountId: required(values, 'account'),
      scopes: list(required(values, 'scopes')),
      callbackUrl: values['callback-url'],
      replyFormat: values['reply-format'],
    });
    const json = {
      id: created.apiKey.id,
      key: created.key,
      scopes: created.apiKey.scopes,
      ...(created.callbackSecret ? { callbackSecret: created.callbackSecret } : {}),
    };
    const secretLine = created.callbackSecret ? `\nCallback secret: ${created.callbackSecret}` : '';
    return { json, text: `Created key ${created.apiKey.id}\nKey: ${created.key}${secretLine}\nStore it now: it is not shown again.` };
  },

  async 'keys create-public'({ values, admin }) {
    const { apiKey, key } = await admin.createPublicKey(ANY_ACCOUNT, { widgetId: required(values, 'widget'), origins: list(required(values, 'origins')) });
    return {
      json: { id: apiKey.id, key, widgetId: apiKey.widgetId, origins: apiKey.allowedOrigins },
      text: `Created public key ${apiKey.id} for widget ${apiKey.widgetId}\nKey: ${key}\nAllowed origins: ${apiKey.allowedOrigins.join(', ')}`,
    };
  },

  async 'keys rotate-callback-secret'({ values, admin }) {
    const { apiKey, callbackSecret } = await admin.rotateCallbackSecret(ANY_ACCOUNT, required(values, 'id'));
    return { json: { id: apiKey.id, callbackSecret }, text: `New callback secret for ${apiKey.id}: ${callbackSecret}\nStore it now: it is not shown again.` };
  },

  async 'keys revoke'({ values, admin }) {
    const id = required(values, 'id');
    try {
      await admin.revokeKey(ANY_ACCOUNT, id);
    } catch (error) {
      // The command's answer for a key that is not active has always been a usage error (exit code 2).
      if (isSvcError(error) && error.field === 'id') throw new UsageError(`No active key with id ${id}`);
      throw error;
    }
    return { json: { id, revoked: true }, text: `Revoked key ${id}.` };
  },

  async 'keys list'({ values, admin }) {
    const keys = (await admin.listKeys(values.account ?? ANY_ACCOUNT)).map(views.key);
    const text = keys.length
      ? keys.map((k) => `${k.id}  ${k.prefix}…  ${k.scopes.join(',')}${k.revokedAt ? '  (revoked)' : ''}`).join('\n')
      : 'No keys.';
    return { json: keys, text };
  },

  async 'webhooks create'({ values, admin }) {
    const { webhook, secret } = await admin.createWebhook({
      accountId: required(values, 'account'),
      url: required(values, 'url'),
      events: values.events === undefined ? undefined : values.events.split(','),
    });
    return {
      json: { id: webhook.id, url: webhook.url, events: webhook.events, secret },
      text: `Created webhook ${webhook.id} for ${webhook.events.join(', ')}\nSigning secret: ${secret}\nStore it now: it is not shown again.`,
    };
  },

  async 'webhooks list'({ values, admin }) {
    const webhooks = (await admin.listWebhooks(required(values, 'account'))).map(views.webhook);
    const text = webhooks.length ? webhooks.map((w) => `${w.id}  ${w.url}  ${w.events.join(',')}`).join('\n') : 'No webhooks.';
    return { json: webhooks, text };
  },

  async 'webhooks delete'({ values, admin }) {
    const id = required(values, 'id');
    await admin.deleteWebhook(ANY_ACCOUNT, id);
    return { json: { id, deleted: true }, text: `Deleted webhook ${id}.` };
  },

  async 'webhooks rotate-secret'({ values, admin }) {
    const grace = values['grace-seconds'] === undefined ? undefined : number(values['grace-seconds'], 'grace-seconds');
    const { webhook, secret } = await admin.rotateWebhookSecret(ANY_ACCOUNT, required(values, 'id'), grace);
    const until = webhook.previousSecretExpiresAt;
    return {
      json: { id: webhook.id, secret, previousSecretValidUntil: until?.toISOString() ?? null },
      text:
        `New signing secret for ${webhook.id}: ${secret}\nStore it now: it is not shown again.\n` +
        (until ? `Until ${until.toISOString()} deliveries carry signatures with both secrets.` : 'The previous secret no longer signs.'),
    };
  },

  async 'deliveries list'({ values, admin }) {
    const limit = values.limit === undefined ? 50 : number(values.limit, 'limit');
    const deliveries = (await admin.listDeliveries(values.account || ANY_ACCOUNT, { limit, ...(values.failed ? { status: 'failed' as const } : {}) })).map(
      views.delivery,
    );
    const text = deliveries.length
      ? deliveries.map((d) => `${d.id}  ${d.event}  ${d.status}  attempts=${d.attempts}  ${d.lastError ?? ''}`).join('\n')
      : 'No deliveries.';
    return { json: deliveries, text };
  },

  async 'deliveries replay'({ values, admin }) {
    const delivery = await admin.replayDelivery(ANY_ACCOUNT, required(values, 'id'));
    return { json: views.delivery(delivery), text: `Delivery ${delivery.id} queued again; a running worker sends it within a second.` };
  },

  // The password comes from standard input (cli.ts), never from a flag.
  async 'operators create'({ values, admin }) {
    required(values, 'account');
    required(values, 'email');
    return runOperatorCommand('create', values, admin);
  },

  async 'operators list'({ values, admin }) {
    required(values, 'account');
    return runOperatorCommand('list', values, admin);
  },

  async 'eval run'({ values, store }) {
    const format = values.format ?? 'text';
    if (format !== 'text' && format !== 'json' && format !== 'junit') throw new UsageError(`--format must be text, json or junit; got "${format}"`);
    return runEvalCommand({ widget: required(values, 'widget'), file: required(values, 'file'), format, out: values.out }, store, (message) => new UsageError(message));
  },

  async 'kb import'({ values, admin }) {
    const content = await readJsonFile(required(values, 'file'));
    const result = await admin.importKnowledgeBase({ accountId: required(values, 'account'), content, ...optional('name', values.name) });
    return {
      json: { id: result.knowledgeBase.id, products: result.products, documents: result.documents },
      text: `Created knowledge base ${result.knowledgeBase.id} with ${result.products} products and ${result.documents} documents.`,
    };
  },
};

/** Runs a command against the store; returns what to print (JSON) and a human line. */
export async function runAdmin(command: string, values: Values & SourceValues, store: Store, config: ServerConfig): Promise<CommandOutput> {
  const run = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  const admin = operatorAdmin(store, { allowPrivateCallbacks: config.allowPrivateCallbacks });
  if (isSourceCommand(command)) {
    const core = sourcesCore(store, config);
    return runSourceCommand(command, values, { admin: core.admin, work: core.work, usage: (message) => new UsageError(message) });
  }
  if (!run && isConversationCommand(command)) return runConversationCommand(command, values, { store, admin }, (message) => new UsageError(message));
  if (!run) throw new UsageError(`Unknown command "${command}"`);
  return run({ values, store, config, admin });
}
