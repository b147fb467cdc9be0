import type { Context, Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { isSvcError, SvcError, type Engine, type Principal, type TurnCallOptions, type TurnObserver, type TurnResult } from '@svc/core';
import type { Logger } from 'pino';
import type { AppEnv } from './auth.js';
import { readRequiredJsonBody } from './body.js';
import { turnIdempotency } from './idempotency.js';
import { parseChatRequest } from './chat-request.js';
import { errorBody, sendResult } from './respond.js';
import { SSE_KEEPALIVE, SSE_KEEPALIVE_MS, sseEvent } from './sse.js';
import { startStreamedTurn, type AcceptedTurn, type StreamedTurnStart, type TurnFeedEvent } from './turn-feed.js';
import { UI_MESSAGE_STREAM_DONE, uiMessageChunks } from './ui-message-stream.js';

export interface StreamRoutesOptions {
  engine: Engine;
  logger: Logger;
  /** How often a comment line keeps an idle stream open. Default 15,000 ms (DESIGN.md section 4). */
  keepAliveMs?: number;
}

type TurnMethod = (
  principal: Principal,
  widgetId: string,
  sessionId: string,
  body: unknown,
  observer?: TurnObserver,
  call?: TurnCallOptions,
) => Promise<TurnResult>;

/** Writes the frames for one event of a turn (its start, a delta, its outcome) through `write`, in order. */
type FrameWriter = (write: (frame: string) => void, event: TurnFeedEvent | { type: 'start'; turn: Pick<AcceptedTurn, 'messageId' | 'sessionId'> }) => void;

const conversation = '/widgets/:widgetId/conversations/:sessionId';

/**
 * Streaming turns (DESIGN.md section 4), registered on the API router before the sync turn routes:
 * - `response_type: "stream"` on POST …/messages and …/form-submissions, answered as server-sent events
 *   (`message.start`, `message.delta`…, `message.completed` or `message.failed`); other response types fall
 *   through to the ordinary handlers;
 * - POST …/chat, the Vercel AI SDK UI message stream protocol, so `useChat` talks to the service directly.
 * Refusals before the turn is accepted are thrown, so they answer as the usual JSON errors with their status.
 * A client that goes away stops receiving, nothing more: the turn runs to its end and lands in the history.
 */
export function registerStreamRoutes(api: Hono<AppEnv>, options: StreamRoutesOptions): void {
  const { engine } = options;
  const keepAliveMs = options.keepAliveMs ?? SSE_KEEPALIVE_MS;
  const turnRoutes: Array<[string, TurnMethod]> = [
    ['messages', (...args) => engine.sendMessage(...args)],
    ['form-submissions', (...args) => engine.submitForm(...args)],
  ];
  for (const [suffix, run] of turnRoutes) {
    api.post(`${conversation}/${suffix}`, async (c, next) => {
      const body = await readRequiredJsonBody(c);
      if (body['response_type'] !== 'stream') return next();
      // The engine records the key in the transaction that accepts the turn; a repeat streams the first reply.
      const idempotency = await turnIdempotency(c);
      const start = await startStreamedTurn((observer) =>
        run(c.get('principal'), c.req.param('widgetId'), c.req.param('sessionId'), body, observer, { idempotency }),
      );
      return respond(c, start, { keepAliveMs, logger: options.logger, frames: turnEventFrames });
    });
  }

  api.post(`${conversation}/chat`, async (c) => {
    const idempotency = await turnIdempotency(c);
    const { message, contentField } = parseChatRequest(await readRequiredJsonBody(c));
    const start = await startStreamedTurn((observer) =>
      engine.sendMessage(c.get('principal'), c.req.param('widgetId'), c.req.param('sessionId'), { ...message, response_type: 'stream' }, observer, {
        idempotency,
      }),
    ).catch((error: unknown) => {
      // The engine names `content`; the caller sent it as the text parts of its last message.
      throw isSvcError(error) && error.field === 'content' ? new SvcError(error.code, error.message, { field: contentField }) : error;
    });
    // The header by which the AI SDK's client recognises the protocol version it parses.
    c.header('x-vercel-ai-ui-message-stream', 'v1');
    return respond(c, start, { keepAliveMs, logger: options.logger, frames: uiMessageFrames() });
  });
}

/** `message.*` events of DESIGN.md section 4. */
const turnEventFrames: FrameWriter = (write, event) => {
  switch (event.type) {
    case 'start':
      write(sseEvent('message.start', { messageId: event.turn.messageId, sessionId: event.turn.sessionId }));
      break;
    case 'delta':
      write(sseEvent('message.delta', { text: event.text }));
      break;
    case 'completed':
      write(sseEvent('message.completed', { data: event.data, meta: { creditsConsumed: event.creditsConsumed } }));
      break;
    case 'failed':
      write(sseEvent('message.failed', errorBody(event.error).body));
      break;
  }
};

/** The same turn as UI message stream chunks, one `data:` line each, closed by `[DONE]`. */
function uiMessageFrames(): FrameWriter {
  const chunks = uiMessageChunks();
  return (write, event) => {
    for (const chunk of chunks(event)) write(sseEvent(undefined, chunk));
    if (event.type === 'completed' || event.type === 'failed') write(UI_MESSAGE_STREAM_DONE);
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
      if (event.type === 'completed' || event.type === 'failed') finish();
    });
    try {
      await finished;
    } finally {
      clearInterval(keepAlive);
    }
  });
}
