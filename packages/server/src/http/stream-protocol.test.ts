import type { UIMessageChunk } from 'ai';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { DEMO_FORMS, createScriptedAgent } from '@svc/agents';
import { readEventStream, TURN_EVENT, turnStreamEventSchema, uiMessageChunkSchema, type UiMessageChunk } from '@svc/core/schemas';
import { createHarness, type Harness } from '../testing/harness.js';
import { uiMessageChunks } from './ui-message-stream.js';

/**
 * Issue 21: the stream events come from one schema. The writers are typed by @svc/core/schemas at compile time;
 * this holds what they actually put on the wire to the same schemas, for every event and every chunk type, so a
 * writer and the schema its readers trust cannot drift apart.
 */

function post(h: Harness, path: string, body: unknown): Promise<Response> {
  return Promise.resolve(
    h.runtime.app.request(path, {
      method: 'POST',
      headers: { 'X-API-Key': h.key, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    }),
  );
}

/** A streamed turn's events as a reader yields them: the event name as `type` beside the data's fields. */
async function turnEvents(response: Response): Promise<Array<Record<string, unknown>>> {
  expect(response.status).toBe(200);
  const events: Array<Record<string, unknown>> = [];
  for await (const { event, data } of readEventStream(response.body!)) events.push({ type: event, ...(JSON.parse(data) as object) });
  return events;
}

/** A UI message stream's chunks, `[DONE]` checked and left out. */
async function chunks(response: Response): Promise<unknown[]> {
  expect(response.status).toBe(200);
  const frames: string[] = [];
  for await (const { data } of readEventStream(response.body!)) frames.push(data);
  expect(frames.at(-1)).toBe('[DONE]');
  return frames.slice(0, -1).map((frame) => JSON.parse(frame) as unknown);
}

const failingAgent = () =>
  createScriptedAgent(({ onDelta }) => {
    onDelta?.('Half an ans');
    throw new Error('model crashed');
  });

const chatBody = (text: string) => ({ id: 'chat-1', messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text }] }], trigger: 'submit-message' });

describe('what the server writes parses with the stream protocol of @svc/core/schemas', () => {
  it('every turn event (start, delta, completed, failed, handoff)', async () => {
    const h = await createHarness();
    const failing = await createHarness({ agent: failingAgent() });
    const handedOff = await h.session({ visitorId: 'visitor-handoff' });
    await h.post(`${h.base}/${handedOff}/messages`, { content: 'Can I talk to a person?' });

    const events = [
      ...(await turnEvents(await post(h, `${h.base}/${await h.session()}/messages`, { content: 'Which tents do you sell?', response_type: 'stream' }))),
      ...(await turnEvents(await post(failing, `${failing.base}/${await failing.session()}/messages`, { content: 'Hi', response_type: 'stream' }))),
      ...(await turnEvents(await post(h, `${h.base}/${handedOff}/messages`, { content: 'Still there?', response_type: 'stream' }))),
    ];

    for (const event of events) expect(turnStreamEventSchema.safeParse(event).error, String(event['type'])).toBeUndefined();
    expect(new Set(events.map((event) => event['type']))).toEqual(new Set(Object.values(TURN_EVENT)));
  });

  it('every UI message stream chunk of POST …/chat (text, products, forms, finish, error)', async () => {
    const h = await createHarness();
    // The demo forms: asking for sales surfaces one, so a reply carries `data-forms`.
    await h.admin.setWidgetForms(h.account.id, h.widget.id, DEMO_FORMS);
    const failing = await createHarness({ agent: failingAgent() });
    const handedOff = await h.session({ visitorId: 'visitor-handoff' });
    await h.post(`${h.base}/${handedOff}/messages`, { content: 'Can I talk to a person?' });

    // An answer citing a web page and a document without an address, with quick replies under it.
    const citing = await createHarness({
      agent: createScriptedAgent(() => ({
        content: 'From our guides.',
        sources: [
          { documentId: 'doc_web', title: 'Shipping', url: 'https://shop.example/shipping' },
          { documentId: 'doc_plain', title: 'Returns', url: null },
        ],
        actions: [{ type: 'reply', label: 'Talk to a person', text: 'I would like to talk to a person.' }],
      })),
    });
    const written = [
      ...(await chunks(await post(citing, `${citing.base}/${await citing.session()}/chat`, chatBody('Shipping and returns?')))),
      ...(await chunks(await post(h, `${h.base}/${await h.session()}/chat`, chatBody('Which tents do you sell?')))),
      ...(await chunks(await post(h, `${h.base}/${await h.session({ visitorId: 'visitor-sales' })}/chat`, chatBody('I would like to talk to sales')))),
      ...(await chunks(await post(h, `${h.base}/${handedOff}/chat`, chatBody('Still there?')))),
      ...(await chunks(await post(failing, `${failing.base}/${await failing.session()}/chat`, chatBody('Hi')))),
    ];

    for (const chunk of written) expect(uiMessageChunkSchema.safeParse(chunk).error, JSON.stringify(chunk)).toBeUndefined();
    // The sources as useChat renders them: a link for the web page, a document for the one without an address.
    expect(written).toContainEqual({ type: 'source-url', sourceId: 'doc_web', url: 'https://shop.example/shipping', title: 'Shipping' });
    expect(written).toContainEqual({ type: 'source-document', sourceId: 'doc_plain', mediaType: 'text/markdown', title: 'Returns' });
    expect(written).toContainEqual({ type: 'data-actions', data: [{ type: 'reply', label: 'Talk to a person', text: 'I would like to talk to a person.' }] });
    const types = new Set(written.map((chunk) => (chunk as { type: string }).type));
    expect(types).toEqual(new Set(uiMessageChunkSchema.options.map((option) => option.shape.type.value)));
  });
});

/** The AI SDK's chunk union, with the two data parts the service writes named (their data as the SDK leaves it). */
type SdkChunk = UIMessageChunk<unknown, { products: unknown[]; forms: unknown[]; actions: unknown[] }>;

/**
 * The fields of a chunk that the SDK's chunk of the same type lacks. Assignability alone lets extra fields through,
 * but the SDK's client validates chunks strictly and refuses them.
 */
type FieldsUnknownToSdk<C extends UiMessageChunk> = C extends unknown ? Exclude<keyof C, keyof Extract<SdkChunk, { type: C['type'] }>> : never;

describe('the UI message stream chunks, held to the AI SDK (types: `pnpm typecheck` checks these)', () => {
  it('writes only chunks of the SDK\'s own UIMessageChunk, with no field it does not know', () => {
    expectTypeOf(uiMessageChunks()).returns.toEqualTypeOf<UiMessageChunk[]>();
    expectTypeOf<UiMessageChunk>().toExtend<SdkChunk>();
    expectTypeOf<FieldsUnknownToSdk<UiMessageChunk>>().toEqualTypeOf<never>();
  });
});
