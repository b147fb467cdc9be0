import { z } from 'zod';
import { createSessionRequestSchema, formSubmissionRequestSchema, messageFeedbackRequestSchema, rateSessionRequestSchema, sendMessageRequestSchema } from '@svc/core/schemas';
import type { TurnObserver } from '@svc/core';
import { RESPONSE_SCHEMAS as R } from '../openapi/components.js';
import { turnIdempotency } from './idempotency.js';
import { CHAT, IDENTITY_TOKEN, JSON_POST, KEYED, PAGE, SESSION, TURN } from './route-kit.js';
import type { Route } from './routes.js';
import { sessionEventStream } from './session-event-stream.js';
import { chatByIdTurn, chatTurn, streamTurn } from './stream-routes.js';
import { uiMessagesPage } from './ui-message-stream.js';

const TURN_RESPONSES: Route['responses'] = {
  200: { schema: R.MessageReplyResponse, description: 'The assistant reply; `meta.creditsConsumed` is the turn total.' },
  202: {
    schema: R.ProcessingReplyResponse,
    description:
      'The reply is being produced: callback mode (`messageId` null, delivered to the callback URL), a turn slower than the sync wait (it lands in the history under `messageId`), or a session handed off to a person (`messageId` null, the session\'s `handoff` set): the AI stays silent, the message is stored and nothing is billed; the person\'s reply comes as `message.created` on the session event stream, to the callback URL of the server key that created the session, and in the history.',
  },
};

const conversation = '/widgets/{widgetId}/conversations/{sessionId}';

/** Sessions, messages, forms, the session event stream and the widget's config: what a visitor's client calls. */
export const SESSION_ROUTES: readonly Route[] = [
  {
    method: 'post',
    path: '/widgets/{widgetId}/chat',
    operationId: 'chatById',
    tag: 'Messages',
    summary: 'Chat from the AI SDK (useChat) with only `api` and `headers` set',
    description:
      'The body `DefaultChatTransport` sends, as it is: its `id` names the conversation (created on first use, the calling key\'s; 16 to 128 characters), the text of its last (user) message runs a streamed turn answered in the UI message stream protocol. Bodies up to 1 MB: the whole conversation the transport re-sends is read but only its last message is used.',
    auth: 'key',
    scopes: CHAT,
    identityToken: true,
    maxBodyBytes: 1024 * 1024,
    // The AI SDK's own body: read here, validated by parseChatRequest; the document describes it (openapi/stream-docs.ts).
    body: { schema: z.looseObject({}), required: true },
    responses: {},
    errors: [...KEYED, ...JSON_POST, ...SESSION, ...TURN],
    document: false,
    handler: async ({ core, caller, params, body, c }) =>
      chatByIdTurn(c, { core, principal: caller, widgetId: params.widgetId!, body, idempotency: await turnIdempotency(c) }, c.var.server.stream),
  },
  {
    method: 'get',
    path: '/widgets/{widgetId}/chat/{chatId}/messages',
    operationId: 'listChatMessages',
    tag: 'Messages',
    summary: 'Read a chat as AI SDK UI messages',
    description:
      "One page of the conversation a chat `id` names, oldest first, as the AI SDK's `UIMessage`s (`useChat`'s `messages` option): the text as a `text` part, products as a `data-products` part, a person's reply with its `author` in `metadata`. Billed like the message history.",
    auth: 'key',
    scopes: CHAT,
    identityToken: true,
    paginated: true,
    responses: { 200: { schema: R.UiMessagePage, description: 'A page of UI messages.' } },
    errors: [...KEYED, ...SESSION, ...PAGE],
    handler: async ({ core, caller, params, query }) => {
      const { sessionId } = await core.api.openChat(caller, { widgetId: params.widgetId!, chatId: params.chatId!, create: false });
      return uiMessagesPage(await core.api.listMessages(caller, params.widgetId!, sessionId, query));
    },
  },
  {
    method: 'post',
    path: '/widgets/{widgetId}/conversations',
    operationId: 'createSession',
    tag: 'Sessions',
    summary: 'Create or resume a session',
    description:
      'Creates a session for a visitor (201, with `Location`). Sending the `sessionId` of a session that is still active resumes it (200, `resumed: true`); the id of a resolved or expired session is refused (409). A session created with a verified identity is bound to it: another caller gets 403 `identity_mismatch`.',
    auth: 'key',
    scopes: CHAT,
    identityToken: true,
    body: { schema: createSessionRequestSchema, required: true },
    responses: {
      201: { schema: R.CreatedSessionResponse, description: 'A new session.' },
      200: { schema: R.CreatedSessionResponse, description: 'The active session with this `sessionId`, resumed.' },
    },
    errors: [...KEYED, ...JSON_POST, ...IDENTITY_TOKEN, 'widget_not_found', 'insufficient_credits', 'session_id_taken', 'identity_mismatch'],
    location: (data: { sessionId: string }) => data.sessionId,
    handler: ({ core, caller, params, body }) => core.api.createSession(caller, params.widgetId!, body),
  },
  {
    method: 'post',
    path: `${conversation}/messages`,
    operationId: 'sendMessage',
    tag: 'Messages',
    summary: 'Send a visitor message',
    description:
      'Runs a turn: stores the message, asks the AI and answers with its reply (`sync`, the default), or answers 202 at once and delivers the reply to the callback URL (`callback`; see the `message.completed` and `message.failed` webhooks). `identity` needs the `identity:assert` scope and applies to this call only.',
    auth: 'key',
    scopes: CHAT,
    identityToken: true,
    body: { schema: sendMessageRequestSchema, required: true },
    responses: TURN_RESPONSES,
    errors: [...KEYED, ...JSON_POST, ...SESSION, ...TURN],
    handler: async ({ core, caller, params, body, c }) => {
      // The Idempotency-Key is recorded in the transaction that accepts the turn (DESIGN.md section 3a).
      const idempotency = await turnIdempotency(c);
      const run = (observer?: TurnObserver) => core.api.sendMessage(caller, params.widgetId!, params.sessionId!, body, observer, { idempotency });
      return body?.['response_type'] === 'stream' ? streamTurn(c, run, c.var.server.stream) : run();
    },
  },
  {
    method: 'get',
    path: `${conversation}/messages`,
    operationId: 'listMessages',
    tag: 'Messages',
    summary: 'Read the message history',
    description: 'One page of the history, oldest first. Repeat with `pagination.cursor` while `pagination.hasMore` is true.',
    auth: 'key',
    scopes: CHAT,
    identityToken: true,
    paginated: true,
    responses: { 200: { schema: R.HistoryPage, description: 'A page of history items.' } },
    errors: [...KEYED, ...SESSION, ...PAGE],
    handler: ({ core, caller, params, query }) => core.api.listMessages(caller, params.widgetId!, params.sessionId!, query),
  },
  {
    method: 'post',
    path: `${conversation}/form-submissions`,
    operationId: 'submitForm',
    tag: 'Forms',
    summary: 'Submit answers to a surfaced form',
    description:
      'Answers the form a reply surfaced. The submission is checked against the pending form before any billing or AI run (400 `form_rejected` naming the question); an accepted one runs a turn like a message.',
    auth: 'key',
    scopes: CHAT,
    identityToken: true,
    body: { schema: formSubmissionRequestSchema, required: true },
    responses: TURN_RESPONSES,
    errors: [...KEYED, ...JSON_POST, ...SESSION, ...TURN, 'form_rejected'],
    handler: async ({ core, caller, params, body, c }) => {
      // The Idempotency-Key is recorded in the transaction that accepts the turn (DESIGN.md section 3a).
      const idempotency = await turnIdempotency(c);
      const run = (observer?: TurnObserver) => core.api.submitForm(caller, params.widgetId!, params.sessionId!, body, observer, { idempotency });
      return body?.['response_type'] === 'stream' ? streamTurn(c, run, c.var.server.stream) : run();
    },
  },
  {
    method: 'post',
    path: `${conversation}/chat`,
    operationId: 'chat',
    tag: 'Messages',
    summary: 'Send a visitor message from the AI SDK (useChat)',
    description:
      'The Vercel AI SDK UI message stream protocol, so `useChat` with `DefaultChatTransport` talks to the service directly: the text of the last (user) message runs a streamed turn.',
    auth: 'key',
    scopes: CHAT,
    identityToken: true,
    // The AI SDK's own body: read here, validated by parseChatRequest; the document describes it (openapi/stream-docs.ts).
    body: { schema: z.looseObject({}), required: true },
    responses: {},
    errors: [...KEYED, ...JSON_POST, ...SESSION, ...TURN],
    document: false,
    handler: async ({ core, caller, params, body, c }) =>
      chatTurn(c, { core, principal: caller, widgetId: params.widgetId!, sessionId: params.sessionId!, body, idempotency: await turnIdempotency(c) }, c.var.server.stream),
  },
  {
    method: 'post',
    path: `${conversation}/end`,
    operationId: 'endSession',
    tag: 'Sessions',
    summary: 'End a session',
    description: 'Resolves the session; no messages can be sent afterwards. Ending a resolved session again answers its original `resolvedAt` at no cost.',
    auth: 'key',
    scopes: CHAT,
    identityToken: true,
    responses: { 200: { schema: R.EndedSessionResponse, description: 'The resolved session.' } },
    errors: [...KEYED, ...JSON_POST, ...SESSION, 'session_not_active'],
    handler: ({ core, caller, params }) => core.api.endSession(caller, params.widgetId!, params.sessionId!),
  },
  {
    method: 'post',
    path: `${conversation}/rate`,
    operationId: 'rateSession',
    tag: 'Sessions',
    summary: 'Rate a session',
    description: 'Rates a resolved or expired session; rating again replaces the rating. An active session answers 409 `session_active`.',
    auth: 'key',
    scopes: CHAT,
    identityToken: true,
    body: { schema: rateSessionRequestSchema, required: true },
    responses: { 200: { schema: R.RatedSessionResponse, description: 'The rating now on the session.' } },
    errors: [...KEYED, ...JSON_POST, ...SESSION, 'session_active'],
    handler: ({ core, caller, params, body }) => core.api.rateSession(caller, params.widgetId!, params.sessionId!, body),
  },
  {
    method: 'post',
    path: `${conversation}/messages/{messageId}/feedback`,
    operationId: 'messageFeedback',
    tag: 'Messages',
    summary: 'Rate a reply',
    description:
      'Thumbs up or down on one reply the AI wrote, with an optional `reason` and `comment` (at most 1,000 characters); sending again replaces it. On a session of any status. A visitor message or a person\'s reply answers 409 `message_not_rateable`; an unknown message 404 `message_not_found`. Each change is a `message.feedback` webhook event, and a thumbs-down puts the question before the reply on the console\'s questions page. Free.',
    auth: 'key',
    scopes: CHAT,
    identityToken: true,
    body: { schema: messageFeedbackRequestSchema, required: true },
    responses: { 200: { schema: R.MessageFeedbackResponse, description: 'The feedback now on the message.' } },
    errors: [...KEYED, ...JSON_POST, ...SESSION, 'message_not_found', 'message_not_rateable'],
    handler: ({ core, caller, params, body }) =>
      core.api.messageFeedback(caller, { widgetId: params.widgetId!, sessionId: params.sessionId!, messageId: params.messageId! }, body),
  },
  {
    method: 'get',
    path: conversation,
    operationId: 'getSession',
    tag: 'Sessions',
    summary: 'Read a session',
    description: 'The session state: status, message count, rating, timestamps, and `handoff` (null while the AI answers; `requested` or `active` while a person has the conversation).',
    auth: 'key',
    scopes: CHAT,
    identityToken: true,
    responses: { 200: { schema: R.SessionResponse, description: 'The session.' } },
    errors: [...KEYED, ...SESSION],
    handler: ({ core, caller, params }) => core.api.getSession(caller, params.widgetId!, params.sessionId!),
  },
  {
    method: 'get',
    path: `${conversation}/events`,
    operationId: 'streamSessionEvents',
    tag: 'Sessions',
    summary: 'Follow a session live',
    description: [
      'Server-sent events (`text/event-stream`) of the session from now on: `message.created` (data: the history item, with `author` `{ type: "operator", name }`) for replies a person writes during a handoff, and `session.updated` (data: the session as get-session shows it) on every change of status, handoff or rating.',
      'Each event has an `id:`; reconnecting with the `Last-Event-ID` header resumes right after it, with no event missed or repeated (browsers\' `EventSource` does this itself). Without the header the stream starts at the newest event, with no backlog. A comment line (`: ping`) every 15 s keeps the connection open.',
      'Free. At most 3 streams of one session and 1,000 per API key may be open at once (per server instance); one more is refused with 429 `rate_limited`.',
    ].join('\n\n'),
    auth: 'key',
    scopes: CHAT,
    identityToken: true,
    responses: {
      200: {
        schema: z.string().describe('`id: <event id>`, `event: message.created | session.updated`, `data: <JSON>` per event.'),
        description: 'The event stream.',
        contentType: 'text/event-stream',
      },
    },
    errors: [...KEYED, ...IDENTITY_TOKEN, 'widget_not_found', 'session_not_found', 'identity_mismatch'],
    handler: ({ core, caller, params, c }) =>
      sessionEventStream(c, { core, principal: caller, widgetId: params.widgetId!, sessionId: params.sessionId! }, c.var.server.eventStreams),
  },
  {
    method: 'get',
    path: '/widget/config',
    operationId: 'getWidgetConfig',
    tag: 'Widget',
    summary: "Read the widget's configuration",
    description:
      'What the embedded widget learns from its key: the widget id, name, greeting, language and theme defaults. Only for a widget public key (`pk_live_…`) sent from one of its allowed origins (the response then carries `Access-Control-Allow-Origin`); a server key answers 403 `insufficient_scope`. Free.',
    auth: 'key',
    responses: { 200: { schema: R.WidgetConfigResponse, description: "The key's widget." } },
    errors: [...KEYED, 'widget_not_found'],
    handler: ({ core, caller }) => core.api.getWidgetConfig(caller),
  },
];
