/**
 * The streaming parts of the API reference (DESIGN.md section 4), kept apart from the endpoint table so the
 * table stays one kind of thing: `response_type: "stream"` answers of the two turn endpoints, and the AI SDK
 * `/chat` endpoint. Applied to the built document by {@link addStreamingDocs}.
 */
import { TURN_EVENT, type TurnEventName } from '@svc/core/schemas';
import { TURN_EVENT_COMPONENTS } from './components.js';

type Json = Record<string, unknown>;

const conversation = '/widgets/{widgetId}/conversations/{sessionId}';
const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });

/**
 * Schemas the stream docs add by hand. The turn events' data (StreamStartEvent …) are not among them: they are
 * generated from @svc/core/schemas with the other components (see TURN_EVENT_COMPONENTS).
 */
const EXTRA_SCHEMAS: Record<string, Json> = {
  ChatRequest: {
    type: 'object',
    description:
      'The body the Vercel AI SDK\'s `DefaultChatTransport` sends. The text parts of the last message (which must be the user\'s) are the visitor\'s message; earlier messages are ignored, the service keeps its own history, so a client may send only the last one (`prepareSendMessagesRequest`), which keeps long chats under the 64 KiB body limit. `visitorContext`, `timezone` and `identity` are taken as in send-message (add them with the transport\'s `body` option).',
    properties: {
      id: { type: 'string', description: 'The chat id the client uses.' },
      messages: {
        type: 'array',
        minItems: 1,
        items: {
          type: 'object',
          properties: {
            id: { type: 'string' },
            role: { enum: ['system', 'user', 'assistant'] },
            parts: { type: 'array', items: { type: 'object', properties: { type: { type: 'string' }, text: { type: 'string' } }, required: ['type'] } },
          },
          required: ['role', 'parts'],
        },
      },
      trigger: { const: 'submit-message', description: '`regenerate-message` is refused: replies in the history are never replaced.' },
      messageId: { type: 'string' },
      visitorContext: ref('VisitorContext'),
      timezone: { type: 'string' },
      identity: ref('Identity'),
    },
    required: ['messages'],
    additionalProperties: false,
  },
};

const EVENT_STREAM_DESCRIPTION = [
  'With `response_type: "stream"`: `200 text/event-stream`, one JSON `data:` line per event:',
  `\`${TURN_EVENT.start}\` \`{ messageId, sessionId }\`, then \`${TURN_EVENT.delta}\` \`{ text }\` (any number), then \`${TURN_EVENT.completed}\``,
  `\`{ data: <MessageReply>, meta }\` or \`${TURN_EVENT.failed}\` \`{ error, meta }\` (or, during a handoff to a person, \`${TURN_EVENT.handoff}\``,
  '`{ data: { messageId: null, status: "processing" }, meta }`); a comment line (`: keep-alive`) every 15 s.',
  'Refusals before the turn is accepted are the ordinary JSON errors below, with their status.',
].join(' ');

const EVENT_STREAM_EXAMPLE = [
  `event: ${TURN_EVENT.start}`,
  'data: {"messageId":"msg_01JDX6Z8Q0T4V9K3M2N5P7R8S1","sessionId":"sess_4f9c2a"}',
  '',
  `event: ${TURN_EVENT.delta}`,
  'data: {"text":"We ship to Canada in 5-8 business days. "}',
  '',
  `event: ${TURN_EVENT.completed}`,
  'data: {"data":{"messageId":"msg_01JDX6Z8Q0T4V9K3M2N5P7R8S1","content":"We ship to Canada in 5-8 business days. …"},"meta":{"creditsConsumed":1.2}}',
  '',
  '',
].join('\n');

function eventStreamContent(): Json {
  const events = Object.values(TURN_EVENT).map((event: TurnEventName) => [event, ref(TURN_EVENT_COMPONENTS[event])] as const);
  return {
    schema: {
      type: 'string',
      description: EVENT_STREAM_DESCRIPTION,
      // JSON Schema's own word for what a string holds: the data line of each event is one of these.
      // anyOf: the completed and handoff events share their property names (the event name tells them apart).
      contentSchema: { anyOf: events.map(([, schema]) => schema) },
    },
    example: EVENT_STREAM_EXAMPLE,
    // OpenAPI 3.1 cannot type the items of a stream; this maps each event name to the schema of its data.
    'x-events': Object.fromEntries(events),
  };
}

function chatOperation(sendMessage: Json): Json {
  const responses = sendMessage['responses'] as Record<string, Json>;
  const errors = Object.fromEntries(Object.entries(responses).filter(([status]) => Number(status) >= 400));
  return {
    operationId: 'chat',
    tags: ['Messages'],
    summary: 'Chat with the Vercel AI SDK (`useChat`)',
    description:
      'Sends the visitor message of an AI SDK chat request and streams the reply in the AI SDK UI message stream protocol (v1), so `useChat` with `new DefaultChatTransport({ api: \'…/chat\', headers: { \'X-API-Key\': key } })` works with no adapter. Same keys, scopes, identity rules and billing as send-message (widget public keys allowed). Chunks: `start` (the reply\'s `messageId`, `messageMetadata.sessionId`), `text-start`, `text-delta`…, `text-end`, `data-products` and `data-forms` when the reply has them, `finish` with `messageMetadata` `{ creditsConsumed, credits, usage, sessionEnded }` (during a handoff to a person: no text and `{ creditsConsumed: 0, handoff: true }`), or `error`; then `[DONE]`.',
    security: sendMessage['security'],
    parameters: sendMessage['parameters'],
    requestBody: { required: true, content: { 'application/json': { schema: ref('ChatRequest') } } },
    responses: {
      200: {
        description: 'The reply as a UI message stream.',
        headers: {
          'X-Request-Id': { $ref: '#/components/headers/RequestId' },
          'x-vercel-ai-ui-message-stream': { description: 'The protocol version: `v1`.', schema: { const: 'v1' } },
        },
        content: {
          'text/event-stream': {
            schema: { type: 'string' },
            example:
              'data: {"type":"start","messageId":"msg_01JDX6Z8Q0T4V9K3M2N5P7R8S1","messageMetadata":{"sessionId":"sess_4f9c2a"}}\n\ndata: {"type":"text-start","id":"msg_01JDX6Z8Q0T4V9K3M2N5P7R8S1-text"}\n\ndata: {"type":"text-delta","id":"msg_01JDX6Z8Q0T4V9K3M2N5P7R8S1-text","delta":"Hi! "}\n\ndata: {"type":"text-end","id":"msg_01JDX6Z8Q0T4V9K3M2N5P7R8S1-text"}\n\ndata: {"type":"finish","finishReason":"stop","messageMetadata":{"creditsConsumed":0.4}}\n\ndata: [DONE]\n\n',
          },
        },
      },
      ...errors,
    },
  };
}

/**
 * Adds the streaming answers to the turn endpoints' 200 responses, the `/chat` endpoint (with the errors and
 * parameters of send-message, which it shares), and the schemas written here (the chat request).
 */
export function addStreamingDocs<D extends Json>(document: D): D {
  const paths = document['paths'] as Record<string, Record<string, Json>>;
  const components = document['components'] as { schemas: Record<string, Json> };
  Object.assign(components.schemas, EXTRA_SCHEMAS);
  for (const path of [`${conversation}/messages`, `${conversation}/form-submissions`]) {
    const post = paths[path]?.['post'];
    if (post === undefined) continue;
    post['description'] = `${String(post['description'] ?? '')}\n\n${EVENT_STREAM_DESCRIPTION}`;
    const ok = (post['responses'] as Record<string, Json>)['200'];
    if (ok !== undefined) (ok['content'] as Json)['text/event-stream'] = eventStreamContent();
  }
  const sendMessage = paths[`${conversation}/messages`]?.['post'];
  if (sendMessage !== undefined) {
    paths[`${conversation}/chat`] = { post: chatOperation(sendMessage) };
    // The same protocol where the chat's `id` names the conversation (created on first use): only the session path
    // parameter differs.
    const byId = chatOperation(sendMessage);
    byId['operationId'] = 'chatById';
    byId['summary'] = 'Chat with the Vercel AI SDK (`useChat` with only `api` and `headers`)';
    byId['description'] =
      `The body \`DefaultChatTransport\` sends, as it is: its \`id\` (16 to 128 characters, what \`useChat\` generates) names this key's conversation, created on first use; a \`visitorId\` member may name the visitor. Bodies up to 1 MB (the transport re-sends the whole conversation; only its last message is read). \`GET /widgets/{widgetId}/chat/{chatId}/messages\` returns the conversation as UI messages for \`useChat\`'s initial messages.\n\n${String(byId['description'])}`;
    byId['parameters'] = (sendMessage['parameters'] as Json[]).filter((parameter) => (parameter as { name?: string })['name'] !== 'sessionId');
    paths['/widgets/{widgetId}/chat'] = { post: byId };
  }
  return document;
}
