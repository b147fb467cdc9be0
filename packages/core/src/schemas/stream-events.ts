import { z } from 'zod';
import { metaSchema } from './credits.js';
import { historyItemSchema, messageReplySchema, processingReplySchema } from './message.js';
import { sessionSchema } from './session.js';
import { SESSION_EVENT, TURN_EVENT, type TurnEventName } from '../event-stream.js';

/**
 * THE STREAM PROTOCOL, once (DESIGN.md 4, README Architecture): every event a server-sent event stream of the service
 * carries, as one zod schema each. The server's writers, the OpenAPI document and the readers of `@svc/client` and
 * the widget take the names and shapes from here; nobody spells an event name as a string literal elsewhere.
 *
 * The names are plain constants in the dependency-free `@svc/core/event-stream` (with the SSE reader), so a reader
 * that must stay small (the widget, the client's browser bundle) takes them from there and never meets zod.
 */

export { SESSION_EVENT, TURN_EVENT } from '../event-stream.js';
export type { SessionEventName, TurnEventName } from '../event-stream.js';

const streamErrorSchema = z.object({ code: z.string(), message: z.string(), field: z.string().optional() });

/**
 * The `data` of each turn event. `completed` carries the reply exactly as a sync call returns it; `handoff` what a
 * sync call answers while a person has the conversation (202, no message id). The descriptions are those of the
 * OpenAPI document's Stream…Event components, which are generated from these schemas.
 */
export const turnEventDataSchemas = {
  [TURN_EVENT.start]: z
    .strictObject({ messageId: z.string(), sessionId: z.string() })
    .describe(`Event \`${TURN_EVENT.start}\`: the turn was accepted; its reply lands in the history under \`messageId\` even if the client disconnects.`),
  [TURN_EVENT.delta]: z
    .strictObject({ text: z.string() })
    .describe(
      `Event \`${TURN_EVENT.delta}\` (any number): the next piece of the reply's Markdown. The pieces concatenate to \`data.content\` of \`${TURN_EVENT.completed}\` (for keys with the default \`markdown\` reply format).`,
    ),
  [TURN_EVENT.completed]: z
    .strictObject({ data: messageReplySchema, meta: metaSchema })
    .describe(`Event \`${TURN_EVENT.completed}\` (last): the reply exactly as a sync call returns it, and what the turn cost.`),
  [TURN_EVENT.failed]: z
    .strictObject({ error: streamErrorSchema, meta: metaSchema })
    .describe(
      `Event \`${TURN_EVENT.failed}\` (last): the turn failed after acceptance (e.g. \`agent_unavailable\`); the visitor's message is kept and nothing is billed.`,
    ),
  [TURN_EVENT.handoff]: z
    .strictObject({ data: processingReplySchema.extend({ messageId: z.null() }), meta: metaSchema })
    .describe(
      `Event \`${TURN_EVENT.handoff}\` (last): no AI reply, because a person has the conversation (the session's \`handoff\` is set); \`data\` is what a sync call answers then (202, \`messageId\` null). The person's reply comes as \`${SESSION_EVENT.messageCreated}\` on the session event stream (\`GET …/events\`), to the callback URL of the key that created the session, and in the history. Nothing is billed.`,
    ),
} as const;

/** The `data` of each session event. */
export const sessionEventDataSchemas = {
  [SESSION_EVENT.messageCreated]: historyItemSchema.describe('A message written into the session by a person (an operator).'),
  [SESSION_EVENT.sessionUpdated]: sessionSchema.describe('The session changed (status, handoff or rating): what get-session answers now.'),
} as const;

/** A turn event as a reader yields it: its name as `type` beside the fields of its data. */
export const turnStreamEventSchema = z.discriminatedUnion('type', [
  turnEventDataSchemas[TURN_EVENT.start].extend({ type: z.literal(TURN_EVENT.start) }),
  turnEventDataSchemas[TURN_EVENT.delta].extend({ type: z.literal(TURN_EVENT.delta) }),
  turnEventDataSchemas[TURN_EVENT.completed].extend({ type: z.literal(TURN_EVENT.completed) }),
  turnEventDataSchemas[TURN_EVENT.failed].extend({ type: z.literal(TURN_EVENT.failed) }),
  turnEventDataSchemas[TURN_EVENT.handoff].extend({ type: z.literal(TURN_EVENT.handoff) }),
]);
export type TurnStreamEvent = z.infer<typeof turnStreamEventSchema>;
export type TurnEventData<N extends TurnEventName> = z.infer<(typeof turnEventDataSchemas)[N]>;

/** A session event as a reader yields it: its name as `type`, its SSE `id`, and its data. */
export const sessionStreamEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal(SESSION_EVENT.messageCreated), id: z.string(), data: sessionEventDataSchemas[SESSION_EVENT.messageCreated] }),
  z.object({ type: z.literal(SESSION_EVENT.sessionUpdated), id: z.string(), data: sessionEventDataSchemas[SESSION_EVENT.sessionUpdated] }),
]);
export type SessionStreamEvent = z.infer<typeof sessionStreamEventSchema>;

/**
 * The AI SDK's UI message stream protocol (v1, header `x-vercel-ai-ui-message-stream: v1`) as POST …/chat writes it:
 * one JSON chunk per `data:` line, ended by `[DONE]`. These are the chunk shapes of the SDK's `UIMessageChunk` that
 * the service uses, no field beyond them (the SDK's client validates strictly); a type test holds them to the SDK's.
 */
export const uiMessageChunkSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('start'), messageId: z.string(), messageMetadata: z.strictObject({ sessionId: z.string() }) }),
  z.strictObject({ type: z.literal('text-start'), id: z.string() }),
  z.strictObject({ type: z.literal('text-delta'), id: z.string(), delta: z.string() }),
  z.strictObject({ type: z.literal('text-end'), id: z.string() }),
  z.strictObject({ type: z.literal('data-products'), data: z.array(z.unknown()) }),
  z.strictObject({ type: z.literal('data-forms'), data: z.array(z.unknown()) }),
  z.strictObject({ type: z.literal('data-actions'), data: z.array(z.unknown()) }),
  // What the answer used (DESIGN.md section 11): a web page as the AI SDK's source-url, a document without an address
  // as its source-document.
  z.strictObject({ type: z.literal('source-url'), sourceId: z.string(), url: z.string(), title: z.string() }),
  z.strictObject({ type: z.literal('source-document'), sourceId: z.string(), mediaType: z.string(), title: z.string() }),
  z.strictObject({ type: z.literal('finish'), finishReason: z.literal('stop'), messageMetadata: z.record(z.string(), z.unknown()) }),
  z.strictObject({ type: z.literal('error'), errorText: z.string() }),
]);
export type UiMessageChunk = z.infer<typeof uiMessageChunkSchema>;

/**
 * A history item as the AI SDK's `UIMessage` (`GET /widgets/{widgetId}/chat/{chatId}/messages`, DESIGN.md section 4):
 * what `useChat` takes as its initial messages. The text is one `text` part; products are a `data-products` part as
 * in the stream; a person's reply carries its `author` in `metadata`.
 */
export const uiMessageSchema = z.object({
  id: z.string(),
  role: z.enum(['user', 'assistant']),
  parts: z.array(
    z.discriminatedUnion('type', [
      z.object({ type: z.literal('text'), text: z.string() }),
      z.object({ type: z.literal('data-products'), data: z.array(z.looseObject({ id: z.string() })) }),
    ]),
  ),
  metadata: z.object({ createdAt: z.string(), author: z.object({ type: z.literal('operator'), name: z.string() }).optional() }),
});
export type UiMessage = z.infer<typeof uiMessageSchema>;

/** The line that ends a UI message stream. */
export const UI_MESSAGE_STREAM_DONE = 'data: [DONE]\n\n';
