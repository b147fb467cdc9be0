import type { KnowledgeHits, KnowledgeQuery, Store, StoreOps } from '@svc/core/store-kit';
import { delay, HttpResponse } from 'msw';
import { beforeAll, describe, expect, it } from 'vitest';
import { LlmAgentError } from '../index.js';
import { demoRequest, seedDemoStore } from '../test-support.js';
import { agentFromEnv } from './testing/agent-from-env.js';
import { jsonResponse, mockEndpoint, useMockServer } from './testing/mock-provider.js';
import { chatText, chatToolCalls, openAIError } from './testing/openai-wire.js';
import type { OpenAIChatRequest } from './testing/openai-wire.js';

/**
 * Failures must reject (the engine answers 502 `agent_unavailable`, keeps the visitor's message and bills
 * nothing), never resolve with a made-up reply. Shown on OpenAI's wire format; anthropic-messages.test.ts
 * covers Anthropic's error bodies.
 */
const CHAT_COMPLETIONS = 'https://api.openai.com/v1/chat/completions';
const ENV = { SVC_AI_PROVIDER: 'openai', SVC_AI_MODEL: 'gpt-4o-mini', SVC_AI_API_KEY: 'sk-test-openai' };

const server = useMockServer();
let store: Store;
beforeAll(async () => {
  store = await seedDemoStore();
});

const openai = (options: { maxRetries?: number; knowledge?: Pick<StoreOps, 'searchKnowledge'> } = {}) =>
  agentFromEnv(ENV, { knowledge: store, ...options });

const RATE_LIMITED = openAIError(
  'Rate limit reached for gpt-4o-mini in organization org-VXzmEaxGqfQ2 on requests per min (RPM): Limit 500, Used 500, Requested 1. Please try again in 120ms. Visit https://platform.openai.com/account/rate-limits to learn more.',
  'requests',
  'rate_limit_exceeded',
);
// Retry-After is whole seconds, 0 when the wait is under one. The SDK's own backoff would wait 2 s then 4 s,
// so a fast test also proves the header was honoured.
const RATE_LIMIT_HEADERS = {
  'retry-after': '0',
  'x-ratelimit-limit-requests': '500',
  'x-ratelimit-remaining-requests': '0',
  'x-ratelimit-reset-requests': '120ms',
};

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected the reply to reject');
    },
    (error: unknown) => error,
  );
}

describe('LLM agent: provider failures reject', () => {
  it('retries a 429 after Retry-After and answers when the provider recovers', async () => {
    const endpoint = mockEndpoint<OpenAIChatRequest>(server, CHAT_COMPLETIONS, [
      () => jsonResponse(RATE_LIMITED, { status: 429, headers: RATE_LIMIT_HEADERS }),
      () => jsonResponse(RATE_LIMITED, { status: 429, headers: RATE_LIMIT_HEADERS }),
      () => jsonResponse(chatText('Our store opens at 9am.')),
    ]);
    const started = performance.now();

    const reply = await openai().reply(demoRequest('When do you open?'));

    expect(reply.content).toBe('Our store opens at 9am.');
    expect(endpoint.requests).toHaveLength(3);
    expect(performance.now() - started).toBeLessThan(1500);
  });

  it('rejects as rate_limited once the retries are spent', async () => {
    const endpoint = mockEndpoint<OpenAIChatRequest>(server, CHAT_COMPLETIONS, [
      () => jsonResponse(RATE_LIMITED, { status: 429, headers: RATE_LIMIT_HEADERS }),
    ]);

    const error = await rejection(openai().reply(demoRequest('When do you open?')));

    expect(endpoint.requests).toHaveLength(3);
    expect(error).toBeInstanceOf(LlmAgentError);
    expect(error).toMatchObject({ name: 'LlmAgentError', reason: 'rate_limited', statusCode: 429 });
    expect((error as Error).message).toBe(
      `openai.chat:gpt-4o-mini: 3 attempts failed; last: HTTP 429 from ${CHAT_COMPLETIONS}: ${RATE_LIMITED.error.message}`,
    );
  });

  it('rejects a 500 with the provider message, after the configured retries', async () => {
    const endpoint = mockEndpoint<OpenAIChatRequest>(server, CHAT_COMPLETIONS, [
      () =>
        jsonResponse(openAIError('The server had an error while processing your request. Sorry about that!', 'server_error', null), {
          status: 500,
        }),
    ]);

    const error = await rejection(openai({ maxRetries: 0 }).reply(demoRequest('When do you open?')));

    expect(endpoint.requests).toHaveLength(1);
    expect(error).toMatchObject({ reason: 'provider_error', statusCode: 500 });
    expect((error as Error).message).toContain('HTTP 500 from https://api.openai.com/v1/chat/completions: The server had an error');
  });

  it('does not retry a 401, and says so', async () => {
    const endpoint = mockEndpoint<OpenAIChatRequest>(server, CHAT_COMPLETIONS, [
      () =>
        jsonResponse(
          openAIError('Incorrect API key provided: sk-test-*****enai. You can find your API key at https://platform.openai.com/account/api-keys.', 'invalid_request_error', 'invalid_api_key'),
          { status: 401 },
        ),
    ]);

    const error = await rejection(openai().reply(demoRequest('Hello')));

    expect(endpoint.requests).toHaveLength(1);
    expect(error).toMatchObject({ reason: 'provider_error', statusCode: 401 });
    expect((error as Error).message).toContain('Incorrect API key provided');
  });

  it('rejects when the provider cannot be reached', async () => {
    mockEndpoint<OpenAIChatRequest>(server, CHAT_COMPLETIONS, [() => HttpResponse.error()]);

    const error = await rejection(openai({ maxRetries: 0 }).reply(demoRequest('Hello')));

    expect(error).toMatchObject({ name: 'LlmAgentError', reason: 'provider_error', statusCode: undefined });
    expect((error as Error).message).toMatch(/^openai\.chat:gpt-4o-mini: no HTTP answer from https:\/\/api\.openai\.com\/v1\/chat\/completions: /);
  });

  it('rejects a 200 whose body is not JSON, without retrying', async () => {
    const endpoint = mockEndpoint<OpenAIChatRequest>(server, CHAT_COMPLETIONS, [
      () => new Response('{"id":"chatcmpl-CZf3k","object":"chat.completion","choices":[{"index":0,"mess', { headers: { 'content-type': 'application/json' } }),
    ]);

    const error = await rejection(openai().reply(demoRequest('Hello')));

    expect(endpoint.requests).toHaveLength(1);
    expect(error).toMatchObject({ reason: 'malformed_response', statusCode: 200 });
    expect((error as Error).message).toContain('Invalid JSON response');
  });

  it('rejects a 200 whose JSON is not a chat completion', async () => {
    mockEndpoint<OpenAIChatRequest>(server, CHAT_COMPLETIONS, [() => jsonResponse({ object: 'chat.completion', choices: 'none' })]);

    const error = await rejection(openai().reply(demoRequest('Hello')));

    expect(error).toMatchObject({ reason: 'malformed_response' });
  });

  it('rejects an answer with no text and nothing to stand in for it', async () => {
    mockEndpoint<OpenAIChatRequest>(server, CHAT_COMPLETIONS, [() => jsonResponse(chatText(''))]);

    const error = await rejection(openai().reply(demoRequest('Hello')));

    expect(error).toMatchObject({ reason: 'empty_answer' });
    expect((error as Error).message).toBe('openai.chat:gpt-4o-mini: the model returned no text after 1 step(s)');
  });

  it('rejects with the signal reason when the turn times out waiting for the provider', async () => {
    const endpoint = mockEndpoint<OpenAIChatRequest>(server, CHAT_COMPLETIONS, [
      async () => {
        await delay('infinite');
        return jsonResponse(chatText('too late'));
      },
    ]);
    const started = performance.now();

    const error = await rejection(openai().reply(demoRequest('Hello', { signal: AbortSignal.timeout(50) })));

    expect(endpoint.requests).toHaveLength(1);
    expect(error).toMatchObject({ name: 'TimeoutError' });
    expect(performance.now() - started).toBeLessThan(1500);
  });

  it('rejects with the caller’s reason when aborted during a tool call', async () => {
    const controller = new AbortController();
    const stalled: Pick<StoreOps, 'searchKnowledge'> = {
      searchKnowledge: (_query: KnowledgeQuery) => {
        controller.abort(new Error('visitor left'));
        return new Promise<KnowledgeHits>(() => undefined);
      },
    };
    const endpoint = mockEndpoint<OpenAIChatRequest>(server, CHAT_COMPLETIONS, [
      () => jsonResponse(chatToolCalls([{ id: 'call_1', name: 'search_products', args: { query: 'tent' } }])),
      () => jsonResponse(chatText('never sent')),
    ]);

    const error = await rejection(openai({ knowledge: stalled }).reply(demoRequest('Tents?', { signal: controller.signal })));

    expect(error).toEqual(new Error('visitor left'));
    expect(endpoint.requests).toHaveLength(1);
  });

  it('rejects at once, without calling the provider, when the signal is already aborted', async () => {
    const endpoint = mockEndpoint<OpenAIChatRequest>(server, CHAT_COMPLETIONS, [() => jsonResponse(chatText('unused'))]);
    const controller = new AbortController();
    controller.abort(new Error('gave up'));

    const error = await rejection(openai().reply(demoRequest('Hello', { signal: controller.signal })));

    expect(error).toEqual(new Error('gave up'));
    expect(endpoint.requests).toHaveLength(0);
  });
});
