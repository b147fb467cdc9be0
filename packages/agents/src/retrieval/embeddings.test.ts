import { describe, expect, it } from 'vitest';
import { createEmbeddingProvider, embeddingProviderFromEnv, RetrievalProviderError } from '../index.js';
import type { EmbeddingConfig, EmbeddingProviderOptions } from '../index.js';
import { openAIError } from '../llm/testing/openai-wire.js';
import { embeddingsWithoutUsage, ollamaEmbeddings, openAIEmbeddings, vectorOf, vllmEmbeddings } from './testing/embeddings-wire.js';
import type { EmbeddingsRequest } from './testing/embeddings-wire.js';
import { useLoopbackServer } from './testing/loopback.js';

const server = useLoopbackServer();

const openai = (config: Partial<EmbeddingConfig> = {}, options?: EmbeddingProviderOptions) =>
  createEmbeddingProvider(
    { provider: 'openai', model: 'text-embedding-3-small', dimensions: 512, baseURL: `${server.origin}/v1`, apiKey: 'sk-test-embeddings', ...config },
    options,
  );

async function rejection(promise: Promise<unknown>): Promise<RetrievalProviderError> {
  return promise.then(
    () => {
      throw new Error('expected the call to reject');
    },
    (error: unknown) => error as RetrievalProviderError,
  );
}

describe('OpenAI embeddings on the /embeddings wire format', () => {
  it('posts the model, the texts, float encoding and the dimensions with the key, and reads vectors and tokens', async () => {
    const endpoint = server.route<EmbeddingsRequest>('/v1/embeddings', [
      (request) => ({ json: openAIEmbeddings(request.body, { dimensions: 512, promptTokens: 17 }) }),
    ]);
    const provider = openai();

    const result = await provider.embed(['How long does shipping take?', 'Shipping takes 3 to 5 business days.'], { purpose: 'passage' });

    expect(provider).toMatchObject({ model: 'openai:text-embedding-3-small:512', dimensions: 512, maxBatch: 256 });
    expect(endpoint.requests).toHaveLength(1);
    const request = endpoint.requests[0]!;
    expect(request.headers['authorization']).toBe('Bearer sk-test-embeddings');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.body).toEqual({
      model: 'text-embedding-3-small',
      input: ['How long does shipping take?', 'Shipping takes 3 to 5 business days.'],
      encoding_format: 'float',
      dimensions: 512,
    });
    expect(result.tokens).toBe(17);
    expect(result.vectors).toHaveLength(2);
    expect(result.vectors[0]).toBeInstanceOf(Float32Array);
    expect(result.vectors[0]).toEqual(Float32Array.from(vectorOf('How long does shipping take?', 512)));
    expect(result.vectors[1]).toEqual(Float32Array.from(vectorOf('Shipping takes 3 to 5 business days.', 512)));
  });

  it('does not send dimensions to text-embedding-ada-002, which rejects them', async () => {
    const endpoint = server.route<EmbeddingsRequest>('/v1/embeddings', [
      (request) => ({ json: openAIEmbeddings(request.body, { dimensions: 1536, promptTokens: 3 }) }),
    ]);

    const result = await openai({ model: 'text-embedding-ada-002', dimensions: 1536 }).embed(['return policy'], { purpose: 'query' });

    expect(endpoint.requests[0]?.body).not.toHaveProperty('dimensions');
    expect(result.vectors[0]).toHaveLength(1536);
  });

  it('splits more texts than maxBatch into requests of at most maxBatch, in order, and adds up the tokens', async () => {
    const endpoint = server.route<EmbeddingsRequest>('/v1/embeddings', [
      (request) => ({ json: openAIEmbeddings(request.body, { dimensions: 512, promptTokens: request.body.input.length * 4 }) }),
    ]);
    const texts = ['one', 'two', 'three', 'four', 'five'];

    const result = await openai({}, { maxBatch: 2 }).embed(texts, { purpose: 'passage' });

    expect(endpoint.requests.map((request) => request.body.input)).toEqual([['one', 'two'], ['three', 'four'], ['five']]);
    expect(result.vectors).toEqual(texts.map((text) => Float32Array.from(vectorOf(text, 512))));
    expect(result.tokens).toBe(20);
  });

  it('sends nothing for no texts', async () => {
    const endpoint = server.route<EmbeddingsRequest>('/v1/embeddings', [() => ({ status: 500, text: 'unexpected' })]);

    expect(await openai().embed([], { purpose: 'passage' })).toEqual({ vectors: [], tokens: 0 });
    expect(endpoint.requests).toHaveLength(0);
  });
});

describe('OpenAI-compatible embeddings (Ollama, vLLM, TEI)', () => {
  it('reads Ollama without a key, never sending OPENAI_API_KEY nor dimensions the model does not take', async () => {
    const endpoint = server.route<EmbeddingsRequest>('/v1/embeddings', [
      (request) => ({ json: ollamaEmbeddings(request.body, { dimensions: 768, promptTokens: 9 }) }),
    ]);
    const provider = embeddingProviderFromEnv({
      SVC_EMBEDDING_PROVIDER: 'openai-compatible',
      SVC_EMBEDDING_BASE_URL: `${server.origin}/v1`,
      SVC_EMBEDDING_MODEL: 'nomic-embed-text',
      SVC_EMBEDDING_DIMENSIONS: '768',
      OPENAI_API_KEY: 'sk-real-openai-key',
    });

    const result = await provider!.embed(['Où est ma commande ?'], { purpose: 'query' });

    expect(provider).toMatchObject({ model: 'openai-compatible:nomic-embed-text:768', dimensions: 768, maxBatch: 32 });
    expect(endpoint.requests[0]?.headers['authorization']).toBeUndefined();
    expect(endpoint.requests[0]?.body).toEqual({ model: 'nomic-embed-text', input: ['Où est ma commande ?'], encoding_format: 'float' });
    expect(result).toEqual({ vectors: [Float32Array.from(vectorOf('Où est ma commande ?', 768))], tokens: 9 });
  });

  it('reads vLLM with its key as a bearer token', async () => {
    const endpoint = server.route<EmbeddingsRequest>('/v1/embeddings', [
      (request) => ({ json: vllmEmbeddings(request.body, { dimensions: 1024, promptTokens: 12 }) }),
    ]);
    const provider = createEmbeddingProvider({
      provider: 'openai-compatible',
      model: 'BAAI/bge-m3',
      dimensions: 1024,
      baseURL: `${server.origin}/v1`,
      apiKey: 'vllm-token',
    });

    const result = await provider.embed(['a', 'b'], { purpose: 'passage' });

    expect(endpoint.requests[0]?.headers['authorization']).toBe('Bearer vllm-token');
    expect(result.vectors.map((vector) => vector.length)).toEqual([1024, 1024]);
    expect(result.tokens).toBe(12);
  });

  it('sends dimensions to OpenAI’s text-embedding-3 models behind a compatible gateway', async () => {
    const endpoint = server.route<EmbeddingsRequest>('/v1/embeddings', [
      (request) => ({ json: openAIEmbeddings(request.body, { dimensions: 256, promptTokens: 2 }) }),
    ]);
    const provider = createEmbeddingProvider({
      provider: 'openai-compatible',
      model: 'openai/text-embedding-3-large',
      dimensions: 256,
      baseURL: `${server.origin}/v1`,
      apiKey: 'litellm-key',
    });

    await provider.embed(['x'], { purpose: 'query' });

    expect(endpoint.requests[0]?.body.dimensions).toBe(256);
  });

  it('counts 0 tokens when the server reports no usage (TEI)', async () => {
    server.route<EmbeddingsRequest>('/v1/embeddings', [(request) => ({ json: embeddingsWithoutUsage(request.body, { dimensions: 384 }) })]);
    const provider = createEmbeddingProvider({
      provider: 'openai-compatible',
      model: 'BAAI/bge-small-en-v1.5',
      dimensions: 384,
      baseURL: `${server.origin}/v1`,
      apiKey: undefined,
    });

    const result = await provider.embed(['a', 'b', 'c'], { purpose: 'passage' });

    expect(result.tokens).toBe(0);
    expect(result.vectors).toHaveLength(3);
  });
});

describe('embeddings: wrong answers are errors, never normalised', () => {
  it('rejects a vector whose length is not the configured dimensions', async () => {
    server.route<EmbeddingsRequest>('/v1/embeddings', [
      (request) => ({ json: ollamaEmbeddings(request.body, { dimensions: 768, promptTokens: 5 }) }),
    ]);

    const error = await rejection(openai({ dimensions: 1024 }).embed(['a'], { purpose: 'passage' }));

    expect(error).toBeInstanceOf(RetrievalProviderError);
    expect(error).toMatchObject({ name: 'RetrievalProviderError', reason: 'wrong_dimensions', provider: 'openai' });
    expect(error.message).toBe(
      'openai embeddings (text-embedding-3-small): the vector of text 0 has 768 dimensions, not the 1024 configured ' +
        '(SVC_EMBEDDING_DIMENSIONS must be the length the model returns)',
    );
  });

  it('rejects fewer vectors than texts', async () => {
    server.route<EmbeddingsRequest>('/v1/embeddings', [
      (request) => ({ json: openAIEmbeddings({ ...request.body, input: request.body.input.slice(1) }, { dimensions: 512, promptTokens: 5 }) }),
    ]);

    const error = await rejection(openai().embed(['a', 'b', 'c'], { purpose: 'passage' }));

    expect(error).toMatchObject({ reason: 'malformed_response', message: 'openai embeddings (text-embedding-3-small): 2 vectors for 3 texts' });
  });

  it('rejects a body that is not the documented format', async () => {
    server.route<EmbeddingsRequest>('/v1/embeddings', [() => ({ json: { embeddings: [[0.1, 0.2]] } })]);

    const error = await rejection(openai({}, { maxRetries: 0 }).embed(['a'], { purpose: 'passage' }));

    expect(error).toMatchObject({ name: 'RetrievalProviderError', reason: 'malformed_response', provider: 'openai' });
    expect(error.message).toBe(
      `openai embeddings (text-embedding-3-small): HTTP 200 from ${server.origin}/v1/embeddings: Invalid JSON response ` +
        '(data: Invalid input: expected array, received undefined)',
    );
  });
});

describe('embeddings: provider failures', () => {
  const SERVER_ERROR = openAIError('The server had an error while processing your request. Sorry about that!', 'server_error', null);
  const RATE_LIMITED = openAIError(
    'Rate limit reached for text-embedding-3-small in organization org-VXzmEaxGqfQ2 on tokens per min (TPM): Limit 1000000, Used 999800, Requested 900.',
    'tokens',
    'rate_limit_exceeded',
  );

  it('rejects a 500 naming the provider, the status, the URL and the provider’s message', async () => {
    server.route<EmbeddingsRequest>('/v1/embeddings', [() => ({ status: 500, json: SERVER_ERROR })]);

    const error = await rejection(openai({}, { maxRetries: 0 }).embed(['a'], { purpose: 'passage' }));

    expect(error).toMatchObject({ reason: 'provider_error', statusCode: 500, provider: 'openai' });
    expect(error.message).toBe(`openai embeddings (text-embedding-3-small): HTTP 500 from ${server.origin}/v1/embeddings: ${SERVER_ERROR.error.message}`);
  });

  it('retries a 429 after Retry-After, then rejects as rate_limited once the retries are spent', async () => {
    const endpoint = server.route<EmbeddingsRequest>('/v1/embeddings', [
      () => ({ status: 429, headers: { 'retry-after': '0' }, json: RATE_LIMITED }),
    ]);
    const started = performance.now();

    const error = await rejection(openai().embed(['a'], { purpose: 'passage' }));

    expect(endpoint.requests).toHaveLength(3);
    expect(performance.now() - started).toBeLessThan(1500);
    expect(error).toMatchObject({ reason: 'rate_limited', statusCode: 429 });
    expect(error.message).toBe(
      `openai embeddings (text-embedding-3-small): 3 attempts failed; last: HTTP 429 from ${server.origin}/v1/embeddings: ${RATE_LIMITED.error.message}`,
    );
  });

  it('answers when a retried 429 recovers', async () => {
    server.route<EmbeddingsRequest>('/v1/embeddings', [
      () => ({ status: 429, headers: { 'retry-after': '0' }, json: RATE_LIMITED }),
      (request) => ({ json: openAIEmbeddings(request.body, { dimensions: 512, promptTokens: 1 }) }),
    ]);

    const result = await openai().embed(['a'], { purpose: 'passage' });

    expect(result.vectors).toHaveLength(1);
  });

  it('gives up at the deadline while the retries back off, saying what the provider last answered', async () => {
    // No Retry-After: the SDK would wait 2 s, then 4 s.
    const endpoint = server.route<EmbeddingsRequest>('/v1/embeddings', [() => ({ status: 503, json: SERVER_ERROR })]);
    const started = performance.now();

    const error = await rejection(openai({}, { timeoutMs: 300 }).embed(['a'], { purpose: 'passage' }));

    expect(performance.now() - started).toBeLessThan(1000);
    expect(endpoint.requests).toHaveLength(1);
    expect(error).toMatchObject({ name: 'RetrievalProviderError', reason: 'timeout', provider: 'openai' });
    expect(error.message).toBe('openai embeddings (text-embedding-3-small): no answer within 300 ms (last answer: HTTP 503)');
  });

  it('rejects at the deadline when the provider never answers', async () => {
    server.route<EmbeddingsRequest>('/v1/embeddings', [() => 'hang']);
    const started = performance.now();

    const error = await rejection(openai({}, { timeoutMs: 250 }).embed(['a'], { purpose: 'passage' }));

    expect(performance.now() - started).toBeLessThan(1000);
    expect(error).toMatchObject({ reason: 'timeout', message: 'openai embeddings (text-embedding-3-small): no answer within 250 ms' });
  });

  it('rejects with the caller’s own reason when its signal aborts', async () => {
    server.route<EmbeddingsRequest>('/v1/embeddings', [() => 'hang']);
    const controller = new AbortController();
    const reason = new Error('the job is shutting down');
    setTimeout(() => controller.abort(reason), 50);

    const error = await rejection(openai().embed(['a'], { purpose: 'passage', signal: controller.signal }));

    expect(error).toBe(reason);
  });

  it('rejects a server that cannot be reached, naming the URL', async () => {
    const error = await rejection(openai({ baseURL: 'http://127.0.0.1:1/v1' }, { maxRetries: 0 }).embed(['a'], { purpose: 'passage' }));

    expect(error).toMatchObject({ reason: 'provider_error', statusCode: undefined });
    expect(error.message).toMatch(/^openai embeddings \(text-embedding-3-small\): no HTTP answer from http:\/\/127\.0\.0\.1:1\/v1\/embeddings: /);
  });
});
