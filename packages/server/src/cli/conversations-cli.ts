import { SvcError, type AdminApi, type Store } from '@svc/core';
import type { SessionView } from '@svc/core/schemas';

/**
 * `svc conversations …` and `svc handoff …` (README's handoff section): the core operator operations with the server's
 * ports. The CLI acts for whoever runs it on the server, across accounts: a session is found by its id (and widget,
 * when several widgets use the id), its account from the widget.
 */
export const CONVERSATION_OPTIONS = {
  session: { type: 'string' },
  handoff: { type: 'string' },
  status: { type: 'string' },
  text: { type: 'string' },
  as: { type: 'string' },
} as const;

export const CONVERSATION_COMMANDS = [
  'conversations list',
  'conversations show',
  'conversations resolve',
  'handoff accept',
  'handoff reply',
  'handoff release',
] as const;
type ConversationCommand = (typeof CONVERSATION_COMMANDS)[number];

export const isConversationCommand = (command: string): command is ConversationCommand =>
  (CONVERSATION_COMMANDS as readonly string[]).includes(command);

/** The options these commands read (a subset of the CLI's parsed values). */
export interface ConversationValues {
  widget?: string | undefined;
  account?: string | undefined;
  session?: string | undefined;
  handoff?: string | undefined;
  status?: string | undefined;
  limit?: string | undefined;
  text?: string | undefined;
  as?: string | undefined;
}

/** Who answers when `--as` is not given. */
const DEFAULT_OPERATOR = 'Operator';

export async function runConversationCommand(
  command: ConversationCommand,
  values: ConversationValues,
  { store, admin }: { store: Store; admin: AdminApi },
  usage: (message: string) => Error,
): Promise<{ json: unknown; text: string }> {
  if (command === 'conversations list') {
    const widgetId = values.widget;
    if (widgetId === undefined && values.account === undefined) throw usage('--widget (or --account) is required');
    const accountId = widgetId === undefined ? values.account! : await accountOfWidget(store, widgetId);
    const { items, nextCursor } = await admin.listConversations(accountId, {
      ...(widgetId === undefined ? {} : { widgetId }),
      ...(values.handoff === undefined ? {} : { handoff: values.handoff as 'requested' }),
      ...(values.status === undefined ? {} : { status: values.status as 'active' }),
      ...(values.limit === undefined ? {} : { limit: values.limit as unknown as number }),
    });
    const text = items.length
      ? items.map((item) => `${item.sessionId}  ${item.widgetId}  ${item.status}${handoffLabel(item)}  ${item.messageCount} msg  ${item.lastMessage?.content.split('\n')[0] ?? ''}`).join('\n')
      : 'No conversations.';
    return { json: { items, nextCursor }, text };
  }

  const sessionId = values.session;
  if (sessionId === undefined || sessionId.trim() === '') throw usage('--session is required');
  const accountId = values.widget === undefined ? await accountOfSession(store, sessionId) : await accountOfWidget(store, values.widget);
  const target = await admin.findConversation(accountId, { sessionId, widgetId: values.widget });
  const ref = { accountId, ...target };
  const operator = { id: null, name: values.as ?? DEFAULT_OPERATOR };
  switch (command) {
    case 'conversations show': {
      const conversation = await admin.getConversation(ref);
      const lines = conversation.messages.map((message) => {
        const who = message.author ? `${message.author.name} (person)` : message.role === 'user' ? 'visitor' : 'AI';
        return `[${message.createdAt}] ${who}: ${message.content}`;
      });
      const { session } = conversation;
      return { json: conversation, text: [`${session.sessionId} on ${session.widgetId}: ${session.status}${handoffLabel(session)}`, ...lines].join('\n') };
    }
    case 'conversations resolve': {
      const session = await admin.resolveConversation(ref);
      return { json: session, text: `Resolved ${session.sessionId}.` };
    }
    case 'handoff accept': {
      const session = await admin.acceptHandoff(ref, operator);
      return { json: session, text: `${operator.name} now has ${session.sessionId}; the AI stays silent until you release it.` };
    }
    case 'handoff reply': {
      if (values.text === undefined || values.text.trim() === '') throw usage('--text is required');
      const message = await admin.replyAsOperator(ref, { operator, text: values.text });
      return { json: message, text: `Sent ${message.messageId} as ${operator.name}.` };
    }
    case 'handoff release': {
      const session = await admin.releaseHandoff(ref);
      return { json: session, text: `Released ${session.sessionId}: the AI answers again.` };
    }
  }
  throw usage(`Unknown command "${command}"`);
}

function handoffLabel(session: Pick<SessionView, 'handoff'>): string {
  const { handoff } = session;
  if (handoff === null) return '';
  return handoff.state === 'active' ? `  handoff: active (${handoff.operator?.name ?? '?'})` : '  handoff: requested';
}

async function accountOfWidget(store: Store, widgetId: string): Promise<string> {
  const widget = await store.getWidget(widgetId);
  if (!widget) throw new SvcError('widget_not_found', `Widget ${widgetId} was not found.`);
  return widget.accountId;
}

/**
 * The account holding a session named by id alone. Sessions are created with API keys, so every account with
 * sessions has keys: their accounts' widgets are searched. Several matches ask for `--widget`.
 */
async function accountOfSession(store: Store, sessionId: string): Promise<string> {
  const accounts = [...new Set((await store.listApiKeys()).map((key) => key.accountId))];
  const found: string[] = [];
  for (const accountId of accounts) {
    for (const widget of await store.listWidgets(accountId)) if (await store.getSession(widget.id, sessionId)) found.push(accountId);
  }
  if (found.length === 0) throw new SvcError('session_not_found', `Session ${sessionId} was not found.`);
  if (found.length > 1) throw new SvcError('validation_failed', `Session id ${sessionId} is used on several widgets; add --widget.`, { field: 'widgetId' });
  return found[0]!;
}
