import { createRerankProvider } from '@svc/agents';
import { cohereRerank, useLoopbackServer, type Handler, type RerankRequest } from '@svc/agents/testing';
import { DEFAULT_PRICING } from '@svc/core';
import { describe, expect, it } from 'vitest';
import { createHarness } from '../testing/harness.js';

// The rerank provider in a visitor's turn (DESIGN.md section 11), through a real Cohere-style /rerank server on
// loopback: its order decides the answer, each rerank is billed in the reply's credits, an outage costs only the
// reordering.

const server = useLoopbackServer();

/** A reranker that finds the returns document the most relevant, whatever the question's words. */
const prefersReturns: Handler<RerankRequest> = (request) => ({
  json: cohereRerank(
    request.body.documents
      .map((text, index) => [index, text.startsWith('Returns and refunds') ? 0.91 : 0.02] as const)
      .sort((a, b) => b[1] - a[1]),
  ),
});
const outage: Handler<RerankRequest> = () => ({ status: 503, json: { message: 'overloaded' } });

function reranker() {
  return createRerankProvider({ provider: 'cohere', model: 'rerank-v3.5', baseURL: `${server.origin}/v2`, apiKey: 'co-test' }, { timeoutMs: 2_000 });
}

describe('a rerank provider in a turn', () => {
  it('answers from the passage it ranks first and bills one rerank in the reply credits', async () => {
    const route = server.route('/v2/rerank', [prefersReturns]);
    const h = await createHarness({ rerank: reranker() });
    const res = await h.post(`${h.base}/${await h.session()}/messages`, { content: 'Do you ship to Canada?' });
    expect(res.status).toBe(200);
    expect(res.body.data.sources.map((source: { title: string }) => source.title)).toEqual(['Returns and refunds']);
    expect(res.body.data.credits.rerank).toBe(DEFAULT_PRICING.rerank);
    expect(route.requests).toHaveLength(1);
    expect(route.requests[0]!.headers.authorization).toBe('Bearer co-test');
    expect(route.requests[0]!.body).toMatchObject({ model: 'rerank-v3.5', query: 'Do you ship to Canada?' });
  });

  it('degrades to full text when the provider is down: the turn answers from the text order, no rerank billed, the failure reported', async () => {
    server.route('/v2/rerank', [outage]);
    const errors: Array<[string, unknown]> = [];
    const h = await createHarness({ rerank: reranker(), onProviderError: (provider, error) => errors.push([provider, error]) });
    const res = await h.post(`${h.base}/${await h.session()}/messages`, { content: 'Do you ship to Canada?' });
    expect(res.status).toBe(200);
    expect(res.body.data.sources.map((source: { title: string }) => source.title)).toEqual(['Shipping and delivery']);
    expect(res.body.data.credits.rerank).toBe(0);
    expect(errors.map(([provider]) => provider)).toEqual(['rerank']);
  });

  it('bills the rerank of a knowledge base search too', async () => {
    server.route('/v2/rerank', [prefersReturns]);
    const h = await createHarness({ rerank: reranker() });
    const read = await h.newKey(['knowledge:read']);
    const found = await h.post(`/knowledge-bases/${h.knowledgeBase.id}/search`, { query: 'ship to Canada' }, { key: read });
    expect(found.status).toBe(200);
    expect(found.body.data.passages[0]).toMatchObject({ title: 'Returns and refunds', retrievers: ['text', 'rerank'], score: 0.91 });
    expect(found.body.meta.creditsConsumed).toBeCloseTo(DEFAULT_PRICING.retrieval + DEFAULT_PRICING.rerank, 6);
  });
});
