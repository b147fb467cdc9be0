import { z } from 'zod';
import {
  defaultIds,
  formDefinitionSchema,
  isIanaTimeZone,
  languageSchema,
  randomBase62,
  SvcError,
  type FormDefinition,
  type Store,
  type Widget,
  widgetThemeSchema,
} from '@svc/core';

/** 43 base62 characters: 256 bits, above HS256's 32-byte minimum key size (RFC 7518 3.2). */
function newIdentitySecret(): string {
  return `idsec_${randomBase62(43)}`;
}

/** The secret that signs identity tokens now (shown once, when created or rotated). */
export function currentIdentitySecret(widget: Widget): string {
  return widget.identitySecrets.find((s) => s.retiresAt === null)!.secret;
}

/**
 * New identity secret first; the previous ones keep verifying tokens for `graceSeconds`, so sites can roll
 * out the new secret without signing anybody out.
 */
export async function rotateIdentitySecret(store: Store, widgetId: string, graceSeconds: number): Promise<{ widget: Widget; identitySecret: string }> {
  const widget = await store.getWidget(widgetId);
  if (!widget) throw new SvcError('validation_failed', `Widget ${widgetId} does not exist.`, { field: 'widget' });
  if (!Number.isFinite(graceSeconds) || graceSeconds < 0 || graceSeconds > 30 * 86_400) {
    throw new SvcError('validation_failed', 'The grace period must be 0 to 720 hours.', { field: 'grace-hours' });
  }
  const now = new Date();
  const retiresAt = new Date(now.getTime() + graceSeconds * 1000);
  const identitySecret = newIdentitySecret();
  const identitySecrets = [
    { secret: identitySecret, createdAt: now, retiresAt: null },
    ...widget.identitySecrets
      .filter((s) => s.retiresAt === null || s.retiresAt > now)
      .map((s) => ({ ...s, retiresAt: s.retiresAt === null || s.retiresAt > retiresAt ? retiresAt : s.retiresAt })),
  ];
  await store.updateWidget(widgetId, { identitySecrets });
  return { widget: { ...widget, identitySecrets }, identitySecret };
}

const formsFileSchema = z.array(formDefinitionSchema).max(50);

/** Replaces the widget's form definitions (issue: dynamic forms); validated as a whole before anything changes. */
export async function setWidgetForms(store: Store, widgetId: string, content: unknown): Promise<Widget> {
  const widget = await store.getWidget(widgetId);
  if (!widget) throw new SvcError('validation_failed', `Widget ${widgetId} does not exist.`, { field: 'widget' });
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
  await store.updateWidget(widgetId, { forms });
  return { ...widget, forms };
}

/** Replaces the widget's theme (DESIGN.md 7): colours, title, subtitle, avatar, dark mode, position, launcher icon. */
export async function setWidgetTheme(store: Store, widgetId: string, content: unknown): Promise<Widget> {
  const widget = await store.getWidget(widgetId);
  if (!widget) throw new SvcError('validation_failed', `Widget ${widgetId} does not exist.`, { field: 'widget' });
  const parsed = widgetThemeSchema.safeParse(content);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : issue.path.join('.');
    const field = path ? `theme.${path}` : 'theme';
    throw new SvcError('validation_failed', `${field}: ${issue.message}`, { field });
  }
  await store.updateWidget(widgetId, { theme: parsed.data });
  return { ...widget, theme: parsed.data };
}

export interface CreateWidgetInput {
  accountId: string;
  name: string;
  knowledgeBaseIds?: string[];
  greeting?: string;
  instructions?: string;
  language?: string;
  timezone?: string;
  sessionTtlSeconds?: number;
  forms?: FormDefinition[];
}

/** DESIGN.md section 4: an active session with no activity for 24 h expires unless the widget says otherwise. */
export const DEFAULT_SESSION_TTL_SECONDS = 24 * 60 * 60;

export async function createWidget(store: Store, input: CreateWidgetInput): Promise<Widget> {
  const account = await store.getAccount(input.accountId);
  if (!account) throw new SvcError('validation_failed', `Account ${input.accountId} does not exist.`, { field: 'account' });
  const name = input.name.trim();
  if (name === '' || name.length > 200) throw new SvcError('validation_failed', 'name must be 1-200 characters.', { field: 'name' });
  for (const kbId of input.knowledgeBaseIds ?? []) {
    const kb = await store.getKnowledgeBase(kbId);
    if (!kb || kb.accountId !== account.id) {
      throw new SvcError('validation_failed', `Knowledge base ${kbId} does not exist in account ${account.id}.`, { field: 'knowledgeBase' });
    }
  }
  const language = input.language ?? 'en';
  if (!languageSchema.safeParse(language).success) throw new SvcError('validation_failed', 'language must be a BCP 47 code.', { field: 'language' });
  const timezone = input.timezone ?? 'UTC';
  if (!isIanaTimeZone(timezone)) throw new SvcError('validation_failed', 'timezone must be an IANA zone name.', { field: 'timezone' });
  const ttl = input.sessionTtlSeconds ?? DEFAULT_SESSION_TTL_SECONDS;
  if (!Number.isInteger(ttl) || ttl < 60) throw new SvcError('validation_failed', 'session TTL must be at least 60 seconds.', { field: 'sessionTtl' });

  const widget: Widget = {
    id: defaultIds.random('wgt'),
    accountId: account.id,
    name,
    instructions: input.instructions ?? `You are the assistant of ${name}. Answer from the knowledge base; be brief and friendly.`,
    greeting: input.greeting ?? `Hi! Welcome to ${name}. How can I help you today?`,
    language,
    timezone,
    knowledgeBaseIds: [...new Set(input.knowledgeBaseIds ?? [])],
    forms: input.forms ?? [],
    sessionTtlSeconds: ttl,
    theme: {},
    identitySecrets: [{ secret: newIdentitySecret(), createdAt: new Date(), retiresAt: null }],
    createdAt: new Date(),
  };
  await store.insertWidget(widget);
  return widget;
}
