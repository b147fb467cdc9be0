import { createMemoryStore } from '@svc/core/testing';
import { describe, expect, it } from 'vitest';
import { createLlmAgentFromEnv, readAiConfig } from '../index.js';
import { demoRequest } from '../test-support.js';
import { jsonResponse, mockEndpoint, useMockServer } from './testing/mock-provider.js';
import { chatText } from './testing/openai-wire.js';
import type { OpenAIChatRequest } from './testing/openai-wire.js';

const server = useMockServer();

describe('readAiConfig', () => {
  it('is null when SVC_AI_PROVIDER is unset or blank: the server keeps the local agent', () => {
    expect(readAiConfig({})).toBeNull();
    expect(readAiConfig({ SVC_AI_PROVIDER: '  ', SVC_AI_MODEL: 'gpt-4o-mini' })).toBeNull();
    expect(createLlmAgentFromEnv({ OPENAI_API_KEY: 'sk-x' }, { knowledge: createMemoryStore() })).toBeNull();
  });

  it('reads OpenAI with the default API root, taking OPENAI_API_KEY as a fallback', () => {
    expect(readAiConfig({ SVC_AI_PROVIDER: 'openai', SVC_AI_MODEL: 'gpt-4o-mini', OPENAI_API_KEY: 'sk-vendor' })).toEqual({
      provider: 'openai',
      model: 'gpt-4o-mini',
      apiKey: 'sk-vendor',
      baseURL: 'https://api.openai.com/v1',
    });
    const both = readAiConfig({ SVC_AI_PROVIDER: 'openai', SVC_AI_MODEL: 'gpt-4o-mini', OPENAI_API_KEY: 'sk-vendor', SVC_AI_API_KEY: 'sk-svc' });
    expect(both?.apiKey).toBe('sk-svc');
  });

  it('reads Anthropic, with ANTHROPIC_API_KEY as a fallback and a base URL override', () => {
    expect(
      readAiConfig({
        SVC_AI_PROVIDER: 'anthropic',
        SVC_AI_MODEL: 'claude-sonnet-4-5',
        ANTHROPIC_API_KEY: 'sk-ant',
        SVC_AI_BASE_URL: 'https://gateway.example/anthropic/v1',
      }),
    ).toEqual({ provider: 'anthropic', model: 'claude-sonnet-4-5', apiKey: 'sk-ant', baseURL: 'https://gateway.example/anthropic/v1' });
  });

  it('reads an OpenAI-compatible server with an optional key, never borrowing OPENAI_API_KEY', () => {
    expect(
      readAiConfig({ SVC_AI_PROVIDER: 'openai-compatible', SVC_AI_MODEL: 'llama3.1', SVC_AI_BASE_URL: 'http://localhost:11434/v1', OPENAI_API_KEY: 'sk-x' }),
    ).toEqual({ provider: 'openai-compatible', model: 'llama3.1', apiKey: undefined, baseURL: 'http://localhost:11434/v1' });
  });

  it.each([
    [{ SVC_AI_PROVIDER: 'gemini', SVC_AI_MODEL: 'x' }, 'SVC_AI_PROVIDER must be one of openai, anthropic, openai-compatible; got "gemini".'],
    [{ SVC_AI_PROVIDER: 'openai', SVC_AI_API_KEY: 'sk' }, 'SVC_AI_MODEL is required with SVC_AI_PROVIDER=openai (e.g. gpt-4o-mini).'],
    [{ SVC_AI_PROVIDER: 'openai', SVC_AI_MODEL: 'gpt-4o-mini' }, 'SVC_AI_API_KEY (or OPENAI_API_KEY) is required with SVC_AI_PROVIDER=openai.'],
    [{ SVC_AI_PROVIDER: 'anthropic', SVC_AI_MODEL: 'claude-sonnet-4-5', OPENAI_API_KEY: 'sk' }, 'SVC_AI_API_KEY (or ANTHROPIC_API_KEY) is required with SVC_AI_PROVIDER=anthropic.'],
    [
      { SVC_AI_PROVIDER: 'openai-compatible', SVC_AI_MODEL: 'llama3.1' },
      'SVC_AI_BASE_URL is required with SVC_AI_PROVIDER=openai-compatible (e.g. http://localhost:11434/v1 for Ollama).',
    ],
    [
      { SVC_AI_PROVIDER: 'openai-compatible', SVC_AI_MODEL: 'llama3.1', SVC_AI_BASE_URL: 'localhost:11434/v1' },
      'SVC_AI_BASE_URL must be an http(s) URL such as http://localhost:11434/v1; got "localhost:11434/v1".',
    ],
  ])('names the variable to fix: %j', (env, message) => {
    expect(() => readAiConfig(env)).toThrow(new Error(message));
    expect(() => createLlmAgentFromEnv(env, { knowledge: createMemoryStore() })).toThrow(message);
  });

  it('sends requests to the configured root even when the vendor SDKs’ own variables point elsewhere', async () => {
    const endpoint = mockEndpoint<OpenAIChatRequest>(server, 'https://api.openai.com/v1/chat/completions', [
      () => jsonResponse(chatText('Hello.')),
    ]);
    const previous = process.env['OPENAI_BASE_URL'];
    process.env['OPENAI_BASE_URL'] = 'https://elsewhere.example/v1';
    try {
      const agent = createLlmAgentFromEnv(
        { SVC_AI_PROVIDER: 'openai', SVC_AI_MODEL: 'gpt-4o-mini', SVC_AI_API_KEY: 'sk-test' },
        { knowledge: createMemoryStore() },
      );
      await agent?.reply(demoRequest('Hello'));
    } finally {
      if (previous === undefined) delete process.env['OPENAI_BASE_URL'];
      else process.env['OPENAI_BASE_URL'] = previous;
    }
    expect(endpoint.requests).toHaveLength(1);
  });
});
