import { expect, it } from 'vitest';
import type { QuestionGroup } from '../../domain.js';
import type { Store } from '../../store/store.js';
import { at, makeMessage } from '../fixtures.js';

let serial = 0;
function makeGroup(overrides: Partial<QuestionGroup> = {}): QuestionGroup {
  serial += 1;
  return {
    id: `qgr_${String(serial).padStart(4, '0')}`,
    accountId: 'acct_q',
    widgetId: 'wgt_q',
    kind: 'unanswered',
    status: 'open',
    sample: 'Do you ship to Canada? «émojis» 🚚',
    terms: ['ship', 'canada'],
    count: 1,
    firstAskedAt: at(1),
    lastAskedAt: at(1),
    sessions: ['sess_1'],
    daily: { '2025-01-01': 1 },
    closedAt: null,
    documentId: null,
    ...overrides,
  };
}

/** Per-message feedback and question groups (DESIGN.md section 12). */
export function questionContract(store: () => Store): void {
  it('sets and replaces the feedback of a message, kept by every read; absent until set', async () => {
    const reply = makeMessage({ widgetId: 'wgt_f', sessionId: 'sess_f', seq: 2 });
    await store().insertMessage(reply);
    expect((await store().getMessage('wgt_f', 'sess_f', reply.id))!.feedback).toBeUndefined();

    const down = { rating: 'down' as const, reason: 'incomplete' as const, comment: 'It did not say when. "Quotes" 🚚', updatedAt: at(5) };
    expect(await store().setMessageFeedback({ widgetId: 'wgt_f', sessionId: 'sess_f', messageId: reply.id, feedback: down })).toEqual({ ...reply, feedback: down });
    const up = { rating: 'up' as const, reason: null, comment: null, updatedAt: at(6) };
    await store().setMessageFeedback({ widgetId: 'wgt_f', sessionId: 'sess_f', messageId: reply.id, feedback: up });
    expect(await store().getMessage('wgt_f', 'sess_f', reply.id)).toEqual({ ...reply, feedback: up });
    expect(await store().listMessages({ widgetId: 'wgt_f', sessionId: 'sess_f', limit: 5 })).toEqual([{ ...reply, feedback: up }]);
    expect(await store().recentMessages({ widgetId: 'wgt_f', sessionId: 'sess_f', limit: 5 })).toEqual([{ ...reply, feedback: up }]);
    // Another session's message is not found.
    expect(await store().setMessageFeedback({ widgetId: 'wgt_f', sessionId: 'sess_other', messageId: reply.id, feedback: up })).toBeNull();
  });

  it('round-trips a question group and finds the open ones of a widget and kind, most recently asked first', async () => {
    const older = makeGroup({ lastAskedAt: at(10) });
    const newer = makeGroup({ lastAskedAt: at(20) });
    const otherKind = makeGroup({ kind: 'thumbs_down' });
    const otherWidget = makeGroup({ widgetId: 'wgt_other' });
    const dismissed = makeGroup({ status: 'dismissed', closedAt: at(3) });
    for (const group of [older, newer, otherKind, otherWidget, dismissed]) await store().insertQuestionGroup(group);
    await expect(store().insertQuestionGroup(older)).rejects.toThrow();

    expect(await store().getQuestionGroup(older.id)).toEqual(older);
    expect(await store().getQuestionGroup('qgr_missing')).toBeNull();
    expect(await store().openQuestionGroups({ widgetId: 'wgt_q', kind: 'unanswered', limit: 10 })).toEqual([newer, older]);
    expect(await store().openQuestionGroups({ widgetId: 'wgt_q', kind: 'unanswered', limit: 1 })).toEqual([newer]);
    expect(await store().openQuestionGroups({ widgetId: 'wgt_q', kind: 'thumbs_down', limit: 10 })).toEqual([otherKind]);
  });

  it('adds questions to a group atomically: count, last asked, daily counts and a bounded list of distinct sessions', async () => {
    const group = makeGroup({ sessions: ['sess_1'], lastAskedAt: at(10) });
    await store().insertQuestionGroup(group);
    const add = (sessionId: string, seconds: number, day = '2025-01-02') =>
      store().addQuestionToGroup(group.id, { at: at(seconds), day, sessionId, maxSessions: 3 });

    expect(await add('sess_1', 20)).toMatchObject({ count: 2, lastAskedAt: at(20), sessions: ['sess_1'], daily: { '2025-01-01': 1, '2025-01-02': 1 } });
    // All at once: none is lost.
    await Promise.all([add('sess_2', 30), add('sess_3', 31), add('sess_4', 32)]);
    const after = (await store().getQuestionGroup(group.id))!;
    expect(after.count).toBe(5);
    expect(after.daily).toEqual({ '2025-01-01': 1, '2025-01-02': 4 });
    expect(after.sessions).toHaveLength(3);
    expect(after.sessions).not.toContain('sess_1');
    expect(after.lastAskedAt).toEqual(at(32));
    // An earlier instant never moves lastAskedAt back.
    expect(await add('sess_4', 5, '2025-01-03')).toMatchObject({ count: 6, lastAskedAt: at(32), daily: { '2025-01-03': 1 } });
    expect(await add('sess_x', 40)).not.toBeNull();
    expect(await store().addQuestionToGroup('qgr_missing', { at: at(1), day: '2025-01-01', sessionId: 's', maxSessions: 3 })).toBeNull();
  });

  it('closes an open group once: resolved with its document, or dismissed', async () => {
    const group = makeGroup();
    await store().insertQuestionGroup(group);
    const resolved = await store().closeQuestionGroup(group.id, { status: 'resolved', at: at(50), documentId: 'doc_1' });
    expect(resolved).toEqual({ ...group, status: 'resolved', closedAt: at(50), documentId: 'doc_1' });
    expect(await store().closeQuestionGroup(group.id, { status: 'dismissed', at: at(60), documentId: null })).toBeNull();
    expect(await store().getQuestionGroup(group.id)).toEqual(resolved);
    expect(await store().openQuestionGroups({ widgetId: 'wgt_q', kind: 'unanswered', limit: 10 })).toEqual([]);
    expect(await store().closeQuestionGroup('qgr_missing', { status: 'dismissed', at: at(60), documentId: null })).toBeNull();
  });

  it("lists an account's groups by status and widget, most recently asked first, in keyset pages", async () => {
    const same = at(30);
    const groups = [
      makeGroup({ lastAskedAt: at(10) }),
      makeGroup({ lastAskedAt: same }),
      makeGroup({ lastAskedAt: same, widgetId: 'wgt_q2' }),
      makeGroup({ lastAskedAt: at(20) }),
    ];
    for (const group of groups) await store().insertQuestionGroup(group);
    await store().insertQuestionGroup(makeGroup({ accountId: 'acct_other', lastAskedAt: at(40) }));
    await store().insertQuestionGroup(makeGroup({ status: 'resolved', lastAskedAt: at(50) }));
    const order = [groups[2]!, groups[1]!, groups[3]!, groups[0]!];

    const first = await store().listQuestionGroups({ accountId: 'acct_q', status: 'open', limit: 2 });
    expect(first).toEqual(order.slice(0, 2));
    const last = first.at(-1)!;
    expect(await store().listQuestionGroups({ accountId: 'acct_q', status: 'open', before: { lastAskedAt: last.lastAskedAt, id: last.id }, limit: 5 })).toEqual(order.slice(2));
    expect(await store().listQuestionGroups({ accountId: 'acct_q', widgetId: 'wgt_q2', status: 'open', limit: 5 })).toEqual([groups[2]]);
    expect(await store().listQuestionGroups({ accountId: 'acct_q', status: 'resolved', limit: 5 })).toHaveLength(1);
  });
}
