import { describe, expect, it } from 'vitest';
import { CREDIT_BUCKETS, DEFAULT_PRICING, priceTurn, totalCredits, zeroMeters } from './credits.js';

describe('credits', () => {
  it('prices every bucket and always returns all eight', () => {
    const credits = priceTurn(DEFAULT_PRICING, { inputTokens: 1500, outputTokens: 600 }, {
      ...zeroMeters(),
      retrievals: 2,
      embeddings: 3,
      reranks: 1,
      pluginCalls: 1,
      pluginReranks: 2,
      crawledPages: 1,
      orchestrationSteps: 2,
    });
    expect(Object.keys(credits)).toEqual([...CREDIT_BUCKETS]);
    expect(credits).toEqual({ chat: 3, retrieval: 2, orchestration: 1, embedding: 0.3, rerank: 0.5, plugin: 1, pluginRerank: 1, crawler: 1 });
    expect(totalCredits(credits)).toBe(9.8);
  });

  it('charges at least the chat minimum for a tiny turn', () => {
    expect(priceTurn(DEFAULT_PRICING, { inputTokens: 3, outputTokens: 2 }, zeroMeters()).chat).toBe(1);
  });
});
