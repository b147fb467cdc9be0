import { describe, expect, it } from 'vitest';
import { QUESTION_SIMILARITY, questionSimilarity, questionTerms, recordQuestion } from './question-groups.js';
import { createMemoryStore } from './store/memory-store.js';
import { manualClock } from './clock.js';
import { defaultIds } from './ids.js';

const similar = (a: string, b: string): number => questionSimilarity(questionTerms(a), questionTerms(b));

describe('question similarity (DESIGN.md section 12)', () => {
  it('reads the words that carry the question: folded, stemmed, without stopwords', () => {
    expect(questionTerms('Do you SHIP to Canada?')).toEqual(['ship', 'canada']);
    expect(questionTerms('Livrez-vous au Québec ?')).toEqual(['livrez', 'quebec']);
    expect(questionTerms('what is it?')).toEqual([]);
  });

  it.each([
    ['Do you ship to Canada?', 'Can you ship my order to Canada?'],
    ['How long does shipping take?', 'How long will shipping take to arrive?'],
    ['What is your refund policy?', 'Can I get a refund?'],
    ['Do you have gift cards?', 'gift card'],
    ['Is the Alpine tent waterproof?', 'Is the alpine tent waterproof in heavy rain?'],
    ['Where is my order?', 'where is my order??'],
  ])('groups the paraphrases %j and %j', (a, b) => {
    expect(similar(a, b)).toBeGreaterThanOrEqual(QUESTION_SIMILARITY);
  });

  it.each([
    ['Do you ship to Canada?', 'Do you sell gift cards?'],
    ['How long does shipping take?', 'How long is the warranty?'],
    ['Is the Alpine tent waterproof?', 'Is the Alpine jacket warm?'],
    ['What is it?', 'What is it?'],
  ])('keeps %j and %j apart', (a, b) => {
    expect(similar(a, b)).toBeLessThan(QUESTION_SIMILARITY);
  });

  it('files each question into the most similar open group of its widget and kind, else a new one', async () => {
    const store = createMemoryStore();
    const ctx = { clock: manualClock('2025-03-04T10:00:00Z'), ids: defaultIds };
    const ask = (question: string, extra: { sessionId?: string; kind?: 'unanswered' | 'thumbs_down'; widgetId?: string } = {}) =>
      recordQuestion(ctx, store, { accountId: 'acct_1', widgetId: extra.widgetId ?? 'wgt_1', sessionId: extra.sessionId ?? 'sess_1', kind: extra.kind ?? 'unanswered', question });

    const canada = await ask('Do you ship to Canada?');
    expect(canada).toMatchObject({ id: expect.stringMatching(/^qgr_/), count: 1, sample: 'Do you ship to Canada?', sessions: ['sess_1'], daily: { '2025-03-04': 1 } });
    expect(await ask('Can you ship my order to Canada?', { sessionId: 'sess_2' })).toMatchObject({ id: canada.id, count: 2, sessions: ['sess_1', 'sess_2'] });
    const gift = await ask('Do you sell gift cards?');
    expect(gift.id).not.toBe(canada.id);
    expect((await ask('Do you ship to Canada?', { kind: 'thumbs_down' })).id).not.toBe(canada.id);
    expect((await ask('Do you ship to Canada?', { widgetId: 'wgt_2' })).id).not.toBe(canada.id);
    // A closed group takes no more questions: the question opens a new one.
    await store.closeQuestionGroup(canada.id, { status: 'dismissed', at: new Date(), documentId: null });
    const again = await ask('Shipping to Canada?');
    expect(again.id).not.toBe(canada.id);
    expect(again.count).toBe(1);
  });
});
