import { DEFAULT_CONFIDENCE_THRESHOLD, type Store, type StoredMessage } from '@svc/core/store-kit';
import { beforeAll, describe, expect, it } from 'vitest';
import { demoRequest, seedDemoStore } from '../test-support.js';
import { agentFromEnv } from './testing/agent-from-env.js';
import { jsonResponse, mockEndpoint, useMockServer } from './testing/mock-provider.js';
import { chatText, chatToolCalls } from './testing/openai-wire.js';
import type { OpenAIChatRequest } from './testing/openai-wire.js';

/** `SVC_AI_PROVIDER=openai` talks Chat Completions (see provider-from-env.ts for why not the Responses API). */
const CHAT_COMPLETIONS = 'https://api.openai.com/v1/chat/completions';
const ENV = { SVC_AI_PROVIDER: 'openai', SVC_AI_MODEL: 'gpt-4o-mini', SVC_AI_API_KEY: 'sk-test-openai' };

const server = useMockServer();
let store: Store;
beforeAll(async () => {
  store = await seedDemoStore();
});

const openai = (options: { maxSteps?: number; temperature?: number; maxOutputTokens?: number } = {}) =>
  agentFromEnv(ENV, { knowledge: store, ...options });

function historyItem(seq: number, role: StoredMessage['role'], content: string): StoredMessage {
  return {
    id: `msg_${seq}`,
    widgetId: 'wgt_demo',
    sessionId: 'sess_demo',
    seq,
    role,
    content,
    products: [],
    actions: [],
    forms: [],
    sessionEnded: false,
    credits: null,
    usage: null,
    createdAt: new Date('2026-01-01T00:00:00.000Z'),
  };
}

describe('LLM agent on OpenAI Chat Completions', () => {
  it('answers a plain question with the model text and the usage OpenAI reports', async () => {
    const endpoint = mockEndpoint<OpenAIChatRequest>(server, CHAT_COMPLETIONS, [
      () => jsonResponse(chatText('We ship to **Canada** in 5-8 business days.', [812, 54])),
    ]);
    const history = [historyItem(1, 'user', 'Hi there'), historyItem(2, 'assistant', 'Hello! How can I help?')];

    const reply = await openai().reply(demoRequest('Do you ship to Canada?', { history }));

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
    expect(endpoint.requests).toHaveLength(1);
    const [request] = endpoint.requests;
    expect(request?.headers.get('authorization')).toBe('Bearer sk-test-openai');
    const body = request?.body;
    expect(body?.model).toBe('gpt-4o-mini');
    expect(body?.stream).toBeUndefined();
    expect(body?.messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(body?.messages.slice(1).map((message) => message.content)).toEqual(['Hi there', 'Hello! How can I help?', 'Do you ship to Canada?']);
    const system = body?.messages[0]?.content ?? '';
    expect(system).toContain('You are "Northwind Outfitters"');
    expect(system).toContain('You are the helpful assistant of Northwind Outfitters, an outdoor gear shop.');
    expect(system).toContain('Answer in English (en).');
    expect(system).toContain('It is Wednesday, December 31, 2025 at 16:00 GMT-08:00 (America/Los_Angeles)');
    expect(system).toContain('None: the visitor is anonymous.');
    // The visitorId is a label, never an identity (spec 5.3): it must not reach the model.
    expect(system).not.toContain('visitor-1');
    expect(body?.tools?.map((tool) => tool.function.name)).toEqual(['search_knowledge', 'search_products', 'show_form', 'end_conversation', 'request_handoff']);
    expect(body?.tool_choice).toBe('auto');
  });

  it('runs search_products, sends the tool result back, and returns the products it found', async () => {
    const endpoint = mockEndpoint<OpenAIChatRequest>(server, CHAT_COMPLETIONS, [
      () => jsonResponse(chatToolCalls([{ id: 'call_Qm3T1', name: 'search_products', args: { query: 'tent' } }], [1210, 18])),
      () => jsonResponse(chatText('Nous avons deux tentes : la Trailhead 2 (249,00 $) et la Basecamp 4 (429,00 $).', [1650, 41])),
    ]);
    const request = demoRequest('Quelles tentes avez-vous ?', {
      language: 'fr',
      timezone: 'Europe/Paris',
      now: new Date('2026-03-14T09:30:00.000Z'),
      visitorContext: { name: 'Ada', company: 'Lovelace Ltd' },
      identity: { sub: 'user_8842', email: 'ada@lovelace.example', email_verified: true },
    });

    const reply = await openai().reply(request);

    const expected = (await store.searchKnowledge({ knowledgeBaseIds: ['kb_demo'], text: 'tent', language: 'fr', limit: 5 })).products;
    expect(expected.length).toBeGreaterThan(0);
    expect(reply.products).toEqual(expected.map((hit) => hit.product));
    expect(reply.products.map((product) => product.id).sort()).toEqual(['prod_basecamp_4_tent', 'prod_trailhead_2_tent']);
    expect(reply.content).toBe('Nous avons deux tentes : la Trailhead 2 (249,00 $) et la Basecamp 4 (429,00 $).');
    expect(reply.usage).toEqual({ inputTokens: 1210 + 1650, outputTokens: 18 + 41 });
    expect(reply.meters.retrievals).toBe(1);
    expect(reply.meters.orchestrationSteps).toBe(1);

    expect(endpoint.requests).toHaveLength(2);
    const [first, second] = endpoint.requests.map((captured) => captured.body);
    const system = first?.messages[0]?.content ?? '';
    expect(first?.messages[0]?.role).toBe('system');
    expect(system).toContain('Answer in French (fr).');
    expect(system).toContain('It is Saturday, March 14, 2026 at 10:30 GMT+01:00 (Europe/Paris)');
    expect(system).toContain('## About the visitor (UNVERIFIED)');
    expect(system).toContain('- Name: "Ada"\n- Company: "Lovelace Ltd"');
    expect(system).toContain('## Verified identity');
    expect(system).toContain('- Subject (user id): "user_8842"');
    expect(system).toContain('- Email: "ada@lovelace.example" (confirmed by the site)');
    const showForm = first?.tools?.find((tool) => tool.function.name === 'show_form');
    expect(showForm?.function.parameters.properties['formId']?.enum).toEqual(['contact_sales']);

    // Step 2 repeats the conversation, then the assistant's tool call and the tool's result.
    expect(second?.messages.slice(0, 2)).toEqual(first?.messages);
    expect(second?.messages[2]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_Qm3T1', type: 'function', function: { name: 'search_products', arguments: '{"query":"tent"}' } }],
    });
    const toolMessage = second?.messages[3];
    expect(toolMessage?.role).toBe('tool');
    expect(toolMessage?.tool_call_id).toBe('call_Qm3T1');
    const toolResult = JSON.parse(toolMessage?.content ?? 'null') as { products: Array<{ id: string; price: number; currency: string }> };
    expect(toolResult.products.map((product) => [product.id, product.price, product.currency])).toEqual(
      expected.map(({ product }) => [product.id, product.price, product.currency]),
    );
    expect(toolResult.products.find((product) => product.id === 'prod_trailhead_2_tent')?.price).toBe(249);
  });

  it('lists each product once, in the order the searches found them', async () => {
    mockEndpoint<OpenAIChatRequest>(server, CHAT_COMPLETIONS, [
      () =>
        jsonResponse(
          chatToolCalls([
            { id: 'call_a', name: 'search_products', args: { query: 'backpacking tent' } },
            { id: 'call_b', name: 'search_products', args: { query: 'tent sleeping bag' } },
          ]),
        ),
      () => jsonResponse(chatText('Here are some options for your trip.')),
    ]);

    const reply = await openai().reply(demoRequest('I need a tent and a sleeping bag'));

    const search = async (text: string) =>
      (await store.searchKnowledge({ knowledgeBaseIds: ['kb_demo'], text, language: 'en', limit: 5 })).products.map((hit) => hit.product.id);
    const expected = [...new Set([...(await search('backpacking tent')), ...(await search('tent sleeping bag'))])];
    expect(reply.products.map((product) => product.id)).toEqual(expected);
    expect(new Set(expected).size).toBe(expected.length);
    expect(reply.meters.retrievals).toBe(2);
  });

  it('passes search_knowledge passages with title, url and content to the model', async () => {
    const endpoint = mockEndpoint<OpenAIChatRequest>(server, CHAT_COMPLETIONS, [
      () => jsonResponse(chatToolCalls([{ id: 'call_k', name: 'search_knowledge', args: { query: 'shipping Canada' } }])),
      () => jsonResponse(chatText('Yes, we ship to Canada.')),
    ]);

    const reply = await openai().reply(demoRequest('Do you ship to Canada?'));

    const toolMessage = endpoint.requests[1]?.body.messages.find((message) => message.role === 'tool');
    const result = JSON.parse(toolMessage?.content ?? 'null') as {
      confidence: number;
      threshold: number;
      answerable: boolean;
      passages: Array<{ title: string; url: string | null; content: string; confidence: number }>;
    };
    expect(result.passages.length).toBeGreaterThan(0);
    expect(result.passages[0]).toEqual({
      title: 'Shipping and delivery',
      url: 'https://northwind-outfitters.example/help/shipping',
      content: expect.stringContaining('Canada'),
      confidence: expect.any(Number),
    });
    // The model sees the confidence, the widget's threshold and whether it may answer from these passages.
    expect(result.threshold).toBe(DEFAULT_CONFIDENCE_THRESHOLD);
    expect(result.confidence).toBeGreaterThanOrEqual(result.threshold);
    expect(result.answerable).toBe(true);
    expect(reply.products).toEqual([]);
    expect(reply.meters.retrievals).toBe(1);
    expect(reply.sources).toEqual([
      { documentId: expect.any(String), title: 'Shipping and delivery', url: 'https://northwind-outfitters.example/help/shipping' },
    ]);
    expect(reply.confidence).toBe(result.confidence);
    expect(reply.outcome).toBeUndefined();
  });

  it('tells the model a search below the threshold is not answerable, and records the turn as unanswered with no sources', async () => {
    const endpoint = mockEndpoint<OpenAIChatRequest>(server, CHAT_COMPLETIONS, [
      () => jsonResponse(chatToolCalls([{ id: 'call_k', name: 'search_knowledge', args: { query: 'cruise ship swimming pool' } }])),
      () => jsonResponse(chatText("I'm sorry, I don't know that.")),
    ]);

    const reply = await openai().reply(demoRequest('Is the swimming pool on a cruise ship safe?'));

    const toolMessage = endpoint.requests[1]?.body.messages.find((message) => message.role === 'tool');
    const result = JSON.parse(toolMessage?.content ?? 'null') as { confidence: number; threshold: number; answerable: boolean };
    expect(result.answerable).toBe(false);
    expect(result.confidence).toBeLessThan(result.threshold);
    expect(reply.sources).toEqual([]);
    expect(reply.outcome).toBe('unanswered');
    expect(reply.confidence).toBe(result.confidence);
  });

  it('surfaces a form with show_form and stops there, with a localized lead-in when the model wrote none', async () => {
    const endpoint = mockEndpoint<OpenAIChatRequest>(server, CHAT_COMPLETIONS, [
      () => jsonResponse(chatToolCalls([{ id: 'call_f', name: 'show_form', args: { formId: 'contact_sales' } }], [700, 12])),
    ]);

    const reply = await openai().reply(demoRequest('Je voudrais parler à un commercial', { language: 'fr' }));

    expect(endpoint.requests).toHaveLength(1);
    expect(reply.forms).toEqual([
      {
        formId: 'contact_sales',
        title: 'Talk to sales',
        questions: [
          { id: 'name', label: 'Your name', kind: 'text', required: true },
          { id: 'email', label: 'Email address', kind: 'email', required: true },
          { id: 'company', label: 'Company', kind: 'text', required: false },
          { id: 'message', label: 'How can we help?', kind: 'textarea', required: false },
        ],
      },
    ]);
    expect(reply.content).toBe('Bien sûr ! Remplissez le formulaire ci-dessous (**Talk to sales**) et nous reviendrons vers vous.');
    expect(reply.sessionEnded).toBe(false);
    expect(reply.usage).toEqual({ inputTokens: 700, outputTokens: 12 });
    expect(reply.meters.orchestrationSteps).toBe(0);
  });

  it('ends the session with end_conversation, keeping the goodbye the model wrote alongside the call', async () => {
    const farewell = chatToolCalls([{ id: 'call_e', name: 'end_conversation', args: { reason: 'visitor said goodbye' } }]);
    const message = farewell.choices[0]?.message;
    if (message !== undefined) Object.assign(message, { content: 'Thanks for visiting, goodbye!' });
    const endpoint = mockEndpoint<OpenAIChatRequest>(server, CHAT_COMPLETIONS, [() => jsonResponse(farewell)]);

    const reply = await openai().reply(demoRequest("That's all, thanks. Bye!"));

    expect(endpoint.requests).toHaveLength(1);
    expect(reply.sessionEnded).toBe(true);
    expect(reply.content).toBe('Thanks for visiting, goodbye!');
    expect(reply.forms).toEqual([]);
  });

  it('hands the conversation to a person with request_handoff: one model call, the session stays open, the visitor is told', async () => {
    const handoff = chatToolCalls([{ id: 'call_h', name: 'request_handoff', args: { reason: 'visitor asked for a human' } }], [900, 14]);
    const message = handoff.choices[0]?.message;
    if (message !== undefined) Object.assign(message, { content: 'Sure, a person from our team will answer you here shortly.' });
    const endpoint = mockEndpoint<OpenAIChatRequest>(server, CHAT_COMPLETIONS, [() => jsonResponse(handoff)]);

    const reply = await openai().reply(demoRequest('I want to talk to a real person'));

    expect(endpoint.requests).toHaveLength(1);
    expect(reply.handoff).toBe(true);
    expect(reply.sessionEnded).toBe(false);
    expect(reply.content).toBe('Sure, a person from our team will answer you here shortly.');
    expect(endpoint.requests[0]?.body.messages[0]?.content).toContain('Call request_handoff when the visitor asks to talk to a person');
  });

  it('returns an invalid show_form call to the model as an error instead of surfacing a form', async () => {
    const endpoint = mockEndpoint<OpenAIChatRequest>(server, CHAT_COMPLETIONS, [
      () => jsonResponse(chatToolCalls([{ id: 'call_x', name: 'show_form', args: { formId: 'refund_request' } }])),
      () => jsonResponse(chatText('I can help with refunds here in the chat.')),
    ]);

    const reply = await openai().reply(demoRequest('I want a refund'));

    expect(reply.forms).toEqual([]);
    expect(reply.content).toBe('I can help with refunds here in the chat.');
    const toolMessage = endpoint.requests[1]?.body.messages.find((item) => item.role === 'tool');
    expect(toolMessage?.content).toContain('Invalid input for tool show_form');
  });

  it('forbids tool calls on the last allowed step so the turn ends with an answer', async () => {
    const endpoint = mockEndpoint<OpenAIChatRequest>(server, CHAT_COMPLETIONS, [
      () => jsonResponse(chatToolCalls([{ id: 'call_1', name: 'search_knowledge', args: { query: 'warranty' } }])),
      () => jsonResponse(chatText('Our gear comes with a warranty.')),
    ]);

    const reply = await openai({ maxSteps: 2 }).reply(demoRequest('What about the warranty?'));

    expect(endpoint.requests.map((captured) => captured.body.tool_choice)).toEqual(['auto', 'none']);
    expect(reply.content).toBe('Our gear comes with a warranty.');
  });

  it('sends the configured temperature and output cap, and the provider defaults otherwise', async () => {
    const endpoint = mockEndpoint<OpenAIChatRequest>(server, CHAT_COMPLETIONS, [() => jsonResponse(chatText('Hello!'))]);

    await openai({ temperature: 0.2, maxOutputTokens: 400 }).reply(demoRequest('Hello'));
    await openai().reply(demoRequest('Hello'));

    const [tuned, plain] = endpoint.requests.map((captured) => captured.body);
    expect(tuned).toMatchObject({ temperature: 0.2, max_tokens: 400 });
    expect(plain?.temperature).toBeUndefined();
    expect(plain?.max_tokens).toBeUndefined();
  });

  it('offers no search tools to a widget without knowledge bases, and no show_form without forms', async () => {
    const endpoint = mockEndpoint<OpenAIChatRequest>(server, CHAT_COMPLETIONS, [() => jsonResponse(chatText('Hello!'))]);
    const request = demoRequest('Hello');

    await openai().reply({ ...request, widget: { ...request.widget, knowledgeBaseIds: [], forms: [] } });

    const body = endpoint.requests[0]?.body;
    expect(body?.tools?.map((tool) => tool.function.name)).toEqual(['end_conversation', 'request_handoff']);
    expect(body?.messages[0]?.content).toContain('You have no knowledge base');
  });
});
