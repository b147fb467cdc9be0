import type { AgentReply, AgentRequest, Store } from '@svc/core/store-kit';
import { beforeAll, describe, expect, it } from 'vitest';
import { LlmAgentError } from '../index.js';
import { demoRequest, seedDemoStore } from '../test-support.js';
import { agentFromEnv } from './testing/agent-from-env.js';
import {
  ANTHROPIC_PING,
  anthropicStart,
  anthropicStop,
  anthropicStreamError,
  anthropicTextBlock,
  anthropicToolUseBlock,
} from './testing/anthropic-stream-wire.js';
import type { AnthropicRequest } from './testing/anthropic-wire.js';
import { jsonResponse, mockEndpoint, useMockServer } from './testing/mock-provider.js';
import { openAIDelta, openAIStart, openAIStreamError, openAITextStream, openAIToolCallStream } from './testing/openai-stream-wire.js';
import { openAIError } from './testing/openai-wire.js';
import type { OpenAIChatRequest } from './testing/openai-wire.js';
import { gate, sseResponse } from './testing/sse-response.js';

/**
 * The LLM agent streams when the caller passes `onDelta`: `streamText` on each provider's real streaming wire
 * format, the same tools, steps, products, forms and usage as a non-streaming turn, and a reply whose content
 * is exactly the concatenation of the deltas.
 */
const CHAT_COMPLETIONS = 'https://api.openai.com/v1/chat/completions';
const MESSAGES = 'https://api.anthropic.com/v1/messages';
const OLLAMA = 'http://localhost:11434/v1';
const OPENAI_ENV = { SVC_AI_PROVIDER: 'openai', SVC_AI_MODEL: 'gpt-4o-mini', SVC_AI_API_KEY: 'sk-test-openai' };
const ANTHROPIC_ENV = { SVC_AI_PROVIDER: 'anthropic', SVC_AI_MODEL: 'claude-sonnet-4-5', ANTHROPIC_API_KEY: 'sk-ant-test' };
const OLLAMA_ENV = { SVC_AI_PROVIDER: 'openai-compatible', SVC_AI_BASE_URL: OLLAMA, SVC_AI_MODEL: 'llama3.1' };

const server = useMockServer();
let store: Store;
beforeAll(async () => {
  store = await seedDemoStore();
});

interface Streamed {
  reply: AgentReply;
  deltas: string[];
}

/** Runs one streaming turn, collecting the deltas; `onFirst` runs when the first one arrives. */
async function streamReply(env: Record<string, string>, request: AgentRequest, onFirst: () => void = () => undefined, maxRetries?: number): Promise<Streamed> {
  const deltas: string[] = [];
  const agent = agentFromEnv(env, { knowledge: store, ...(maxRetries === undefined ? {} : { maxRetries }) });
  const reply = await agent.reply({
    ...request,
    onDelta: (text: string) => {
      deltas.push(text);
      if (deltas.length === 1) onFirst();
    },
  });
  return { reply, deltas };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected the reply to reject');
    },
    (error: unknown) => error,
  );
}

describe('LLM agent streaming on OpenAI Chat Completions', () => {
  it('forwards each delta before the provider has sent the rest, and the content is their concatenation', async () => {
    const firstForwarded = gate();
    const endpoint = mockEndpoint<OpenAIChatRequest>(server, CHAT_COMPLETIONS, [
      () =>
        sseResponse([
          openAIStart(),
          openAIDelta('We ship to '),
          // The provider sends nothing more until the agent has passed the first piece on: a buffering agent hangs here.
          firstForwarded.opened,
          ...openAITextStream(['**Canada**', ' in 5-8 business days.', '\n'], [812, 54]).slice(1),
        ]),
    ]);

    const { reply, deltas } = await streamReply(OPENAI_ENV, demoRequest('Do you ship to Canada?'), firstForwarded.open);

    expect(deltas[0]).toBe('We ship to');
    expect(deltas.join('')).toBe(reply.content);
    expect(reply).toEqual({
      content: 'We ship to **Canada** in 5-8 business days.',
      products: [],
      actions: [],
      forms: [],
      sessionEnded: false,
      sources: [],
      confidence: null,
      usage: { inputTokens: 812, outputTokens: 54 },
      meters: { retrievals: 0, embeddings: 0, reranks: 0, pluginCalls: 0, pluginReranks: 0, crawledPages: 0, orchestrationSteps: 0 },
    });
    const body = endpoint.requests[0]?.body as OpenAIChatRequest & { stream_options?: unknown };
    expect(body.stream).toBe(true);
    expect(body.stream_options).toEqual({ include_usage: true });
    expect(body.tools?.map((tool) => tool.function.name)).toEqual(['search_knowledge', 'search_products', 'show_form', 'end_conversation', 'request_handoff']);
  });

  it('runs a streamed tool call, then streams the answer with the products it found and usage summed over steps', async () => {
    const endpoint = mockEndpoint<OpenAIChatRequest>(server, CHAT_COMPLETIONS, [
      () => sseResponse(openAIToolCallStream([{ id: 'call_Qm3T1', name: 'search_products', args: { query: 'tent' } }], [1210, 18])),
      () => sseResponse(openAITextStream(['We have ', 'two tents.'], [1650, 41])),
    ]);

    const { reply, deltas } = await streamReply(OPENAI_ENV, demoRequest('What tents do you have?'));

    expect(endpoint.requests).toHaveLength(2);
    expect(endpoint.requests[1]?.body.messages[2]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_Qm3T1', type: 'function', function: { name: 'search_products', arguments: '{"query":"tent"}' } }],
    });
    expect(deltas).toEqual(['We have', ' two tents.']);
    expect(reply.content).toBe('We have two tents.');
    expect(reply.products.map((product) => product.id).sort()).toEqual(['prod_basecamp_4_tent', 'prod_trailhead_2_tent']);
    expect(reply.usage).toEqual({ inputTokens: 1210 + 1650, outputTokens: 18 + 41 });
    expect(reply.meters).toMatchObject({ retrievals: 1, orchestrationSteps: 1 });
  });

  it('surfaces a form from a streamed show_form call and streams the localized lead-in it stands in with', async () => {
    const endpoint = mockEndpoint<OpenAIChatRequest>(server, CHAT_COMPLETIONS, [
      () => sseResponse(openAIToolCallStream([{ id: 'call_f', name: 'show_form', args: { formId: 'contact_sales' } }], [700, 12])),
    ]);

    const { reply, deltas } = await streamReply(OPENAI_ENV, demoRequest('Je voudrais parler à un commercial', { language: 'fr' }));

    expect(endpoint.requests).toHaveLength(1);
    expect(reply.forms.map((form) => form.formId)).toEqual(['contact_sales']);
    expect(reply.content).toBe('Bien sûr ! Remplissez le formulaire ci-dessous (**Talk to sales**) et nous reviendrons vers vous.');
    expect(deltas).toEqual([reply.content]);
    expect(reply.usage).toEqual({ inputTokens: 700, outputTokens: 12 });
  });

  it('retries a 429 answered before the stream opened, then streams', async () => {
    const endpoint = mockEndpoint<OpenAIChatRequest>(server, CHAT_COMPLETIONS, [
      () =>
        jsonResponse(openAIError('Rate limit reached for gpt-4o-mini on requests per min (RPM).', 'requests', 'rate_limit_exceeded'), {
          status: 429,
          headers: { 'retry-after': '0' },
        }),
      () => sseResponse(openAITextStream(['Our store opens ', 'at 9am.'])),
    ]);

    const { reply, deltas } = await streamReply(OPENAI_ENV, demoRequest('When do you open?'));

    expect(endpoint.requests).toHaveLength(2);
    expect(deltas.join('')).toBe('Our store opens at 9am.');
    expect(reply.content).toBe('Our store opens at 9am.');
  });

  it('rejects as rate_limited when every attempt is a 429, having forwarded nothing', async () => {
    mockEndpoint<OpenAIChatRequest>(server, CHAT_COMPLETIONS, [
      () => jsonResponse(openAIError('Rate limit reached.', 'requests', 'rate_limit_exceeded'), { status: 429, headers: { 'retry-after': '0' } }),
    ]);
    const deltas: string[] = [];

    const error = await rejection(
      agentFromEnv(OPENAI_ENV, { knowledge: store, maxRetries: 1 }).reply({ ...demoRequest('Hi'), onDelta: (text: string) => deltas.push(text) }),
    );

    expect(error).toBeInstanceOf(LlmAgentError);
    expect(error).toMatchObject({ reason: 'rate_limited', statusCode: 429 });
    expect(deltas).toEqual([]);
  });

  it('rejects with the provider message when OpenAI writes an error into the open stream', async () => {
    mockEndpoint<OpenAIChatRequest>(server, CHAT_COMPLETIONS, [
      () => sseResponse([openAIStart(), openAIDelta('Our return window '), openAIStreamError('The server had an error while processing your request.', 'server_error')]),
    ]);
    const deltas: string[] = [];

    const error = await rejection(
      agentFromEnv(OPENAI_ENV, { knowledge: store }).reply({ ...demoRequest('Returns?'), onDelta: (text: string) => deltas.push(text) }),
    );

    expect(deltas).toEqual(['Our return window']);
    expect(error).toBeInstanceOf(LlmAgentError);
    expect(error).toMatchObject({ reason: 'provider_error' });
    expect((error as Error).message).toBe('openai.chat:gpt-4o-mini: the stream failed: The server had an error while processing your request. (server_error)');
  });

  it('rejects when the connection breaks off mid-stream', async () => {
    mockEndpoint<OpenAIChatRequest>(server, CHAT_COMPLETIONS, [
      () => sseResponse([openAIStart(), openAIDelta('Our return window '), new TypeError('terminated')]),
    ]);

    const error = await rejection(
      agentFromEnv(OPENAI_ENV, { knowledge: store }).reply({ ...demoRequest('Returns?'), onDelta: () => undefined }),
    );

    expect(error).toBeInstanceOf(LlmAgentError);
    expect((error as Error).message).toMatch(/^openai\.chat:gpt-4o-mini: /);
  });

  it('rejects with the caller’s reason when aborted mid-stream', async () => {
    const controller = new AbortController();
    mockEndpoint<OpenAIChatRequest>(server, CHAT_COMPLETIONS, [
      () => sseResponse([openAIStart(), openAIDelta('Our return '), new Promise(() => undefined)]),
    ]);

    const error = await rejection(
      agentFromEnv(OPENAI_ENV, { knowledge: store }).reply({
        ...demoRequest('Returns?', { signal: controller.signal }),
        onDelta: () => controller.abort(new Error('visitor left')),
      }),
    );

    expect(error).toEqual(new Error('visitor left'));
  });
});

describe('LLM agent streaming on the Anthropic Messages API', () => {
  it('streams the text of both steps around a tool_use, joined by a blank line, with usage summed', async () => {
    const endpoint = mockEndpoint<AnthropicRequest>(server, MESSAGES, [
      () =>
        sseResponse([
          anthropicStart(1520),
          ANTHROPIC_PING,
          ...anthropicTextBlock(0, ['Let me check ', 'our shipping policy.']),
          ...anthropicToolUseBlock(1, { id: 'toolu_01A09q90qw90lq917835lq9', name: 'search_knowledge', input: { query: 'shipping Canada' } }),
          ...anthropicStop('tool_use', 67),
        ]),
      () =>
        sseResponse([
          anthropicStart(2210),
          ...anthropicTextBlock(0, ['Yes! Standard shipping ', 'to Canada takes 5-8 business days.']),
          ...anthropicStop('end_turn', 31),
        ]),
    ]);

    const { reply, deltas } = await streamReply(ANTHROPIC_ENV, demoRequest('Do you ship to Canada?'));

    expect((endpoint.requests[0]?.body as AnthropicRequest & { stream?: boolean }).stream).toBe(true);
    const second = endpoint.requests[1]?.body;
    expect(second?.messages[1]?.content.map((block) => block.type)).toEqual(['text', 'tool_use']);
    expect(second?.messages[2]?.content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_01A09q90qw90lq917835lq9' });
    expect(deltas).toEqual(['Let me check', ' our shipping policy.', '\n\nYes! Standard shipping', ' to Canada takes 5-8 business days.']);
    expect(reply.content).toBe('Let me check our shipping policy.\n\nYes! Standard shipping to Canada takes 5-8 business days.');
    expect(deltas.join('')).toBe(reply.content);
    expect(reply.usage).toEqual({ inputTokens: 1520 + 2210, outputTokens: 67 + 31 });
    expect(reply.meters).toMatchObject({ retrievals: 1, orchestrationSteps: 1 });
  });

  it('ends the session from a streamed end_conversation, keeping the goodbye streamed beside it', async () => {
    mockEndpoint<AnthropicRequest>(server, MESSAGES, [
      () =>
        sseResponse([
          anthropicStart(900),
          ...anthropicTextBlock(0, ['Thanks for visiting, ', 'goodbye!']),
          ...anthropicToolUseBlock(1, { id: 'toolu_end', name: 'end_conversation', input: { reason: 'visitor said goodbye' } }),
          ...anthropicStop('tool_use', 20),
        ]),
    ]);

    const { reply, deltas } = await streamReply(ANTHROPIC_ENV, demoRequest("That's all, thanks. Bye!"));

    expect(reply.sessionEnded).toBe(true);
    expect(reply.content).toBe('Thanks for visiting, goodbye!');
    expect(deltas.join('')).toBe(reply.content);
  });

  it('rejects when Anthropic sends an overloaded_error event mid-stream', async () => {
    mockEndpoint<AnthropicRequest>(server, MESSAGES, [
      () =>
        sseResponse([
          anthropicStart(1000),
          ...anthropicTextBlock(0, ['Our tents ']).slice(0, 2),
          anthropicStreamError('overloaded_error', 'Overloaded'),
        ]),
    ]);
    const deltas: string[] = [];

    const error = await rejection(
      agentFromEnv(ANTHROPIC_ENV, { knowledge: store }).reply({ ...demoRequest('Tents?'), onDelta: (text: string) => deltas.push(text) }),
    );

    expect(deltas).toEqual(['Our tents']);
    expect(error).toMatchObject({ name: 'LlmAgentError', reason: 'provider_error' });
    expect((error as Error).message).toBe('anthropic.messages:claude-sonnet-4-5: the stream failed: Overloaded (overloaded_error)');
  });

  it('retries a 429 answered before the stream opened', async () => {
    const endpoint = mockEndpoint<AnthropicRequest>(server, MESSAGES, [
      () =>
        jsonResponse(
          { type: 'error', error: { type: 'rate_limit_error', message: 'Number of request tokens has exceeded your per-minute rate limit' } },
          { status: 429, headers: { 'retry-after': '0' } },
        ),
      () => sseResponse([anthropicStart(300), ...anthropicTextBlock(0, ['Hello', '!']), ...anthropicStop('end_turn', 3)]),
    ]);

    const { reply, deltas } = await streamReply(ANTHROPIC_ENV, demoRequest('Hi'));

    expect(endpoint.requests).toHaveLength(2);
    expect(deltas).toEqual(['Hello', '!']);
    expect(reply.usage).toEqual({ inputTokens: 300, outputTokens: 3 });
  });
});

describe('LLM agent streaming on an OpenAI-compatible server (Ollama)', () => {
  it('streams Ollama’s chunks and estimates usage with the tokenizer when none is reported', async () => {
    const chunk = (delta: Record<string, unknown>, finish: string | null) =>
      `data: ${JSON.stringify({ id: 'chatcmpl-412', object: 'chat.completion.chunk', created: 1_767_225_600, model: 'llama3.1', system_fingerprint: 'fp_ollama', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    const endpoint = mockEndpoint<OpenAIChatRequest>(server, `${OLLAMA}/chat/completions`, [
      () =>
        sseResponse([
          chunk({ role: 'assistant', content: 'Hi!' }, null),
          chunk({ role: 'assistant', content: ' How can I help?' }, null),
          chunk({ role: 'assistant', content: '' }, 'stop'),
          'data: [DONE]\n\n',
        ]),
    ]);

    const { reply, deltas } = await streamReply(OLLAMA_ENV, demoRequest('Hello'));

    expect(endpoint.requests[0]?.body.stream).toBe(true);
    expect(deltas).toEqual(['Hi!', ' How can I help?']);
    expect(reply.content).toBe('Hi! How can I help?');
    expect(reply.usage.outputTokens).toBeGreaterThan(0);
    expect(reply.usage.inputTokens).toBeGreaterThan(0);
  });
});
