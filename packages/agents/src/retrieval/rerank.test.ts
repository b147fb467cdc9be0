import { describe, expect, it } from 'vitest';
import { createRerankProvider, RetrievalProviderError } from '../index.js';
import type { RerankConfig, RerankProviderOptions, RerankUsage } from '../index.js';
import { useLoopbackServer } from './testing/loopback.js';
import { cohereError, cohereRerank, jinaError, jinaRerank, vllmRerank } from './testing/rerank-wire.js';
import type { RerankRequest } from './testing/rerank-wire.js';

const server = useLoopbackServer();

const DOCUMENTS = [
  'Standard shipping takes 3 to 5 business days.',
  'You can return any item within 30 days for a full refund.',
  'Our store in Portland opens at 9am.',
];
const QUERY = 'Can I get my money back?';

const reranker = (config: Partial<RerankConfig> = {}, options?: RerankProviderOptions) =>
  createRerankProvider({ provider: 'cohere', model: 'rerank-v3.5', baseURL: `${server.origin}/v2`, apiKey: 'co-test-key', ...config }, options);

async function rejection(promise: Promise<unknown>): Promise<RetrievalProviderError> {
  return promise.then(
    () => {
      throw new Error('expected the call to reject');
    },
    (error: unknown) => error as RetrievalProviderError,
  );
}

describe('rerank on the Cohere v2 wire format', () => {
  it('posts the model, the query, the documents and top_n with the key, and reads the scores best first', async () => {
    const endpoint = server.route<RerankRequest>('/v2/rerank', [
      () => ({ json: cohereRerank([[1, 0.91], [0, 0.12], [2, 0.004]], { searchUnits: 1 }) }),
    ]);
    const usage: RerankUsage[] = [];
    const provider = reranker({}, { onUsage: (reported) => usage.push(reported) });

    const results = await provider.rerank(QUERY, DOCUMENTS, {});

    expect(provider.model).toBe('cohere:rerank-v3.5');
    expect(results).toEqual([
      { index: 1, score: 0.91 },
      { index: 0, score: 0.12 },
      { index: 2, score: 0.004 },
    ]);
    const request = endpoint.requests[0]!;
    expect(request.headers['authorization']).toBe('Bearer co-test-key');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.body).toEqual({ model: 'rerank-v3.5', query: QUERY, documents: DOCUMENTS, top_n: 3 });
    expect(usage).toEqual([{ searchUnits: 1 }]);
  });

  it('sorts results best first even when the provider lists them in another order', async () => {
    server.route<RerankRequest>('/v2/rerank', [() => ({ json: cohereRerank([[0, 0.2], [2, 0.7], [1, 0.5]]) })]);

    const results = await reranker().rerank(QUERY, DOCUMENTS, {});

    expect(results.map((result) => result.index)).toEqual([2, 1, 0]);
  });

  it('sends nothing for no documents', async () => {
    const endpoint = server.route<RerankRequest>('/v2/rerank', [() => ({ status: 500, text: 'unexpected' })]);

    expect(await reranker().rerank(QUERY, [], {})).toEqual([]);
    expect(endpoint.requests).toHaveLength(0);
  });
});

describe('rerank on the Jina wire format (Jina, vLLM, llama.cpp)', () => {
  it('asks Jina not to echo the documents and reads its token usage', async () => {
    const endpoint = server.route<RerankRequest>('/v1/rerank', [
      (request) => ({ json: jinaRerank(request.body, [[1, 0.83], [2, 0.21], [0, 0.05]], { tokens: 96 }) }),
    ]);
    const usage: RerankUsage[] = [];
    const provider = createRerankProvider(
      { provider: 'jina', model: 'jina-reranker-v2-base-multilingual', baseURL: `${server.origin}/v1`, apiKey: 'jina_test' },
      { onUsage: (reported) => usage.push(reported) },
    );

    const results = await provider.rerank(QUERY, DOCUMENTS, {});

    expect(results).toEqual([
      { index: 1, score: 0.83 },
      { index: 2, score: 0.21 },
      { index: 0, score: 0.05 },
    ]);
    expect(endpoint.requests[0]?.headers['authorization']).toBe('Bearer jina_test');
    expect(endpoint.requests[0]?.body).toEqual({
      model: 'jina-reranker-v2-base-multilingual',
      query: QUERY,
      documents: DOCUMENTS,
      top_n: 3,
      return_documents: false,
    });
    expect(usage).toEqual([{ tokens: 96 }]);
  });

  it('reads a compatible server (vLLM) without a key, ignoring the documents it echoes', async () => {
    const endpoint = server.route<RerankRequest>('/v1/rerank', [
      (request) => ({ json: vllmRerank(request.body, [[1, 0.99], [0, -2.3], [2, -7.1]]) }),
    ]);
    const provider = createRerankProvider({ provider: 'compatible', model: 'BAAI/bge-reranker-v2-m3', baseURL: `${server.origin}/v1/`, apiKey: undefined });

    const results = await provider.rerank(QUERY, DOCUMENTS, {});

    expect(results).toEqual([
      { index: 1, score: 0.99 },
      { index: 0, score: -2.3 },
      { index: 2, score: -7.1 },
    ]);
    expect(endpoint.requests[0]?.headers['authorization']).toBeUndefined();
    expect(endpoint.requests[0]?.body).not.toHaveProperty('return_documents');
  });
});

describe('rerank: malformed responses are errors', () => {
  it.each([
    ['a body without results', { id: 'x', ranking: [] }, 'results: Invalid input: expected array, received undefined'],
    ['a score that is not a number', { results: [{ index: 0, relevance_score: 'high' }] }, 'results.0.relevance_score: Invalid input: expected number, received string'],
    ['a fractional index', { results: [{ index: 0.5, relevance_score: 0.5 }] }, 'results.0.index: Invalid input: expected int, received number'],
    ['an index past the documents', cohereRerank([[0, 0.9], [1, 0.5], [3, 0.1]]), 'result index 3 for 3 documents'],
    ['a document scored twice', cohereRerank([[0, 0.9], [0, 0.5], [1, 0.1]]), 'document 0 scored twice'],
    ['fewer results than documents', cohereRerank([[0, 0.9], [1, 0.5]]), '2 results for 3 documents (top_n was 3)'],
  ])('rejects %s', async (_case, body, detail) => {
    server.route<RerankRequest>('/v2/rerank', [() => ({ json: body })]);

    const error = await rejection(reranker().rerank(QUERY, DOCUMENTS, {}));

    expect(error).toBeInstanceOf(RetrievalProviderError);
    expect(error).toMatchObject({ name: 'RetrievalProviderError', reason: 'malformed_response', provider: 'cohere' });
    expect(error.message).toBe(`cohere rerank (rerank-v3.5): malformed response from ${server.origin}/v2/rerank: ${detail}`);
  });

  it('rejects a 200 that is not JSON', async () => {
    server.route<RerankRequest>('/v2/rerank', [() => ({ text: '<html><body>Bad gateway</body></html>' })]);

    const error = await rejection(reranker().rerank(QUERY, DOCUMENTS, {}));

    expect(error).toMatchObject({ reason: 'malformed_response' });
    expect(error.message).toBe(
      `cohere rerank (rerank-v3.5): malformed response from ${server.origin}/v2/rerank: not JSON: <html><body>Bad gateway</body></html>`,
    );
  });
});

describe('rerank: provider failures', () => {
  it('rejects a 429 as rate_limited with Cohere’s message, without retrying inside a turn', async () => {
    const message = 'You are using a Trial key, which is limited to 10 API calls / minute.';
    const endpoint = server.route<RerankRequest>('/v2/rerank', [() => ({ status: 429, json: cohereError(message) })]);

    const error = await rejection(reranker().rerank(QUERY, DOCUMENTS, {}));

    expect(endpoint.requests).toHaveLength(1);
    expect(error).toMatchObject({ reason: 'rate_limited', statusCode: 429, provider: 'cohere' });
    expect(error.message).toBe(`cohere rerank (rerank-v3.5): HTTP 429 from ${server.origin}/v2/rerank: ${message}`);
  });

  it('rejects a 500 with Jina’s detail', async () => {
    server.route<RerankRequest>('/v1/rerank', [() => ({ status: 500, json: jinaError('Internal server error, please retry later') })]);
    const provider = createRerankProvider({ provider: 'jina', model: 'jina-reranker-m0', baseURL: `${server.origin}/v1`, apiKey: 'jina_test' });

    const error = await rejection(provider.rerank(QUERY, DOCUMENTS, {}));

    expect(error).toMatchObject({ reason: 'provider_error', statusCode: 500, provider: 'jina' });
    expect(error.message).toBe(`jina rerank (jina-reranker-m0): HTTP 500 from ${server.origin}/v1/rerank: Internal server error, please retry later`);
  });

  it('rejects at the deadline when the provider never answers', async () => {
    server.route<RerankRequest>('/v2/rerank', [() => 'hang']);
    const started = performance.now();

    const error = await rejection(reranker({}, { timeoutMs: 200 }).rerank(QUERY, DOCUMENTS, {}));

    expect(performance.now() - started).toBeLessThan(1000);
    expect(error).toMatchObject({ reason: 'timeout', provider: 'cohere', message: 'cohere rerank (rerank-v3.5): no answer within 200 ms' });
  });

  it('rejects with the caller’s own reason when its signal aborts', async () => {
    server.route<RerankRequest>('/v2/rerank', [() => 'hang']);
    const controller = new AbortController();
    const reason = new Error('the turn timed out');
    setTimeout(() => controller.abort(reason), 50);

    const error = await rejection(reranker().rerank(QUERY, DOCUMENTS, { signal: controller.signal }));

    expect(error).toBe(reason);
  });

  it('rejects a server that cannot be reached, naming the URL', async () => {
    const error = await rejection(reranker({ baseURL: 'http://127.0.0.1:1/v2' }).rerank(QUERY, DOCUMENTS, {}));

    expect(error).toMatchObject({ reason: 'provider_error', statusCode: undefined });
    expect(error.message).toMatch(/^cohere rerank \(rerank-v3\.5\): no HTTP answer from http:\/\/127\.0\.0\.1:1\/v2\/rerank: /);
  });
});
