import { describe, expect, it } from 'vitest';
import type { ChatMessage } from './chat-state.js';
import { chatMessage, fromHistory, newKey, patchMessages, placed } from './messages.js';
import { createStore } from './store.js';
import { initialChatState } from './chat-state.js';

const texts = (list: ChatMessage[]): string[] => list.map((item) => item.content);

describe('messages on screen', () => {
  it('puts a reply right below the message it answers, above what the visitor typed meanwhile', () => {
    const question = chatMessage('user', 'Do you ship to Canada?');
    const queued = chatMessage('user', 'And to Mexico?', { status: 'sending' });
    const reply = chatMessage('assistant', 'Yes, in 5 days.');
    expect(texts(placed([question, queued], question.key, reply))).toEqual(['Do you ship to Canada?', 'Yes, in 5 days.', 'And to Mexico?']);
  });

  it('puts a reply at the end when it answers no message on screen (a form, a conversation started over)', () => {
    const earlier = chatMessage('user', 'Hi');
    const reply = chatMessage('assistant', 'Thanks for the form.');
    expect(texts(placed([earlier], null, reply))).toEqual(['Hi', 'Thanks for the form.']);
    expect(texts(placed([earlier], 'm-gone', reply))).toEqual(['Hi', 'Thanks for the form.']);
  });

  it("shows a history item with its id, its time and, for a person's message, their name", () => {
    const message = fromHistory({
      messageId: 'msg_7',
      role: 'assistant',
      content: 'Sarah here.',
      createdAt: '2030-01-01T10:00:00.000Z',
      author: { type: 'operator', name: 'Sarah' },
    } as Parameters<typeof fromHistory>[0]);
    expect(message).toMatchObject({ id: 'msg_7', role: 'assistant', content: 'Sarah here.', author: 'Sarah', products: [], forms: [] });
    expect(message.at).toBe(Date.parse('2030-01-01T10:00:00.000Z'));
  });

  it('changes only the messages it names, and gives every new message a key of its own', () => {
    const store = createStore(initialChatState(true));
    const [one, two] = [chatMessage('user', 'one'), chatMessage('user', 'two')];
    store.set({ messages: [one, two] });
    patchMessages(store, [two.key], { status: 'failed' });
    expect(store.get().messages.map((item) => item.status)).toEqual([undefined, 'failed']);
    expect(new Set([one.key, two.key, newKey(), newKey()]).size).toBe(4);
  });
});
