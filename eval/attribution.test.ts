import { describe, expect, it } from 'vitest';
import { createAttributor, foldedWords, longestCommonRun } from './attribution.js';

const ENTRIES = [
  {
    id: 'returns',
    title: 'How do I return an order?',
    answer: 'You can return any order within 30 days of delivery. Print the prepaid label from your account and drop the parcel at any post office.',
  },
  {
    id: 'return-fees',
    title: 'How do I return an order from abroad?',
    answer: 'Orders shipped abroad can be returned too, but the return postage is yours to pay unless the item arrived damaged.',
  },
  { id: 'animals', title: 'Can pets get sick?', answer: 'See Pets and Animals.' },
];

describe('createAttributor', () => {
  const attributor = createAttributor(ENTRIES);

  it('attributes a reply to the entry whose title it names, Markdown escapes and emphasis notwithstanding', () => {
    const reply = 'Print the prepaid label from your account.\n\n_Source: How do I return an order\\?_';
    expect(attributor.attribute(reply)).toEqual({ entryId: 'returns', by: 'named' });
  });

  it('prefers, among named entries, the one the reply quotes, then the longer title', () => {
    // "How do I return an order" is inside "How do I return an order from abroad": both are named.
    const quotingAbroad = 'The return postage is yours to pay unless the item arrived damaged. Source: How do I return an order from abroad?';
    expect(attributor.attribute(quotingAbroad)).toEqual({ entryId: 'return-fees', by: 'named' });
    expect(attributor.attribute('See: How do I return an order from abroad?')).toEqual({ entryId: 'return-fees', by: 'named' });
  });

  it('attributes an unnamed reply to the answer it quotes at least eight consecutive words of', () => {
    expect(attributor.attribute('Good news: you can return any order within 30 days of delivery!')).toEqual({ entryId: 'returns', by: 'quoted' });
    // Seven shared words in a row are not enough.
    expect(attributor.attribute('Just drop the parcel at any post office today.')).toEqual({ entryId: null, by: 'none' });
  });

  it('counts an answer shorter than eight words only when quoted whole', () => {
    expect(attributor.attribute('Please see Pets and Animals.')).toEqual({ entryId: 'animals', by: 'quoted' });
    expect(attributor.attribute('Pets and animals are welcome.')).toEqual({ entryId: null, by: 'none' });
  });

  it('attributes nothing to a reply that says it does not know, even when it repeats the question’s words', () => {
    const reply = "I couldn't find anything about return order abroad. Could you rephrase your question, or ask about another topic?";
    expect(attributor.attribute(reply)).toEqual({ entryId: null, by: 'none' });
  });
});

describe('longestCommonRun', () => {
  it('measures the longest run of consecutive items two sequences share', () => {
    expect(longestCommonRun([1, 2, 3, 4, 9], [0, 2, 3, 4, 5])).toBe(3);
    expect(longestCommonRun([1, 2], [3, 4])).toBe(0);
    expect(longestCommonRun([], [1])).toBe(0);
  });

  it('never matches the code of a word no entry has', () => {
    expect(longestCommonRun([-1, -1], [-1, -1])).toBe(0);
  });
});

describe('foldedWords', () => {
  it('case-folds and keeps letters and digits only', () => {
    expect(foldedWords('_Source: [COVID-19](https://x.example) \\& CDC’s page_')).toEqual(['source', 'covid', '19', 'https', 'x', 'example', 'cdc', 's', 'page']);
  });
});
