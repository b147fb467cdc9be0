import type { Store } from '@svc/core/store-kit';
import { beforeAll, describe, expect, it } from 'vitest';
import { countTokens } from '../tokens.js';
import { demoRequest, seedDemoStore } from '../test-support.js';
import { agentFromEnv } from './testing/agent-from-env.js';
import { jsonResponse, mockEndpoint, useMockServer } from './testing/mock-provider.js';
import { ollamaChatCompletion } from './testing/openai-wire.js';
import type { OpenAIChatRequest } from './testing/openai-wire.js';

/** Ollama's OpenAI-compatible endpoint: `{SVC_AI_BASE_URL}/chat/completions`, no key needed. */
const OLLAMA = 'http://localhost:11434/v1';
const ENV = { SVC_AI_PROVIDER: 'openai-compatible', SVC_AI_BASE_URL: OLLAMA, SVC_AI_MODEL: 'llama3.1' };

const server = useMockServer();
let store: Store;
beforeAll(async () => {
  store = await seedDemoStore();
});

describe('LLM agent on an OpenAI-compatible server (Ollama)', () => {
  it('posts to {baseURL}/chat/completions without an Authorization header when no key is set', async () => {
    const endpoint = mockEndpoint<OpenAIChatRequest>(server, `${OLLAMA}/chat/completions`, [
      () => jsonResponse(ollamaChatCompletion({ content: 'Hi! How can I help you today?' }, [640, 11])),
    ]);

    // OPENAI_API_KEY must not leak to a third-party server.
    const agent = agentFromEnv({ ...ENV, OPENAI_API_KEY: 'sk-real-openai-key' }, { knowledge: store });
    const reply = await agent.reply(demoRequest('Hello'));

    expect(reply.content).toBe('Hi! How can I help you today?');
    expect(reply.usage).toEqual({ inputTokens: 640, outputTokens: 11 });
    const request = endpoint.requests[0];
    expect(request?.headers.get('authorization')).toBeNull();
    expect(request?.body.model).toBe('llama3.1');
    expect(request?.body.messages.map((message) => message.role)).toEqual(['system', 'user']);
  });

  it('sends SVC_AI_API_KEY as a bearer token when one is set (vLLM, OpenRouter…)', async () => {
    const endpoint = mockEndpoint<OpenAIChatRequest>(server, 'https://llm.internal.example/v1/chat/completions', [
      () => jsonResponse(ollamaChatCompletion({ content: 'Hello.' }, [10, 2])),
    ]);
    const agent = agentFromEnv(
      { ...ENV, SVC_AI_BASE_URL: 'https://llm.internal.example/v1', SVC_AI_API_KEY: 'vllm-token' },
      { knowledge: store },
    );

    await agent.reply(demoRequest('Hello'));

    expect(endpoint.requests[0]?.headers.get('authorization')).toBe('Bearer vllm-token');
  });

  it('runs a tool call in Ollama’s format and fills products', async () => {
    const endpoint = mockEndpoint<OpenAIChatRequest>(server, `${OLLAMA}/chat/completions`, [
      () =>
        jsonResponse(
          ollamaChatCompletion({ content: '', tool_calls: [{ id: 'call_7xk2p', name: 'search_products', args: { query: 'rain jacket' } }] }, [900, 25]),
        ),
      () => jsonResponse(ollamaChatCompletion({ content: 'The **Stormshell Rain Jacket** costs $159.00.' }, [1300, 14])),
    ]);

    const reply = await agentFromEnv(ENV, { knowledge: store }).reply(demoRequest('Do you sell rain jackets?'));

    expect(reply.products.map((product) => product.id)).toContain('prod_stormshell_jacket');
    expect(reply.content).toBe('The **Stormshell Rain Jacket** costs $159.00.');
    expect(reply.usage).toEqual({ inputTokens: 2200, outputTokens: 39 });
    const toolMessage = endpoint.requests[1]?.body.messages.at(-1);
    expect(toolMessage).toMatchObject({ role: 'tool', tool_call_id: 'call_7xk2p' });
  });

  it('ends the session with a localized farewell when the model wrote no text', async () => {
    mockEndpoint<OpenAIChatRequest>(server, `${OLLAMA}/chat/completions`, [
      () => jsonResponse(ollamaChatCompletion({ content: '', tool_calls: [{ id: 'call_end', name: 'end_conversation', args: {} }] }, [800, 9])),
    ]);

    const reply = await agentFromEnv(ENV, { knowledge: store }).reply(demoRequest('Tschüss!', { language: 'de' }));

    expect(reply.sessionEnded).toBe(true);
    expect(reply.content).toBe('Danke für das Gespräch. Auf Wiedersehen und einen schönen Tag!');
  });

  it('estimates usage with the tokenizer when the server reports none, rather than billing nothing', async () => {
    const endpoint = mockEndpoint<OpenAIChatRequest>(server, `${OLLAMA}/chat/completions`, [
      () => {
        const { usage: _omitted, ...body } = ollamaChatCompletion({ content: 'Hello there.' }, [0, 0]);
        return jsonResponse(body);
      },
    ]);

    const reply = await agentFromEnv(ENV, { knowledge: store }).reply(demoRequest('Hello'));

    const sent = endpoint.requests[0]?.body.messages.map((message) => message.content ?? '') ?? [];
    expect(reply.usage).toEqual({
      inputTokens: sent.reduce((sum, text) => sum + countTokens(text), 0),
      outputTokens: countTokens('Hello there.'),
    });
    expect(reply.usage.inputTokens).toBeGreaterThan(100);
  });
});
