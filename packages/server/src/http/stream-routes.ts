import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import { isSvcError, SvcError, type Core, type Principal, type TurnCallOptions, type TurnObserver, type TurnResult } from '@svc/core';
import { TURN_EVENT, UI_MESSAGE_STREAM_DONE, type TurnEventData, type TurnEventName } from '@svc/core/schemas';
import type { Logger } from 'pino';
import type { AppEnv } from './auth.js';
import { parseChatRequest } from './chat-request.js';
import { errorBody, sendResult } from './respond.js';
import { SSE_KEEPALIVE, SSE_KEEPALIVE_MS, sseEvent } from './sse.js';
import { startStreamedTurn, type AcceptedTurn, type StreamedTurnStart, type TurnFeedEvent } from './turn-feed.js';
import { uiMessageChunks } from './ui-message-stream.js';

export interface StreamOptions {
  logger: Logger;
  /** How often a comment line keeps an idle stream open. Default 15,000 ms (DESIGN.md section 4). */
  keepAliveMs?: number | undefined;
}

/** Runs a turn with an observer: the engine's sendMessage or submitForm with the caller's arguments bound. */
type ObservedTurn = (observer: TurnObserver) => Promise<TurnResult>;

/** Writes the frames for one event of a turn (its start, a delta, its outcome) through `write`, in order. */
type FrameWriter = (write: (frame: string) => void, event: TurnFeedEvent | { type: 'start'; turn: Pick<AcceptedTurn, 'messageId' | 'sessionId'> }) => void;

/**
 * `response_type: "stream"` on POST …/messages and …/form-submissions (DESIGN.md section 4), answered as server-sent
 * events (`message.start`, `message.delta`…, `message.completed` or `message.failed`). Refusals before the turn is
 * accepted are thrown, so they answer as the usual JSON errors with their status. A client that goes away stops
 * receiving, nothing more: the turn runs to its end and lands in the history.
 */
export async function streamTurn(c: Context<AppEnv>, run: ObservedTurn, options: StreamOptions): Promise<Response> {
  const start = await startStreamedTurn(run);
  return respond(c, start, { keepAliveMs: options.keepAliveMs ?? SSE_KEEPALIVE_MS, logger: options.logger, frames: turnEventFrames });
}

/**
 * POST …/chat: the Vercel AI SDK UI message stream protocol, so `useChat` talks to the service directly. The text
 * parts of the request's last message are the visitor's message; the turn is the same streamed turn.
 */
export async function chatTurn(
  c: Context<AppEnv>,
  call: { core: Core; principal: Principal; widgetId: string; sessionId: string; body: Record<string, unknown> | undefined; idempotency: TurnCallOptions['idempotency'] },
  options: StreamOptions,
): Promise<Response> {
  const { message, contentField } = parseChatRequest(call.body ?? {});
  const start = await startStreamedTurn((observer) =>
    call.core.api.sendMessage(call.principal, call.widgetId, call.sessionId, { ...message, response_type: 'stream' }, observer, {
      idempotency: call.idempotency,
    }),
  ).catch((error: unknown) => {
    // The engine names `content`; the caller sent it as the text parts of its last message.
    throw isSvcError(error) && error.field === 'content' ? new SvcError(error.code, error.message, { field: contentField }) : error;
  });
  // The header by which the AI SDK's client recognises the protocol version it parses.
  c.header('x-vercel-ai-ui-message-stream', 'v1');
  return respond(c, start, { keepAliveMs: options.keepAliveMs ?? SSE_KEEPALIVE_MS, logger: options.logger, frames: uiMessageFrames() });
}

/** What the AI SDK's own ids look like (`generateId()`: 16 characters) and what a session id may be. */
const CHAT_ID = /^[A-Za-z0-9_\-.:@]{16,128}$/;

/**
 * POST /widgets/{widgetId}/chat (DESIGN.md section 4, revised): the body `DefaultChatTransport` sends as it is, its
 * chat `id` naming the conversation, which is created on first use (a `visitorId` member names the visitor; else the
 * chat id does). So a `useChat` app sets only `api` and `headers`. The conversation is the calling key's (core's
 * `openChat` derives its session id from the key and the chat id).
 */
export async function chatByIdTurn(
  c: Context<AppEnv>,
  call: { core: Core; principal: Principal; widgetId: string; body: Record<string, unknown> | undefined; idempotency: TurnCallOptions['idempotency'] },
  options: StreamOptions,
): Promise<Response> {
  const { id, visitorId, ...rest } = call.body ?? {};
  if (typeof id !== 'string' || !CHAT_ID.test(id)) {
    throw new SvcError('validation_failed', 'id must be the chat id the AI SDK sends: 16 to 128 letters, digits or _ - . : @ (useChat generates one).', { field: 'id' });
  }
  if (visitorId !== undefined && typeof visitorId !== 'string') throw new SvcError('validation_failed', 'visitorId must be a string.', { field: 'visitorId' });
  const { sessionId } = await call.core.api.openChat(call.principal, { widgetId: call.widgetId, chatId: id, visitorId });
  return chatTurn(c, { ...call, sessionId, body: { ...rest, id } }, options);
}

/** One turn event: its data typed by the event's schema in @svc/core/schemas, so a wrong field fails to compile. */
const turnEvent = <N extends TurnEventName>(name: N, data: TurnEventData<N>): string => sseEvent(name, data);

/** The turn events of DESIGN.md section 4 (`TURN_EVENT`). */
const turnEventFrames: FrameWriter = (write, event) => {
  switch (event.type) {
    case 'start':
      write(turnEvent(TURN_EVENT.start, { messageId: event.turn.messageId, sessionId: event.turn.sessionId }));
      break;
    case 'delta':
      write(turnEvent(TURN_EVENT.delta, { text: event.text }));
      break;
    case 'completed':
      write(turnEvent(TURN_EVENT.completed, { data: event.data, meta: { creditsConsumed: event.creditsConsumed } }));
      break;
    case 'failed':
      write(turnEvent(TURN_EVENT.failed, errorBody(event.error).body));
      break;
    case 'handoff':
      // The 202 a sync call gets during a handoff, as the stream's last event.
      write(turnEvent(TURN_EVENT.handoff, { data: { messageId: null, status: 'processing' }, meta: { creditsConsumed: 0 } }));
      break;
  }
};

/** The same turn as UI message stream chunks, one `data:` line each, closed by `[DONE]`. */
function uiMessageFrames(): FrameWriter {
  const chunks = uiMessageChunks();
  return (write, event) => {
    for (const chunk of chunks(event)) write(sseEvent(undefined, chunk));
    if (event.type === 'completed' || event.type === 'failed' || event.type === 'handoff') write(UI_MESSAGE_STREAM_DONE);
  };
}

interface RespondOptions {
  keepAliveMs: number;
  logger: Logger;
  frames: FrameWriter;
}

/**
 * Streams an accepted turn. The engine accepts every turn it answers in stream mode (a replay included), so a
 * result without acceptance cannot stream; should one come, it is answered as the JSON it is.
 */
function respond(c: Context<AppEnv>, start: StreamedTurnStart, options: RespondOptions): Response {
  if ('answered' in start) return sendResult(c, start.answered);
  const { accepted } = start;
  // As every other replay says (app.ts, idempotency.ts): the same Idempotency-Key answered from its first turn.
  if (accepted.replayed) c.header('Idempotent-Replayed', 'true');
  return eventStream(c, options, { turn: accepted, listen: (listener) => accepted.listen(listener), stopListening: () => accepted.stopListening() });
}

interface EventSource {
  turn: Pick<AcceptedTurn, 'messageId' | 'sessionId'>;
  listen(listener: (event: TurnFeedEvent) => void): void;
  stopListening(): void;
}

function eventStream(c: Context<AppEnv>, options: RespondOptions, source: EventSource): Response {
  // Proxies such as nginx buffer responses unless told not to; a buffered stream is no stream.
  c.header('X-Accel-Buffering', 'no');
  return streamSSE(c, async (stream) => {
    // One synchronous write per frame: the transform stream behind `stream` keeps them in call order and
    // hands each to the socket as it comes, so a delta is on the wire as soon as the agent writes it.
    const write = (frame: string): void => {
      void stream.write(frame);
    };
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const keepAlive = setInterval(() => write(SSE_KEEPALIVE), options.keepAliveMs);
    stream.onAbort(() => {
      // The client went away: stop writing to it. The turn itself is not told; it finishes and is stored.
      source.stopListening();
      finish();
    });
    options.frames(write, { type: 'start', turn: source.turn });
    source.listen((event) => {
      if (event.type === 'failed') {
        const { status } = errorBody(event.error);
        if (status >= 500) options.logger.error({ requestId: c.get('requestId'), err: event.error }, 'streamed turn failed');
      }
      options.frames(write, event);
      if (event.type === 'completed' || event.type === 'failed' || event.type === 'handoff') finish();
    });
    try {
      await finished;
    } finally {
      clearInterval(keepAlive);
    }
  });
}
