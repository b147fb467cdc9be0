import { SvcError } from '@svc/core';

/**
 * The body the Vercel AI SDK's `DefaultChatTransport` posts (`{ id, messages, trigger, messageId }`, plus the
 * members an app adds through the transport's `body` option), read into the send-message body it stands for.
 */
export interface ChatRequest {
  /** The send-message body: the visitor's text, and the optional members that send-message takes. */
  message: { content: string } & Record<string, unknown>;
  /** Where the visitor's text came from, to name it in errors about the content (`messages.3.parts`). */
  contentField: string;
}

/** Members of the SDK's body, then the send-message members an app may add (`body: { timezone }`). */
const SDK_MEMBERS = new Set(['id', 'messages', 'trigger', 'messageId']);
const PASSED_THROUGH = ['visitorContext', 'timezone', 'identity'] as const;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function invalid(field: string, message: string): SvcError {
  return new SvcError('validation_failed', message, { field });
}

/**
 * The visitor's message is the text of the last message, which must be the user's: the client keeps the whole
 * conversation and sends it every time, but the service keeps its own history and needs only what is new.
 * Regeneration is refused: a reply in the history is never replaced.
 *
 * @example
 * parseChatRequest({ id: 'c1', trigger: 'submit-message', messages: [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: 'Hi' }] }] })
 * // → { message: { content: 'Hi' }, contentField: 'messages.0.parts' }
 */
export function parseChatRequest(body: Record<string, unknown>): ChatRequest {
  for (const key of Object.keys(body)) {
    if (!SDK_MEMBERS.has(key) && !(PASSED_THROUGH as readonly string[]).includes(key)) {
      throw invalid(key, `Unknown field "${key}": /chat takes the AI SDK's { id, messages, trigger, messageId } and optionally ${PASSED_THROUGH.join(', ')}.`);
    }
  }
  const { trigger, messages } = body;
  if (trigger !== undefined && trigger !== 'submit-message') {
    throw invalid('trigger', 'Only trigger "submit-message" is supported: replies stay in the history, so send a new message instead of regenerating one.');
  }
  if (!Array.isArray(messages) || messages.length === 0) throw invalid('messages', 'messages must be a non-empty array of UI messages.');
  const index = messages.length - 1;
  const last: unknown = messages[index];
  if (!isObject(last) || last['role'] !== 'user') throw invalid(`messages.${index}.role`, 'The last message must be the user\'s new message (role "user").');
  const parts = last['parts'];
  if (!Array.isArray(parts)) throw invalid(`messages.${index}.parts`, 'The last message needs a parts array.');
  const texts = parts.flatMap((part: unknown) => (isObject(part) && part['type'] === 'text' && typeof part['text'] === 'string' ? [part['text']] : []));
  if (texts.length === 0) throw invalid(`messages.${index}.parts`, 'The last message needs a text part: the visitor\'s message.');
  const message: ChatRequest['message'] = { content: texts.join('\n\n') };
  for (const key of PASSED_THROUGH) if (body[key] !== undefined) message[key] = body[key];
  return { message, contentField: `messages.${index}.parts` };
}
