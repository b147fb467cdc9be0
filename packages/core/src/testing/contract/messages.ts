import { expect, it } from 'vitest';
import type { StoredMessage } from '../../domain.js';
import type { Store } from '../../store/store.js';
import { at, makeMessage } from '../fixtures.js';

const WIDGET = 'wgt_m';
const SESSION = 'sess_m';

function inSession(seq: number, overrides: Partial<StoredMessage> = {}): StoredMessage {
  return makeMessage({ widgetId: WIDGET, sessionId: SESSION, seq, createdAt: at(seq), ...overrides });
}

export function messageContract(store: () => Store): void {
  it('round-trips an assistant reply with products, actions, forms, credits and usage', async () => {
    const message = inSession(1);
    await store().insertMessage(message);
    expect(await store().getMessage(WIDGET, SESSION, message.id)).toEqual(message);
  });

  it('round-trips a bare user message with null credits and usage', async () => {
    const message = inSession(1, {
      role: 'user',
      content: 'Do you ship to Canada? "Quotes", émojis 🚚 and \\ backslashes',
      products: [],
      actions: [],
      forms: [],
      sessionEnded: false,
      credits: null,
      usage: null,
    });
    await store().insertMessage(message);
    expect(await store().getMessage(WIDGET, SESSION, message.id)).toEqual(message);
  });

  it('finds a message only in its own session', async () => {
    const message = inSession(1);
    await store().insertMessage(message);
    expect(await store().getMessage(WIDGET, 'sess_other', message.id)).toBeNull();
    expect(await store().getMessage('wgt_other', SESSION, message.id)).toBeNull();
    expect(await store().getMessage(WIDGET, SESSION, 'msg_missing')).toBeNull();
  });

  it('rejects a duplicate seq in a session and a duplicate message id', async () => {
    const first = inSession(1);
    await store().insertMessage(first);
    await expect(store().insertMessage(inSession(1))).rejects.toThrow();
    await expect(store().insertMessage({ ...inSession(2), id: first.id })).rejects.toThrow();
    // The same seq in another session is fine.
    await store().insertMessage(makeMessage({ widgetId: WIDGET, sessionId: 'sess_other', seq: 1 }));
    expect(await store().listMessages({ widgetId: WIDGET, sessionId: SESSION, limit: 10 })).toEqual([first]);
  });

  it('pages history oldest first by seq, after a keyset position', async () => {
    const messages = [5, 1, 7, 3, 2, 6, 4].map((seq) => inSession(seq));
    for (const message of messages) await store().insertMessage(message);
    await store().insertMessage(makeMessage({ widgetId: WIDGET, sessionId: 'sess_other', seq: 8 }));
    const bySeq = [...messages].sort((a, b) => a.seq - b.seq);

    expect(await store().listMessages({ widgetId: WIDGET, sessionId: SESSION, limit: 3 })).toEqual(bySeq.slice(0, 3));
    expect(await store().listMessages({ widgetId: WIDGET, sessionId: SESSION, afterSeq: 3, limit: 3 })).toEqual(bySeq.slice(3, 6));
    expect(await store().listMessages({ widgetId: WIDGET, sessionId: SESSION, afterSeq: 6, limit: 3 })).toEqual(bySeq.slice(6));
    expect(await store().listMessages({ widgetId: WIDGET, sessionId: SESSION, afterSeq: 7, limit: 3 })).toEqual([]);
    expect(await store().listMessages({ widgetId: WIDGET, sessionId: 'sess_none', limit: 3 })).toEqual([]);
  });

  it('returns the most recent messages, oldest first', async () => {
    const messages = [1, 2, 3, 4, 5].map((seq) => inSession(seq));
    for (const message of [...messages].reverse()) await store().insertMessage(message);
    expect(await store().recentMessages({ widgetId: WIDGET, sessionId: SESSION, limit: 2 })).toEqual(messages.slice(3));
    expect(await store().recentMessages({ widgetId: WIDGET, sessionId: SESSION, limit: 10 })).toEqual(messages);
    expect(await store().recentMessages({ widgetId: WIDGET, sessionId: 'sess_none', limit: 10 })).toEqual([]);
  });
}
