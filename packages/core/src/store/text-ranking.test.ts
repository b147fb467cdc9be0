import { describe, expect, it } from 'vitest';
import { rankBm25, stemEnglish, tokenize } from './text-ranking.js';

describe('tokenize', () => {
  it('lowercases, strips punctuation and English stopwords, and stems', () => {
    expect(tokenize('Do you SHIP to Canada?!')).toEqual(['ship', 'canada']);
    expect(tokenize('Shipping, shipped & ships')).toEqual(['ship', 'ship', 'ship']);
  });

  it('keeps words as they are for other languages', () => {
    expect(tokenize('Livrez-vous au Canada ?', 'fr-CA')).toEqual(['livrez', 'vous', 'au', 'canada']);
  });

  it("drops the same English stopwords the local agent ignores (one list, in core)", () => {
    expect(tokenize('Please tell me about your shipping')).toEqual(['ship']);
  });
});

describe('stemEnglish', () => {
  it.each([
    ['policies', 'policy'],
    ['boxes', 'box'],
    ['charges', 'charg'],
    ['charging', 'charg'],
    ['charged', 'charg'],
    ['stores', 'stor'],
    ['speed', 'speed'],
    ['falling', 'fall'],
    ['status', 'status'],
    // The agents' copy kept `use` where this one made `us`: one stemmer now, the agents' rule.
    ['uses', 'use'],
  ])('%s → %s', (word, stem) => {
    expect(stemEnglish(word)).toBe(stem);
  });
});

describe('rankBm25', () => {
  const docs = [
    { item: 'hours', terms: tokenize('We are open Monday to Friday') },
    { item: 'shipping', terms: tokenize('We ship to Canada and Mexico. Canada orders ship fast.') },
    { item: 'canada-mention', terms: tokenize('Our founder was born in Canada, long ago, far away from here') },
  ];

  it('ranks documents matching more (and rarer) query terms first, and drops non-matching ones', () => {
    const ranked = rankBm25(tokenize('Do you ship to Canada?'), docs);
    expect(ranked.map((hit) => hit.item)).toEqual(['shipping', 'canada-mention']);
    expect(ranked.every((hit) => hit.score > 0)).toBe(true);
  });

  it('returns nothing for an empty query or corpus', () => {
    expect(rankBm25([], docs)).toEqual([]);
    expect(rankBm25(['ship'], [])).toEqual([]);
  });
});
