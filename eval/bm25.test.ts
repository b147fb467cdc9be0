import { describe, expect, it } from 'vitest';
import { createBm25Index, tokenize } from './bm25.js';

describe('tokenize', () => {
  it('lower-cases runs of letters and digits and keeps every word, stopwords and inflections included', () => {
    expect(tokenize('Is COVID-19 spreading? Où, l’été…')).toEqual(['is', 'covid', '19', 'spreading', 'où', 'l', 'été']);
  });
});

describe('createBm25Index', () => {
  // N = 3 documents of 2, 3 and 1 tokens: avgdl = 2. With k1 = 1.2 and b = 0.75, the length norm
  // k1 · (1 − b + b · |d| / avgdl) is 1.2 for d0, 1.65 for d1 and 0.75 for d2.
  const index = createBm25Index(['cat sat', 'Cat cat dog', 'bird']);

  it('scores a term by hand-computed idf and saturated frequency', () => {
    // "cat": df = 2, idf = ln(1 + 1.5 / 2.5) = ln 1.6 = 0.470004.
    // d0: tf 1 → 1 · 2.2 / (1 + 1.2) = 1, score 0.470004. d1: tf 2 → 4.4 / 3.65 = 1.205479, score 0.566580.
    const hits = index.search('cat');
    expect(hits.map((hit) => hit.index)).toEqual([1, 0]);
    expect(hits[0]!.score).toBeCloseTo(0.56658, 5);
    expect(hits[1]!.score).toBeCloseTo(0.470004, 5);
  });

  it('sums the distinct query terms and leaves out documents matching none', () => {
    // "dog" and "bird": df = 1 each, idf = ln(1 + 2.5 / 1.5) = 0.980829.
    // d2 (bird, tf 1): 2.2 / 1.75 = 1.257143 → 1.233042. d1 (dog, tf 1): 2.2 / 2.65 = 0.830189 → 0.814273.
    // The repeated "dog" counts once; d0 matches neither term and is not ranked.
    const hits = index.search('dog bird DOG');
    expect(hits.map((hit) => hit.index)).toEqual([2, 1]);
    expect(hits[0]!.score).toBeCloseTo(1.233042, 5);
    expect(hits[1]!.score).toBeCloseTo(0.814273, 5);
  });

  it('keeps equal scores in document order and ranks nothing for an unknown word', () => {
    const twins = createBm25Index(['alpha beta', 'alpha beta', 'gamma delta']);
    expect(twins.search('alpha').map((hit) => hit.index)).toEqual([0, 1]);
    expect(twins.search('omega')).toEqual([]);
  });
});
