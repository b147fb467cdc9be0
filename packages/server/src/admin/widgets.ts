import { defaultIds, isIanaTimeZone, languageSchema, SvcError, type FormDefinition, type Store, type Widget } from '@svc/core';

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
    createdAt: new Date(),
  };
  await store.insertWidget(widget);
  return widget;
}
