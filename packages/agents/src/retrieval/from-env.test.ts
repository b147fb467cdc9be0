import { describe, expect, it } from 'vitest';
import { embeddingProviderFromEnv, readEmbeddingConfig, readRerankConfig, rerankProviderFromEnv } from '../index.js';

describe('readEmbeddingConfig', () => {
  it('is null when SVC_EMBEDDING_PROVIDER is unset or blank: search stays full text only', () => {
    expect(readEmbeddingConfig({})).toBeNull();
    expect(readEmbeddingConfig({ SVC_EMBEDDING_PROVIDER: ' ', SVC_EMBEDDING_MODEL: 'text-embedding-3-small' })).toBeNull();
    expect(embeddingProviderFromEnv({ OPENAI_API_KEY: 'sk-x', SVC_AI_PROVIDER: 'openai' })).toBeNull();
  });

  it('reads OpenAI with the default API root and the model’s own length, taking OPENAI_API_KEY as a fallback', () => {
    expect(readEmbeddingConfig({ SVC_EMBEDDING_PROVIDER: 'openai', SVC_EMBEDDING_MODEL: 'text-embedding-3-small', OPENAI_API_KEY: 'sk-vendor' })).toEqual({
      provider: 'openai',
      model: 'text-embedding-3-small',
      dimensions: 1536,
      baseURL: 'https://api.openai.com/v1',
      apiKey: 'sk-vendor',
    });
    const both = readEmbeddingConfig({
      SVC_EMBEDDING_PROVIDER: 'openai',
      SVC_EMBEDDING_MODEL: 'text-embedding-3-large',
      SVC_EMBEDDING_DIMENSIONS: '256',
      OPENAI_API_KEY: 'sk-vendor',
      SVC_EMBEDDING_API_KEY: 'sk-svc',
    });
    expect(both).toMatchObject({ apiKey: 'sk-svc', dimensions: 256 });
  });

  it('reads an OpenAI-compatible server with an optional key, never borrowing OPENAI_API_KEY', () => {
    const env = {
      SVC_EMBEDDING_PROVIDER: 'openai-compatible',
      SVC_EMBEDDING_MODEL: 'nomic-embed-text',
      SVC_EMBEDDING_DIMENSIONS: '768',
      SVC_EMBEDDING_BASE_URL: 'http://localhost:11434/v1',
      OPENAI_API_KEY: 'sk-x',
    };
    expect(readEmbeddingConfig(env)).toEqual({
      provider: 'openai-compatible',
      model: 'nomic-embed-text',
      dimensions: 768,
      baseURL: 'http://localhost:11434/v1',
      apiKey: undefined,
    });
    expect(embeddingProviderFromEnv(env)).toMatchObject({ model: 'openai-compatible:nomic-embed-text:768', dimensions: 768, maxBatch: 32 });
  });

  const COMPATIBLE = { SVC_EMBEDDING_PROVIDER: 'openai-compatible', SVC_EMBEDDING_MODEL: 'nomic-embed-text', SVC_EMBEDDING_BASE_URL: 'http://localhost:11434/v1' };
  it.each([
    [{ SVC_EMBEDDING_PROVIDER: 'cohere', SVC_EMBEDDING_MODEL: 'embed-v4.0' }, 'SVC_EMBEDDING_PROVIDER must be one of openai, openai-compatible; got "cohere".'],
    [{ SVC_EMBEDDING_PROVIDER: 'openai', OPENAI_API_KEY: 'sk' }, 'SVC_EMBEDDING_MODEL is required with SVC_EMBEDDING_PROVIDER=openai (e.g. text-embedding-3-small).'],
    [
      { SVC_EMBEDDING_PROVIDER: 'openai', SVC_EMBEDDING_MODEL: 'text-embedding-3-small' },
      'SVC_EMBEDDING_API_KEY (or OPENAI_API_KEY) is required with SVC_EMBEDDING_PROVIDER=openai.',
    ],
    [
      { ...COMPATIBLE, SVC_EMBEDDING_DIMENSIONS: undefined },
      'SVC_EMBEDDING_DIMENSIONS is required with SVC_EMBEDDING_MODEL=nomic-embed-text: the length of its vectors (e.g. 768 for nomic-embed-text).',
    ],
    [{ ...COMPATIBLE, SVC_EMBEDDING_DIMENSIONS: '0' }, 'SVC_EMBEDDING_DIMENSIONS must be a positive integer; got "0".'],
    [{ ...COMPATIBLE, SVC_EMBEDDING_DIMENSIONS: '768.5' }, 'SVC_EMBEDDING_DIMENSIONS must be a positive integer; got "768.5".'],
    [{ ...COMPATIBLE, SVC_EMBEDDING_DIMENSIONS: '-768' }, 'SVC_EMBEDDING_DIMENSIONS must be a positive integer; got "-768".'],
    [{ ...COMPATIBLE, SVC_EMBEDDING_DIMENSIONS: 'auto' }, 'SVC_EMBEDDING_DIMENSIONS must be a positive integer; got "auto".'],
    [
      { SVC_EMBEDDING_PROVIDER: 'openai', SVC_EMBEDDING_MODEL: 'text-embedding-3-small', SVC_EMBEDDING_DIMENSIONS: '3072', OPENAI_API_KEY: 'sk' },
      'SVC_EMBEDDING_DIMENSIONS must be at most 1536 for text-embedding-3-small; got 3072.',
    ],
    [
      { SVC_EMBEDDING_PROVIDER: 'openai', SVC_EMBEDDING_MODEL: 'text-embedding-ada-002', SVC_EMBEDDING_DIMENSIONS: '512', OPENAI_API_KEY: 'sk' },
      'SVC_EMBEDDING_DIMENSIONS must be 1536 for text-embedding-ada-002; got 512.',
    ],
    [
      { ...COMPATIBLE, SVC_EMBEDDING_DIMENSIONS: '768', SVC_EMBEDDING_BASE_URL: undefined },
      'SVC_EMBEDDING_BASE_URL is required with SVC_EMBEDDING_PROVIDER=openai-compatible (e.g. http://localhost:11434/v1).',
    ],
    [
      { ...COMPATIBLE, SVC_EMBEDDING_DIMENSIONS: '768', SVC_EMBEDDING_BASE_URL: 'localhost:11434/v1' },
      'SVC_EMBEDDING_BASE_URL must be an http(s) URL such as http://localhost:11434/v1; got "localhost:11434/v1".',
    ],
  ])('names the variable to fix: %j', (env, message) => {
    expect(() => readEmbeddingConfig(env)).toThrow(new Error(message));
    expect(() => embeddingProviderFromEnv(env)).toThrow(message);
  });
});

describe('readRerankConfig', () => {
  it('is null when SVC_RERANK_PROVIDER is unset or blank: results keep the retrieval order', () => {
    expect(readRerankConfig({})).toBeNull();
    expect(readRerankConfig({ SVC_RERANK_PROVIDER: '', SVC_RERANK_MODEL: 'rerank-v3.5' })).toBeNull();
    expect(rerankProviderFromEnv({ SVC_RERANK_API_KEY: 'co-x' })).toBeNull();
  });

  it('reads Cohere and Jina with their API roots, and a base URL override', () => {
    expect(readRerankConfig({ SVC_RERANK_PROVIDER: 'cohere', SVC_RERANK_MODEL: 'rerank-v3.5', SVC_RERANK_API_KEY: 'co-key' })).toEqual({
      provider: 'cohere',
      model: 'rerank-v3.5',
      baseURL: 'https://api.cohere.com/v2',
      apiKey: 'co-key',
    });
    expect(
      readRerankConfig({ SVC_RERANK_PROVIDER: 'jina', SVC_RERANK_MODEL: 'jina-reranker-v2-base-multilingual', SVC_RERANK_API_KEY: 'jina_key' }),
    ).toMatchObject({ baseURL: 'https://api.jina.ai/v1' });
    expect(
      readRerankConfig({
        SVC_RERANK_PROVIDER: 'cohere',
        SVC_RERANK_MODEL: 'rerank-v3.5',
        SVC_RERANK_API_KEY: 'co-key',
        SVC_RERANK_BASE_URL: 'https://gateway.example/cohere/v2',
      }),
    ).toMatchObject({ baseURL: 'https://gateway.example/cohere/v2' });
    expect(rerankProviderFromEnv({ SVC_RERANK_PROVIDER: 'jina', SVC_RERANK_MODEL: 'jina-reranker-m0', SVC_RERANK_API_KEY: 'k' })?.model).toBe(
      'jina:jina-reranker-m0',
    );
  });

  it('reads a compatible server with an optional key', () => {
    expect(
      readRerankConfig({ SVC_RERANK_PROVIDER: 'compatible', SVC_RERANK_MODEL: 'BAAI/bge-reranker-v2-m3', SVC_RERANK_BASE_URL: 'http://localhost:8000/v1' }),
    ).toEqual({ provider: 'compatible', model: 'BAAI/bge-reranker-v2-m3', baseURL: 'http://localhost:8000/v1', apiKey: undefined });
  });

  it.each([
    [{ SVC_RERANK_PROVIDER: 'voyage', SVC_RERANK_MODEL: 'rerank-2' }, 'SVC_RERANK_PROVIDER must be one of cohere, jina, compatible; got "voyage".'],
    [{ SVC_RERANK_PROVIDER: 'cohere', SVC_RERANK_API_KEY: 'k' }, 'SVC_RERANK_MODEL is required with SVC_RERANK_PROVIDER=cohere (e.g. rerank-v3.5).'],
    [{ SVC_RERANK_PROVIDER: 'jina', SVC_RERANK_MODEL: 'jina-reranker-m0' }, 'SVC_RERANK_API_KEY is required with SVC_RERANK_PROVIDER=jina.'],
    [
      { SVC_RERANK_PROVIDER: 'compatible', SVC_RERANK_MODEL: 'BAAI/bge-reranker-v2-m3' },
      'SVC_RERANK_BASE_URL is required with SVC_RERANK_PROVIDER=compatible (e.g. http://localhost:8000/v1).',
    ],
    [
      { SVC_RERANK_PROVIDER: 'compatible', SVC_RERANK_MODEL: 'BAAI/bge-reranker-v2-m3', SVC_RERANK_BASE_URL: 'ftp://localhost/v1' },
      'SVC_RERANK_BASE_URL must be an http(s) URL such as http://localhost:8000/v1; got "ftp://localhost/v1".',
    ],
  ])('names the variable to fix: %j', (env, message) => {
    expect(() => readRerankConfig(env)).toThrow(new Error(message));
    expect(() => rerankProviderFromEnv(env)).toThrow(message);
  });
});
