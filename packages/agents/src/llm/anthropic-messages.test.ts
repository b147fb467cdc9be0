import type { Store } from '@svc/core/store-kit';
import { beforeAll, describe, expect, it } from 'vitest';
import { demoRequest, seedDemoStore } from '../test-support.js';
import { agentFromEnv } from './testing/agent-from-env.js';
import { anthropicError, anthropicMessage } from './testing/anthropic-wire.js';
import type { AnthropicRequest } from './testing/anthropic-wire.js';
import { jsonResponse, mockEndpoint, useMockServer } from './testing/mock-provider.js';

const MESSAGES = 'https://api.anthropic.com/v1/messages';
const ENV = { SVC_AI_PROVIDER: 'anthropic', SVC_AI_MODEL: 'claude-sonnet-4-5', ANTHROPIC_API_KEY: 'sk-ant-test' };

const server = useMockServer();
let store: Store;
beforeAll(async () => {
  store = await seedDemoStore();
});

const anthropic = (options: { maxRetries?: number } = {}) => agentFromEnv(ENV, { knowledge: store, ...options });

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected the reply to reject');
    },
    (error: unknown) => error,
  );
}

describe('LLM agent on the Anthropic Messages API', () => {
  it('answers a plain question, with the system prompt as a system block and the key in x-api-key', async () => {
    const endpoint = mockEndpoint<AnthropicRequest>(server, MESSAGES, [
      () => jsonResponse(anthropicMessage([{ type: 'text', text: 'Hallo! Wie kann ich helfen?' }], 'end_turn', [1432, 12])),
    ]);

    const reply = await anthropic().reply(demoRequest('Hallo', { language: 'de-AT', timezone: 'Europe/Vienna' }));

    expect(reply.content).toBe('Hallo! Wie kann ich helfen?');
    expect(reply.usage).toEqual({ inputTokens: 1432, outputTokens: 12 });
    expect(reply.meters.orchestrationSteps).toBe(0);
    const request = endpoint.requests[0];
    expect(request?.headers.get('x-api-key')).toBe('sk-ant-test');
    expect(request?.headers.get('anthropic-version')).toBe('2023-06-01');
    expect(request?.headers.get('authorization')).toBeNull();
    const body = request?.body;
    expect(body?.model).toBe('claude-sonnet-4-5');
    expect(body?.max_tokens).toBeGreaterThan(0);
    expect(body?.system).toHaveLength(1);
    const system = body?.system?.[0]?.text ?? '';
    expect(system).toContain('Answer in Austrian German (de-AT).');
    expect(system).toContain('It is Thursday, January 1, 2026 at 01:00 GMT+01:00 (Europe/Vienna)');
    expect(body?.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'Hallo' }] }]);
    expect(body?.tools?.map((tool) => tool.name)).toEqual(['search_knowledge', 'search_products', 'show_form', 'end_conversation', 'request_handoff']);
    expect(body?.tools?.[0]?.input_schema.required).toEqual(['query']);
  });

  it('runs a tool_use turn: the step-2 request carries the tool_result, the reply the final text', async () => {
    const endpoint = mockEndpoint<AnthropicRequest>(server, MESSAGES, [
      () =>
        jsonResponse(
          anthropicMessage(
            [
              { type: 'text', text: 'Let me check our shipping policy.' },
              { type: 'tool_use', id: 'toolu_01A09q90qw90lq917835lq9', name: 'search_knowledge', input: { query: 'shipping Canada' } },
            ],
            'tool_use',
            [1520, 67],
          ),
        ),
      () => jsonResponse(anthropicMessage([{ type: 'text', text: 'Yes! Standard shipping to Canada takes 5-8 business days.' }], 'end_turn', [2210, 31])),
    ]);
    const identity = { sub: 'cus_42', email: 'lin@example.com' };

    const reply = await anthropic().reply(demoRequest('Do you ship to Canada?', { identity }));

    expect(reply.content).toBe('Yes! Standard shipping to Canada takes 5-8 business days.');
    expect(reply.usage).toEqual({ inputTokens: 1520 + 2210, outputTokens: 67 + 31 });
    expect(reply.meters).toMatchObject({ retrievals: 1, orchestrationSteps: 1 });
    expect(reply.products).toEqual([]);

    const [first, second] = endpoint.requests.map((captured) => captured.body);
    expect(first?.system?.[0]?.text).toContain('- Subject (user id): "cus_42"');
    expect(first?.system?.[0]?.text).toContain('- Email: "lin@example.com" (not confirmed by the site)');
    expect(second?.messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'text', text: 'Let me check our shipping policy.' },
        { type: 'tool_use', id: 'toolu_01A09q90qw90lq917835lq9', name: 'search_knowledge', input: { query: 'shipping Canada' } },
      ],
    });
    const toolTurn = second?.messages[2];
    expect(toolTurn?.role).toBe('user');
    const result = toolTurn?.content[0];
    expect(result).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_01A09q90qw90lq917835lq9' });
    const text = result?.type === 'tool_result' && typeof result.content === 'string' ? result.content : '';
    const passages = (JSON.parse(text) as { passages: Array<{ title: string; url: string }> }).passages;
    expect(passages[0]).toMatchObject({ title: 'Shipping and delivery', url: 'https://northwind-outfitters.example/help/shipping' });
  });

  it('surfaces a form from tool_use and keeps the text Claude wrote before it', async () => {
    const endpoint = mockEndpoint<AnthropicRequest>(server, MESSAGES, [
      () =>
        jsonResponse(
          anthropicMessage(
            [
              { type: 'text', text: 'Happy to connect you with our sales team.' },
              { type: 'tool_use', id: 'toolu_01Form', name: 'show_form', input: { formId: 'contact_sales' } },
            ],
            'tool_use',
            [1400, 40],
          ),
        ),
    ]);

    const reply = await anthropic().reply(demoRequest('Can I talk to sales?'));

    expect(endpoint.requests).toHaveLength(1);
    expect(reply.content).toBe('Happy to connect you with our sales team.');
    expect(reply.forms.map((form) => form.formId)).toEqual(['contact_sales']);
    expect(reply.sessionEnded).toBe(false);
  });

  it('prefers the form when the model both shows a form and ends the conversation', async () => {
    mockEndpoint<AnthropicRequest>(server, MESSAGES, [
      () =>
        jsonResponse(
          anthropicMessage(
            [
              { type: 'tool_use', id: 'toolu_01F', name: 'show_form', input: { formId: 'contact_sales' } },
              { type: 'tool_use', id: 'toolu_01E', name: 'end_conversation', input: {} },
            ],
            'tool_use',
            [1400, 40],
          ),
        ),
    ]);

    const reply = await anthropic().reply(demoRequest('Have sales call me back, bye'));

    // The pending form must stay answerable, which needs an active session.
    expect(reply.forms).toHaveLength(1);
    expect(reply.sessionEnded).toBe(false);
    expect(reply.content).toBe("Sure! Please fill in the form below (**Talk to sales**) and we'll get back to you.");
  });

  it('hands off to a person with request_handoff, in the local wording when Claude only called the tool, and never ends the session then', async () => {
    const endpoint = mockEndpoint<AnthropicRequest>(server, MESSAGES, [
      () =>
        jsonResponse(
          anthropicMessage(
            [
              { type: 'tool_use', id: 'toolu_01H', name: 'request_handoff', input: { reason: 'wants a human' } },
              { type: 'tool_use', id: 'toolu_01E2', name: 'end_conversation', input: {} },
            ],
            'tool_use',
            [1250, 22],
          ),
        ),
    ]);

    const reply = await anthropic().reply(demoRequest('Je veux parler à un conseiller', { language: 'fr' }));

    expect(endpoint.requests).toHaveLength(1);
    expect(reply.handoff).toBe(true);
    expect(reply.sessionEnded).toBe(false);
    expect(reply.content).toBe("Bien sûr : je vous passe à une personne. Quelqu'un de notre équipe va vous répondre ici sous peu.");
    expect(reply.usage).toEqual({ inputTokens: 1250, outputTokens: 22 });
  });

  it('ends the session, with the local farewell when Claude only called the tool', async () => {
    mockEndpoint<AnthropicRequest>(server, MESSAGES, [
      () =>
        jsonResponse(
          anthropicMessage([{ type: 'tool_use', id: 'toolu_01End', name: 'end_conversation', input: { reason: 'goodbye' } }], 'tool_use', [1300, 20]),
        ),
    ]);

    const reply = await anthropic().reply(demoRequest('Adiós, gracias', { language: 'es' }));

    expect(reply.sessionEnded).toBe(true);
    expect(reply.content).toBe('Gracias por hablar con nosotros. ¡Adiós y que tengas un buen día!');
  });

  it('retries an overloaded 529 and answers', async () => {
    const endpoint = mockEndpoint<AnthropicRequest>(server, MESSAGES, [
      () => jsonResponse(anthropicError('overloaded_error', 'Overloaded'), { status: 529, headers: { 'retry-after': '0', 'x-should-retry': 'true' } }),
      () => jsonResponse(anthropicMessage([{ type: 'text', text: 'Back online.' }], 'end_turn', [1000, 5])),
    ]);

    const reply = await anthropic().reply(demoRequest('Hello'));

    expect(endpoint.requests).toHaveLength(2);
    expect(reply.content).toBe('Back online.');
  });

  it('rejects as rate_limited after the configured retries', async () => {
    const message = 'This request would exceed the rate limit for your organization (6bb10fdf-a3e9-4e25-a8b4-a0ab3e6d2a1c) of 50 input tokens per minute.';
    const endpoint = mockEndpoint<AnthropicRequest>(server, MESSAGES, [
      () =>
        jsonResponse(anthropicError('rate_limit_error', message), {
          status: 429,
          headers: { 'retry-after': '0', 'anthropic-ratelimit-input-tokens-remaining': '0' },
        }),
    ]);

    const error = await rejection(anthropic({ maxRetries: 1 }).reply(demoRequest('Hello')));

    expect(endpoint.requests).toHaveLength(2);
    expect(error).toMatchObject({ name: 'LlmAgentError', reason: 'rate_limited', statusCode: 429 });
    expect((error as Error).message).toBe(`anthropic.messages:claude-sonnet-4-5: 2 attempts failed; last: HTTP 429 from ${MESSAGES}: ${message}`);
  });

  it('rejects a message whose content blocks are not the documented shape', async () => {
    mockEndpoint<AnthropicRequest>(server, MESSAGES, [
      () => jsonResponse({ ...anthropicMessage([], 'end_turn', [10, 1]), content: [{ type: 'text' }] }),
    ]);

    const error = await rejection(anthropic().reply(demoRequest('Hello')));

    expect(error).toMatchObject({ reason: 'malformed_response', statusCode: 200 });
  });
});
