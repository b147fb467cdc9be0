import { SvcApiError } from './errors.js';
import { MESSAGE_COMPLETED, MESSAGE_DELTA, MESSAGE_FAILED, MESSAGE_HANDOFF, MESSAGE_START, readEventStream, type ServerSentEvent, type TURN_EVENT } from '@svc/core/event-stream';
import type { TurnStreamEvent as WireTurnStreamEvent } from '@svc/core/schemas';
import { sessionPath } from './paths.js';
import { readResponse } from './response.js';
import type { FormSubmissionBody, MessageReply, Meta, PostOptions, SendMessageBody } from './types.js';

/**
 * Streaming turns (DESIGN.md section 4): `response_type: "stream"` answered as server-sent events. Refusals
 * before the turn is accepted come back as the usual JSON errors and reject like any other call; after that,
 * the outcome is an event (`message.completed` or `message.failed`).
 */

/**
 * A turn event as the iterator yields it: the event's name as `type` beside the fields of its data. The shapes are
 * the stream protocol's, defined once in @svc/core/schemas (types only: no schema reaches the bundle).
 */
export type TurnStreamEvent = WireTurnStreamEvent;

/** The turn was accepted: its reply will land in the history under `messageId`, whatever happens to the stream. */
export type MessageStartEvent = Extract<TurnStreamEvent, { type: typeof TURN_EVENT.start }>;

/** A piece of the reply's Markdown, in order; the pieces concatenate to the final content. */
export type MessageDeltaEvent = Extract<TurnStreamEvent, { type: typeof TURN_EVENT.delta }>;

/** The reply, exactly as a sync call returns it, and what the turn cost. */
export type MessageCompletedEvent = Extract<TurnStreamEvent, { type: typeof TURN_EVENT.completed }>;

/** The turn failed after acceptance (e.g. `agent_unavailable`): the visitor's message is kept, nothing billed. */
export type MessageFailedEvent = Extract<TurnStreamEvent, { type: typeof TURN_EVENT.failed }>;

/**
 * No AI reply: a person has the conversation (the session's `handoff` is set). Their reply comes on the session
 * event stream (`client.sessions.events`) and in the history. `data` is what a sync call answers then.
 */
export type MessageHandoffEvent = Extract<TurnStreamEvent, { type: typeof TURN_EVENT.handoff }>;

/** An accepted streaming turn: iterate it for its events. Breaking out of the loop closes the connection. */
export interface TurnStream extends AsyncIterable<TurnStreamEvent> {
  /** The `X-Request-Id` response header. */
  readonly requestId: string | undefined;
}

export type StreamMessageBody = Omit<SendMessageBody, 'response_type'>;
export type StreamFormBody = Omit<FormSubmissionBody, 'response_type'>;

export interface StreamOptions extends PostOptions {
  /**
   * The stream is given up (the iterator throws a `timeout` SvcApiError) when nothing arrives for this long.
   * The server writes a comment every 15 s, so only a dead connection stays silent. Default 45,000 ms.
   */
  idleTimeoutMs?: number;
}

export interface StreamingOptions {
  baseUrl: string;
  apiKey: string;
  fetch: typeof globalThis.fetch | undefined;
  /** Time allowed until the server accepts the turn (the response headers). */
  timeoutMs: number;
  headers: Record<string, string>;
}

export const DEFAULT_IDLE_TIMEOUT_MS = 45_000;

const EVENT_TYPES = new Set<string>([MESSAGE_START, MESSAGE_DELTA, MESSAGE_COMPLETED, MESSAGE_FAILED, MESSAGE_HANDOFF]);

/** Starts a streaming turn at `path`; see `messages.stream`. */
export type StartStream = (target: { path: string; sessionId: string }, body: object, options: StreamOptions | undefined) => Promise<TurnStream>;

export function createStreamStarter(options: StreamingOptions): StartStream {
  return async ({ path, sessionId }, body, call) => {
    const signal = call?.signal;
    signal?.throwIfAborted();
    const label = `POST ${path}`;
    const controller = new AbortController();
    const forwardAbort = (): void => controller.abort(signal?.reason);
    signal?.addEventListener('abort', forwardAbort, { once: true });
    const headers = new Headers({ accept: 'text/event-stream', 'content-type': 'application/json', 'x-api-key': options.apiKey });
    for (const extra of [options.headers, call?.headers]) for (const [name, value] of Object.entries(extra ?? {})) headers.set(name, value);
    if (call?.idempotencyKey !== undefined) headers.set('idempotency-key', call.idempotencyKey);
    const timeoutMs = call?.timeoutMs ?? options.timeoutMs;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const fetchImpl = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
    let response: Response;
    try {
      response = await fetchImpl(`${options.baseUrl.replace(/\/+$/, '')}${path}`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ ...body, response_type: 'stream' }),
        signal: controller.signal,
      });
    } catch (error) {
      signal?.removeEventListener('abort', forwardAbort);
      if (signal?.aborted) throw signal.reason;
      if (timedOut) throw new SvcApiError({ status: 0, code: 'timeout', message: `${label}: the turn was not accepted within ${timeoutMs} ms`, cause: error });
      const cause = (error as { cause?: unknown }).cause ?? error;
      throw new SvcApiError({ status: 0, code: 'network_error', message: `${label}: could not reach the server: ${cause instanceof Error ? cause.message : String(cause)}`, cause });
    } finally {
      clearTimeout(timer);
    }
    const requestId = response.headers.get('x-request-id') ?? undefined;
    const isStream = (response.headers.get('content-type') ?? '').toLowerCase().startsWith('text/event-stream');
    if (!response.ok || !isStream || response.body === null) {
      signal?.removeEventListener('abort', forwardAbort);
      // A refusal (JSON error → SvcApiError), or a replayed turn answered as JSON: shown as the events it had.
      const result = readResponse(response, await response.text(), false);
      const data = result.data as MessageReply | null;
      if (result.status !== 200 || typeof data?.messageId !== 'string' || typeof data.content !== 'string') {
        throw new SvcApiError({ status: result.status, code: 'invalid_response', message: `${label}: expected an event stream, got ${result.status} JSON`, requestId, body: result });
      }
      return replayedStream({ data, meta: result.meta as Meta, sessionId, requestId });
    }
    const idleMs = call?.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
    return {
      requestId,
      [Symbol.asyncIterator]: () => turnEvents({ body: response.body!, controller, idleMs, label, requestId, detach: () => signal?.removeEventListener('abort', forwardAbort), signal }),
    };
  };
}

interface EventsInput {
  body: ReadableStream<Uint8Array>;
  controller: AbortController;
  idleMs: number;
  label: string;
  requestId: string | undefined;
  detach: () => void;
  signal: AbortSignal | undefined;
}

async function* turnEvents(input: EventsInput): AsyncGenerator<TurnStreamEvent, void, undefined> {
  const { controller, label } = input;
  const watched = watchActivity(input.body, input.idleMs);
  let finished = false;
  try {
    for await (const raw of readEventStream(watched.body)) {
      const event = toTurnEvent(raw);
      if (event === null) continue;
      yield event;
      // Start, deltas, then one outcome (completed, failed or handoff): anything past the first two ends the turn.
      if (event.type !== MESSAGE_START && event.type !== MESSAGE_DELTA) {
        finished = true;
        return;
      }
    }
    throw new SvcApiError({ status: 200, code: 'invalid_response', message: `${label}: the stream ended before the turn completed`, requestId: input.requestId });
  } catch (error) {
    if (input.signal?.aborted) throw input.signal.reason;
    if (watched.idle()) {
      throw new SvcApiError({ status: 200, code: 'timeout', message: `${label}: nothing received for ${input.idleMs} ms`, requestId: input.requestId, cause: error });
    }
    if (error instanceof SvcApiError) throw error;
    const detail = error instanceof Error ? error.message : String(error);
    throw new SvcApiError({ status: 200, code: 'network_error', message: `${label}: the stream broke off: ${detail}`, requestId: input.requestId, cause: error });
  } finally {
    watched.stop();
    input.detach();
    // An early exit (break, or a failure) closes the connection; the server keeps the turn going regardless.
    if (!finished) controller.abort();
  }
}

/**
 * The same body, failing once no bytes (comments included) arrived for `idleMs`. The failure is raised in the
 * stream itself rather than only by aborting the request, so a reader waiting on a silent body wakes up
 * whatever the fetch implementation does with the abort.
 */
export function watchActivity(source: ReadableStream<Uint8Array>, idleMs: number) {
  let idle = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let fail: (reason: Error) => void = () => undefined;
  const arm = (): void => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      idle = true;
      fail(new Error(`no data for ${idleMs} ms`));
    }, idleMs);
  };
  const body = source.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      start(controller) {
        fail = (reason) => controller.error(reason);
        arm();
      },
      transform(chunk, controller) {
        arm();
        controller.enqueue(chunk);
      },
    }),
  );
  return { body, idle: () => idle, stop: () => clearTimeout(timer) };
}

function toTurnEvent(raw: ServerSentEvent): TurnStreamEvent | null {
  // Unknown events are skipped: a newer server may add some, and an older client must keep working.
  if (!EVENT_TYPES.has(raw.event)) return null;
  let data: unknown = null;
  try {
    data = JSON.parse(raw.data);
  } catch {
    // Not JSON, or JSON that is no object (checked below): the same broken event to the caller.
  }
  if (typeof data !== 'object' || data === null) {
    throw new SvcApiError({ status: 200, code: 'invalid_response', message: `The ${raw.event} event carried no JSON object: ${raw.data.slice(0, 80)}` });
  }
  return { type: raw.event, ...data } as TurnStreamEvent;
}

function replayedStream(input: { data: MessageReply; meta: Meta; sessionId: string; requestId: string | undefined }): TurnStream {
  const { data, meta, sessionId, requestId } = input;
  return {
    requestId,
    async *[Symbol.asyncIterator]() {
      yield { type: MESSAGE_START, messageId: data.messageId, sessionId } satisfies MessageStartEvent;
      if (data.content !== '') yield { type: MESSAGE_DELTA, text: data.content } satisfies MessageDeltaEvent;
      yield { type: MESSAGE_COMPLETED, data, meta } satisfies MessageCompletedEvent;
    },
  };
}

/** The streaming methods of `client.messages` and `client.forms`. */
export interface MessageStreams {
  /**
   * Sends a visitor message and streams the reply as it is written.
   *
   * @example
   * const stream = await client.messages.stream('wgt_123', 'sess_abc', { content: 'Do you ship to Canada?' });
   * for await (const event of stream) {
   *   if (event.type === 'message.delta') process.stdout.write(event.text);
   *   if (event.type === 'message.completed') console.log('\ncredits:', event.meta.creditsConsumed);
   *   if (event.type === 'message.failed') console.error(event.error.code);
   * }
   */
  stream(widgetId: string, sessionId: string, body: StreamMessageBody, options?: StreamOptions): Promise<TurnStream>;
}

export interface FormStreams {
  /**
   * Submits the answers to a surfaced form and streams the answer turn; a rejected submission throws the
   * 400 `form_rejected` SvcApiError before any stream opens.
   *
   * @example
   * const stream = await client.forms.stream('wgt_123', 'sess_abc', { formId: 'contact_sales', answers: { name: 'Ada', email: 'ada@example.com' } });
   * for await (const event of stream) if (event.type === 'message.delta') render(event.text);
   */
  stream(widgetId: string, sessionId: string, body: StreamFormBody, options?: StreamOptions): Promise<TurnStream>;
}

export function createMessageStreams(start: StartStream): MessageStreams {
  return { stream: (widgetId, sessionId, body, options) => start({ path: `${sessionPath(widgetId, sessionId)}/messages`, sessionId }, body, options) };
}

export function createFormStreams(start: StartStream): FormStreams {
  return { stream: (widgetId, sessionId, body, options) => start({ path: `${sessionPath(widgetId, sessionId)}/form-submissions`, sessionId }, body, options) };
}
