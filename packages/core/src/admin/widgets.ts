import { DEFAULT_CONFIDENCE_THRESHOLD } from '../retrieval/retrieve.js';
import { z } from 'zod';
import type { FormDefinition, Widget } from '../domain.js';
import { SvcError } from '../errors.js';
import { randomBase62 } from '../ids.js';
import { isIanaTimeZone, languageSchema } from '../schemas/common.js';
import { formDefinitionSchema } from '../schemas/form.js';
import { widgetThemeSchema } from '../schemas/widget.js';
import { requireAccount } from './accounts.js';
import { owned, type AccountScope, type AdminContext } from './context.js';

/** DESIGN.md section 4: an active session with no activity for 24 h expires unless the widget says otherwise. */
export const DEFAULT_SESSION_TTL_SECONDS = 24 * 60 * 60;

/** 43 base62 characters: 256 bits, above HS256's 32-byte minimum key size (RFC 7518 3.2). */
function newIdentitySecret(): string {
  return `idsec_${randomBase62(43)}`;
}

/** The secret that signs identity tokens now (shown once, when created or rotated). */
export function currentIdentitySecret(widget: Widget): string {
  return widget.identitySecrets.find((s) => s.retiresAt === null)!.secret;
}

export async function loadOwnWidget(ctx: AdminContext, scope: AccountScope, widgetId: string): Promise<Widget> {
  return owned(scope, await ctx.store.getWidget(widgetId), {
    code: 'widget_not_found',
    message: `Widget ${widgetId} does not exist.`,
    field: 'widget',
  });
}

/** The settings an operator chooses for a widget; each checked when given. */
export interface WidgetSettings {
  name?: string;
  greeting?: string;
  instructions?: string;
  language?: string;
  timezone?: string;
  sessionTtlSeconds?: number;
  knowledgeBaseIds?: string[];
  confidenceThreshold?: number;
}

async function checkSettings(ctx: AdminContext, accountId: string, input: WidgetSettings): Promise<WidgetSettings> {
  const checked: WidgetSettings = { ...input };
  if (input.name !== undefined) {
    checked.name = input.name.trim();
    if (checked.name === '' || checked.name.length > 200) throw new SvcError('validation_failed', 'name must be 1-200 characters.', { field: 'name' });
  }
  if (input.greeting !== undefined && (input.greeting.trim() === '' || input.greeting.length > 2000)) {
    throw new SvcError('validation_failed', 'greeting must be 1-2000 characters.', { field: 'greeting' });
  }
  if (input.knowledgeBaseIds !== undefined) {
    for (const kbId of input.knowledgeBaseIds) {
      const kb = await ctx.store.getKnowledgeBase(kbId);
      if (!kb || kb.accountId !== accountId) {
        throw new SvcError('validation_failed', `Knowledge base ${kbId} does not exist in account ${accountId}.`, { field: 'knowledgeBase' });
      }
    }
    checked.knowledgeBaseIds = [...new Set(input.knowledgeBaseIds)];
  }
  if (input.language !== undefined && !languageSchema.safeParse(input.language).success) {
    throw new SvcError('validation_failed', 'language must be a BCP 47 code.', { field: 'language' });
  }
  if (input.timezone !== undefined && !isIanaTimeZone(input.timezone)) {
    throw new SvcError('validation_failed', 'timezone must be an IANA zone name.', { field: 'timezone' });
  }
  const threshold = input.confidenceThreshold;
  if (threshold !== undefined && !(Number.isFinite(threshold) && threshold >= 0 && threshold <= 1)) {
    throw new SvcError('validation_failed', 'confidenceThreshold must be a number from 0 to 1.', { field: 'confidenceThreshold' });
  }
  const ttl = input.sessionTtlSeconds;
  if (ttl !== undefined && (!Number.isInteger(ttl) || ttl < 60)) {
    throw new SvcError('validation_failed', 'session TTL must be at least 60 seconds.', { field: 'sessionTtl' });
  }
  return checked;
}

export interface CreateWidgetInput extends WidgetSettings {
  accountId: string;
  name: string;
  forms?: FormDefinition[];
}

export async function createWidget(ctx: AdminContext, input: CreateWidgetInput): Promise<Widget> {
  const account = await requireAccount(ctx, input.accountId);
  const settings = await checkSettings(ctx, account.id, input);
  const name = settings.name!;
  const now = ctx.clock.now();
  const widget: Widget = {
    id: ctx.ids.random('wgt'),
    accountId: account.id,
    name,
    instructions: settings.instructions ?? `You are the assistant of ${name}. Answer from the knowledge base; be brief and friendly.`,
    greeting: settings.greeting ?? `Hi! Welcome to ${name}. How can I help you today?`,
    language: settings.language ?? 'en',
    timezone: settings.timezone ?? 'UTC',
    knowledgeBaseIds: settings.knowledgeBaseIds ?? [],
    forms: input.forms === undefined ? [] : parseForms(input.forms),
    sessionTtlSeconds: settings.sessionTtlSeconds ?? DEFAULT_SESSION_TTL_SECONDS,
    confidenceThreshold: settings.confidenceThreshold ?? DEFAULT_CONFIDENCE_THRESHOLD,
    theme: {},
    identitySecrets: [{ secret: newIdentitySecret(), createdAt: now, retiresAt: null }],
    createdAt: now,
  };
  await ctx.store.insertWidget(widget);
  return widget;
}

export async function listWidgets(ctx: AdminContext, accountId: string): Promise<Widget[]> {
  return ctx.store.listWidgets(accountId);
}

export async function getWidget(ctx: AdminContext, scope: AccountScope, widgetId: string): Promise<Widget> {
  return loadOwnWidget(ctx, scope, widgetId);
}

/** Changes the given settings only; knowledge bases must be the account's own. */
export async function updateWidget(ctx: AdminContext, scope: AccountScope, widgetId: string, input: WidgetSettings): Promise<Widget> {
  const widget = await loadOwnWidget(ctx, scope, widgetId);
  const settings = await checkSettings(ctx, widget.accountId, input);
  const patch = Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined)) as WidgetSettings;
  if (Object.keys(patch).length > 0) await ctx.store.updateWidget(widgetId, patch);
  return { ...widget, ...patch };
}

/**
 * New identity secret first; the previous ones keep verifying tokens for `graceSeconds`, so sites can roll
 * out the new secret without signing anybody out.
 */
export async function rotateIdentitySecret(
  ctx: AdminContext,
  scope: AccountScope,
  widgetId: string,
  graceSeconds: number,
): Promise<{ widget: Widget; identitySecret: string }> {
  const widget = await loadOwnWidget(ctx, scope, widgetId);
  if (!Number.isFinite(graceSeconds) || graceSeconds < 0 || graceSeconds > 30 * 86_400) {
    throw new SvcError('validation_failed', 'The grace period must be 0 to 720 hours.', { field: 'grace-hours' });
  }
  const now = ctx.clock.now();
  const retiresAt = new Date(now.getTime() + graceSeconds * 1000);
  const identitySecret = newIdentitySecret();
  const identitySecrets = [
    { secret: identitySecret, createdAt: now, retiresAt: null },
    ...widget.identitySecrets
      .filter((s) => s.retiresAt === null || s.retiresAt > now)
      .map((s) => ({ ...s, retiresAt: s.retiresAt === null || s.retiresAt > retiresAt ? retiresAt : s.retiresAt })),
  ];
  await ctx.store.updateWidget(widgetId, { identitySecrets });
  return { widget: { ...widget, identitySecrets }, identitySecret };
}

const formsFileSchema = z.array(formDefinitionSchema).max(50);

/** Form definitions (issue: dynamic forms), validated as a whole: a list, or a file `{ "forms": [...] }`. */
function parseForms(content: unknown): FormDefinition[] {
  const parsed = formsFileSchema.safeParse(Array.isArray(content) ? content : (content as { forms?: unknown })?.forms);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new SvcError('validation_failed', `forms.${issue.path.join('.')}: ${issue.message}`, { field: `forms.${issue.path.join('.')}` });
  }
  const forms = parsed.data as FormDefinition[];
  const ids = new Set<string>();
  for (const form of forms) {
    if (ids.has(form.id)) throw new SvcError('validation_failed', `Form id ${form.id} appears twice.`, { field: 'forms' });
    ids.add(form.id);
    const questionIds = new Set(form.questions.map((q) => q.id));
    if (questionIds.size !== form.questions.length) {
      throw new SvcError('validation_failed', `Form ${form.id} has two questions with the same id.`, { field: 'forms' });
    }
    for (const q of form.questions) {
      if ((q.kind === 'select' || q.kind === 'multiselect') && !q.options?.length) {
        throw new SvcError('validation_failed', `Question ${form.id}.${q.id} (${q.kind}) needs options.`, { field: 'forms' });
      }
    }
  }
  return forms;
}

/** Replaces the widget's form definitions; nothing changes unless all of them are valid. */
export async function setWidgetForms(ctx: AdminContext, scope: AccountScope, widgetId: string, content: unknown): Promise<Widget> {
  const widget = await loadOwnWidget(ctx, scope, widgetId);
  const forms = parseForms(content);
  await ctx.store.updateWidget(widgetId, { forms });
  return { ...widget, forms };
}

/** Replaces the widget's theme (DESIGN.md 7): colours, title, subtitle, avatar, dark mode, position, launcher icon. */
export async function setWidgetTheme(ctx: AdminContext, scope: AccountScope, widgetId: string, content: unknown): Promise<Widget> {
  const widget = await loadOwnWidget(ctx, scope, widgetId);
  const parsed = widgetThemeSchema.safeParse(content);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : issue.path.join('.');
    const field = path ? `theme.${path}` : 'theme';
    throw new SvcError('validation_failed', `${field}: ${issue.message}`, { field });
  }
  await ctx.store.updateWidget(widgetId, { theme: parsed.data });
  return { ...widget, theme: parsed.data };
}
