import type { HistoryItem } from './api-types.js';
import type { ChatMessage, ChatState } from './chat-state.js';
import type { Store } from './store.js';

/** Keys only tell apart the messages of one conversation on screen: one counter for the page is enough. */
let keys = 0;

/** The key of a new message on screen. */
export const newKey = (): string => `m${++keys}`;

export const chatMessage = (role: ChatMessage['role'], content: string, extra: Partial<ChatMessage> = {}): ChatMessage => ({
  key: newKey(),
  id: null,
  role,
  content,
  products: [],
  forms: [],
  at: Date.now(),
  ...extra,
});

/** A message of the service's history, as it is shown (an operator's carries the operator's name). */
export const fromHistory = (item: HistoryItem): ChatMessage =>
  chatMessage(item.role, item.content, { id: item.messageId, products: item.products ?? [], at: Date.parse(item.createdAt), author: item.author?.name });

/** Changes the messages with these keys (a streamed reply grows through here too). */
export const patchMessages = (store: Store<ChatState>, targets: string[], patch: Partial<ChatMessage>): void =>
  store.set({ messages: store.get().messages.map((item) => (targets.includes(item.key) ? { ...item, ...patch } : item)) });

/** Right after the message it answers, as in the service's history; messages queued meanwhile stay below it. */
export const placed = (list: ChatMessage[], question: string | null, answer: ChatMessage): ChatMessage[] => {
  const after = list.findIndex((item) => item.key === question) + 1 || list.length;
  return [...list.slice(0, after), answer, ...list.slice(after)];
};
