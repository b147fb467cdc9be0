import { readFile, rename, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { parseArgs } from 'node:util';
import type { Store } from '@svc/core';
import { backupPgliteStore, migrate } from '@svc/store-postgres';
import type { ServerConfig } from '../config.js';
import { userDirectory } from '../config.js';
import { createAccount, setCredits } from './accounts.js';
import { describeDelivery, replayDelivery } from './deliveries.js';
import { createApiKey, createPublicKey, describeKey, rotateCallbackSecret } from './keys.js';
import { importKnowledgeBase } from './knowledge.js';
import { runWebhookCommand } from './webhooks.js';
import { CONVERSATION_OPTIONS, isConversationCommand, runConversationCommand } from './conversations-cli.js';
import { createWidget, currentIdentitySecret, rotateIdentitySecret, setWidgetForms, setWidgetTheme } from './widgets.js';

/**
 * The `svc` administration commands, run against a store: by the CLI on the database directly, or by a running
 * server on the CLI's behalf when the embedded database is held by that server (see admin-route.ts).
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
  ...CONVERSATION_OPTIONS,
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

/** Runs a command against the store; returns what to print (JSON) and a human line. */
export async function runAdmin(command: string, values: Values, store: Store, config: ServerConfig): Promise<{ json: unknown; text: string }> {
  switch (command) {
    case 'migrate': {
      const applied = await migrate(store);
      return { json: { applied }, text: applied.length ? `Applied migrations: ${applied.join(', ')}` : 'Database is up to date.' };
    }
    case 'accounts create': {
      const account = await createAccount(store, {
        name: required(values, 'name'),
        ...(values.credits === undefined ? {} : { credits: number(values.credits, 'credits') }),
      });
      return { json: { id: account.id, name: account.name, balance: account.balance }, text: `Created account ${account.id} with ${account.balance} credits.` };
    }
    case 'credits set': {
      const account = await setCredits(store, required(values, 'account'), number(required(values, 'balance'), 'balance'));
      return { json: { id: account.id, balance: account.balance }, text: `Account ${account.id} now has ${account.balance} credits.` };
    }
    case 'widgets create': {
      const widget = await createWidget(store, {
        accountId: required(values, 'account'),
        name: required(values, 'name'),
        knowledgeBaseIds: values['knowledge-base'] ?? [],
        ...(values.greeting === undefined ? {} : { greeting: values.greeting }),
        ...(values.language === undefined ? {} : { language: values.language }),
        ...(values.timezone === undefined ? {} : { timezone: values.timezone }),
        ...(values['session-ttl'] === undefined ? {} : { sessionTtlSeconds: number(values['session-ttl'], 'session-ttl') }),
      });
      const identitySecret = currentIdentitySecret(widget);
      return {
        json: { id: widget.id, name: widget.name, knowledgeBaseIds: widget.knowledgeBaseIds, identitySecret },
        text: `Created widget ${widget.id}.\nIdentity token secret: ${identitySecret}\nStore it on your server now: it is not shown again.`,
      };
    }
    case 'widgets rotate-identity-secret': {
      const hours = values['grace-hours'] === undefined ? 24 : number(values['grace-hours'], 'grace-hours');
      const { widget, identitySecret } = await rotateIdentitySecret(store, required(values, 'widget'), hours * 3600);
      return {
        json: { id: widget.id, identitySecret, previousSecretsValidForHours: hours },
        text: `New identity token secret for ${widget.id}: ${identitySecret}\nTokens signed with the previous secret are accepted for ${hours} more hours.`,
      };
    }
    case 'widgets set-forms': {
      const widget = await setWidgetForms(store, required(values, 'widget'), await readJsonFile(required(values, 'file')));
      return {
        json: { id: widget.id, forms: widget.forms.map((f) => f.id) },
        text: `Widget ${widget.id} now offers ${widget.forms.length} form(s): ${widget.forms.map((f) => f.id).join(', ') || 'none'}.`,
      };
    }
    case 'widgets set-theme': {
      const widget = await setWidgetTheme(store, required(values, 'widget'), await readJsonFile(required(values, 'file')));
      return {
        json: { id: widget.id, theme: widget.theme },
        text: `Widget ${widget.id} now has the theme ${JSON.stringify(widget.theme)}.`,
      };
    }
    case 'keys create': {
      const created = await createApiKey(store, {
        accountId: required(values, 'account'),
        scopes: required(values, 'scopes').split(',').map((s) => s.trim()).filter(Boolean),
        callbackUrl: values['callback-url'],
        replyFormat: values['reply-format'],
        allowPrivateCallbacks: config.allowPrivateCallbacks,
      });
      const json = {
        id: created.apiKey.id,
        key: created.key,
        scopes: created.apiKey.scopes,
        ...(created.callbackSecret ? { callbackSecret: created.callbackSecret } : {}),
      };
      const secretLine = created.callbackSecret ? `\nCallback secret: ${created.callbackSecret}` : '';
      return { json, text: `Created key ${created.apiKey.id}\nKey: ${created.key}${secretLine}\nStore it now: it is not shown again.` };
    }
    case 'keys create-public': {
      const created = await createPublicKey(store, {
        widgetId: required(values, 'widget'),
        origins: required(values, 'origins').split(',').map((o) => o.trim()).filter(Boolean),
      });
      return {
        json: { id: created.apiKey.id, key: created.key, widgetId: created.apiKey.widgetId, origins: created.apiKey.allowedOrigins },
        text: `Created public key ${created.apiKey.id} for widget ${created.apiKey.widgetId}\nKey: ${created.key}\nAllowed origins: ${created.apiKey.allowedOrigins.join(', ')}`,
      };
    }
    case 'keys rotate-callback-secret': {
      const { apiKey, callbackSecret } = await rotateCallbackSecret(store, required(values, 'id'));
      return { json: { id: apiKey.id, callbackSecret }, text: `New callback secret for ${apiKey.id}: ${callbackSecret}\nStore it now: it is not shown again.` };
    }
    case 'deliveries list': {
      const limit = values.limit === undefined ? 50 : number(values.limit, 'limit');
      const deliveries = (
        await store.listDeliveries({ limit, ...(values.failed ? { status: 'failed' as const } : {}), ...(values.account ? { accountId: values.account } : {}) })
      ).map(describeDelivery);
      const text = deliveries.length
        ? deliveries.map((d) => `${d.id}  ${d.event}  ${d.status}  attempts=${d.attempts}  ${d.lastError ?? ''}`).join('\n')
        : 'No deliveries.';
      return { json: deliveries, text };
    }
    case 'backup': {
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
    }
    case 'deliveries replay': {
      const delivery = await replayDelivery(store, required(values, 'id'));
      return {
        json: describeDelivery(delivery),
        text: `Delivery ${delivery.id} queued again; a running worker sends it within a second.`,
      };
    }
    case 'keys revoke': {
      const id = required(values, 'id');
      if (!(await store.revokeApiKey(id, new Date()))) throw new UsageError(`No active key with id ${id}`);
      return { json: { id, revoked: true }, text: `Revoked key ${id}.` };
    }
    case 'keys list': {
      const keys = (await store.listApiKeys(values.account)).map(describeKey);
      const text = keys.length
        ? keys.map((k) => `${k.id}  ${k.prefix}…  ${(k.scopes as string[]).join(',')}${k.revokedAt ? '  (revoked)' : ''}`).join('\n')
        : 'No keys.';
      return { json: keys, text };
    }
    case 'webhooks create':
      return runWebhookCommand(
        'create',
        { account: required(values, 'account'), url: required(values, 'url'), ...(values.events === undefined ? {} : { events: values.events }) },
        store,
        config.allowPrivateCallbacks,
      );
    case 'webhooks list':
      return runWebhookCommand('list', { account: required(values, 'account') }, store, config.allowPrivateCallbacks);
    case 'webhooks delete':
      return runWebhookCommand('delete', { id: required(values, 'id') }, store, config.allowPrivateCallbacks);
    case 'webhooks rotate-secret':
      return runWebhookCommand(
        'rotate-secret',
        {
          id: required(values, 'id'),
          ...(values['grace-seconds'] === undefined ? {} : { graceSeconds: number(values['grace-seconds'], 'grace-seconds') }),
        },
        store,
        config.allowPrivateCallbacks,
      );
    case 'kb import': {
      const content = await readJsonFile(required(values, 'file'));
      const result = await importKnowledgeBase(store, {
        accountId: required(values, 'account'),
        content,
        ...(values.name === undefined ? {} : { name: values.name }),
      });
      return {
        json: { id: result.knowledgeBase.id, products: result.products, documents: result.documents },
        text: `Created knowledge base ${result.knowledgeBase.id} with ${result.products} products and ${result.documents} documents.`,
      };
    }
    default:
      if (isConversationCommand(command)) return runConversationCommand(command, values, store, (message) => new UsageError(message));
      throw new UsageError(`Unknown command "${command}"`);
  }
}

