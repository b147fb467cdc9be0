/**
 * An in-memory stand-in for the service's widget endpoints, served through msw, so the SDK is tested over its real
 * HTTP layer. It follows the contract the widget relies on (README, DESIGN.md 4 and 7): envelopes, error bodies,
 * pagination, 202 replies, form rejections. Tests steer it through `next` and inspect `requests`.
 */
import { SESSION_EVENT, TURN_EVENT, type SessionEventName } from '@svc/core/schemas';
import { http, HttpResponse, type JsonBodyType } from 'msw';
import { setupServer } from 'msw/node';
import type { Handoff, HistoryItem, MessageReply, SurfacedForm, WidgetConfig } from '../src/api-types.js';

export const BASE = 'https://svc.test';
export const API_KEY = 'pk_live_test_key';
export const WIDGET_ID = 'wgt_demo';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

interface FakeSession {
  visitorId: string;
  status: 'active' | 'resolved' | 'expired';
  rating: 'positive' | 'negative' | null;
  history: HistoryItem[];
  /** Identity `sub` the session was created with, if any (DESIGN.md 4: bound to it). */
  sub: string | null;
  handoff: Handoff | null;
}

const sessionView = (id: string, current: FakeSession) => ({
  sessionId: id,
  widgetId: WIDGET_ID,
  visitorId: current.visitorId,
  status: current.status,
  rating: current.rating,
  messageCount: current.history.length,
  createdAt: new Date().toISOString(),
  resolvedAt: null,
  handoff: current.handoff,
});

/**
 * What the next turn answers. Asked for a stream (`response_type: "stream"`, as the widget always does), the service
 * answers as the real one (DESIGN.md 4): `message.start`, the reply word by word in `message.delta`s, then
 * `message.completed` with the sync reply. `hold`: the stream waits for it after the second delta. `processing`: the
 * connection breaks after `message.start` and `deltas` deltas (sync: a 202), and the reply lands in the history
 * after `afterPolls` reads. `failed`: `message.failed` after `message.start`. An error status refuses the turn before it is accepted.
 */
export type TurnOutcome =
  | { reply: Partial<MessageReply>; hold?: Promise<void> }
  | { processing: Partial<MessageReply>; afterPolls?: number; deltas?: number }
  | { failed: { code: string; message: string } }
  /** A person has the conversation: the visitor's message is stored, no AI reply (`message.handoff`). */
  | { handoff: true }
  | { status: number; code: string; message?: string; field?: string; headers?: Record<string, string> };

const META = { creditsConsumed: 1 };
const CREDITS = { chat: 1, retrieval: 0, orchestration: 0, embedding: 0, rerank: 0, plugin: 0, pluginRerank: 0, crawler: 0 };

function subOf(token: string | null): string | null {
  if (!token) return null;
  try {
    return (JSON.parse(atob(token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))) as { sub: string }).sub;
  } catch {
    return null;
  }
}

function error(status: number, code: string, message = code, field?: string, headers?: Record<string, string>): Response {
  return HttpResponse.json({ error: { code, message, ...(field ? { field } : {}) }, meta: { creditsConsumed: 0 } }, { status, ...(headers ? { headers } : {}) });
}

export function createFakeService() {
  const requests: RecordedRequest[] = [];
  const sessions = new Map<string, FakeSession>();
  const state = {
    config: { widgetId: WIDGET_ID, name: 'Outdoor Shop', greeting: 'Hello! How can I help?', language: 'en', theme: {} } as WidgetConfig,
    /** Outcomes for the coming turns, in order; when empty, turns answer `Echo: <content>`. */
    next: [] as TurnOutcome[],
    /** Errors for the coming requests of any kind (checked before the endpoint runs), in order. */
    failNext: [] as TurnOutcome[],
    pageSize: 100,
    /** Streamed turns are run, then the connection breaks before `message.start`. */
    cutBeforeStart: false,
    /** The events of each streamed turn by `Idempotency-Key`: a repeated key replays them (DESIGN.md 4). */
    replays: new Map<string, [string, unknown][]>(),
    sessionCount: 0,
    messageCount: 0,
    pendingPolls: new Map<string, { reply: HistoryItem; polls: number; session: string }>(),
    /** Each session's event log (DESIGN.md 6): ids strictly increasing, what `…/events` sends and resumes from. */
    eventLog: [] as { id: number; session: string; event: string; data: unknown }[],
  };
  /** Open `…/events` connections: the session each follows and how to write to it. */
  const listeners = new Set<{ session: string; controller: ReadableStreamDefaultController<Uint8Array> }>();
  const encoder = new TextEncoder();
  const frame = (entry: { id: number; event: string; data: unknown }): Uint8Array =>
    encoder.encode(`id: ${entry.id}\nevent: ${entry.event}\ndata: ${JSON.stringify(entry.data)}\n\n`);

  /** Records a session event and sends it to that session's open streams, as the service's event log does. */
  function publish(sessionId: string, event: SessionEventName, data: unknown): void {
    const entry = { id: state.eventLog.length + 1, session: sessionId, event, data };
    state.eventLog.push(entry);
    for (const listener of listeners) if (listener.session === sessionId) listener.controller.enqueue(frame(entry));
  }

  /** An operator's reply (DESIGN.md 6): stored in the history and published on the session's stream. */
  function operatorReply(sessionId: string, name: string, content: string): HistoryItem {
    const reply = item('assistant', content, { author: { type: 'operator', name } } as Partial<HistoryItem>);
    sessions.get(sessionId)!.history.push(reply);
    publish(sessionId, SESSION_EVENT.messageCreated, reply);
    return reply;
  }

  /** Sets the handoff and publishes the session view, as every change of the session does. */
  function setHandoff(sessionId: string, handoff: FakeSession['handoff']): void {
    const current = sessions.get(sessionId)!;
    current.handoff = handoff;
    publish(sessionId, SESSION_EVENT.sessionUpdated, sessionView(sessionId, current));
  }

  /** Breaks every open event stream, as a restarted service or a lost connection would. */
  function dropStreams(): void {
    for (const listener of listeners) listener.controller.error(new TypeError('network error'));
    listeners.clear();
  }

  async function record(request: Request): Promise<unknown> {
    const text = request.method === 'GET' ? '' : await request.clone().text();
    const body = text ? (JSON.parse(text) as unknown) : undefined;
    const headers = Object.fromEntries([...request.headers.entries()].map(([name, value]) => [name.toLowerCase(), value]));
    requests.push({ method: request.method, url: request.url, headers, body });
    return body;
  }

  function guard(request: Request): Response | null {
    if (request.headers.get('x-api-key') !== API_KEY) return error(401, 'invalid_api_key');
    const forced = state.failNext.shift();
    if (forced && 'status' in forced) return error(forced.status, forced.code, forced.message, forced.field, forced.headers);
    return null;
  }

  function session(id: string, request: Request): FakeSession | Response {
    const found = sessions.get(id);
    if (!found) return error(404, 'session_not_found');
    const sub = subOf(request.headers.get('x-identity-token'));
    if (found.sub !== null && found.sub !== sub) return error(403, 'identity_mismatch');
    return found;
  }

  const nextId = (): string => `msg_${String(++state.messageCount).padStart(4, '0')}`;
  const item = (role: 'user' | 'assistant', content: string, extra: Partial<HistoryItem> = {}): HistoryItem => ({
    messageId: nextId(),
    role,
    content,
    createdAt: new Date().toISOString(),
    ...extra,
  });

  /** A `text/event-stream` answer: the events in order, waiting for `hold` after the third, broken at the end if `cut`. */
  function eventStream(events: [string, unknown][], hold?: Promise<void>, cut = false): Response {
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        for (const [index, [event, data]] of events.entries()) {
          controller.enqueue(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
          if (index === 2 && hold) await hold;
        }
        // error() drops what the reader has not taken yet: the events go out first, as over a real connection.
        if (cut) setTimeout(() => controller.error(new TypeError('network error')), 100);
        else controller.close();
      },
    });
    return new HttpResponse(body, { headers: { 'Content-Type': 'text/event-stream' } });
  }

  function turn(current: FakeSession, userContent: string, sessionId: string, stream: boolean, key: string | null): Response {
    const replay = key && state.replays.get(key);
    if (replay) return eventStream(replay);
    if (current.status !== 'active') return error(409, 'session_not_active');
    const outcome = state.next.shift() ?? { reply: { content: `Echo: ${userContent}` } };
    if ('status' in outcome) return error(outcome.status, outcome.code, outcome.message, outcome.field, outcome.headers);
    current.history.push(item('user', userContent));
    if ('handoff' in outcome) {
      return eventStream([[TURN_EVENT.handoff, { data: { messageId: null, status: 'processing' }, meta: { creditsConsumed: 0 } }]]);
    }
    if ('failed' in outcome) {
      return eventStream([
        [TURN_EVENT.start, { messageId: nextId(), sessionId }],
        [TURN_EVENT.failed, { error: outcome.failed, meta: { creditsConsumed: 0 } }],
      ]);
    }
    const data = 'reply' in outcome ? outcome.reply : outcome.processing;
    const reply: MessageReply = {
      messageId: nextId(),
      content: 'Reply',
      products: [],
      actions: [],
      sources: [],
      sessionEnded: false,
      credits: CREDITS,
      usage: { inputTokens: 1, outputTokens: 1 },
      ...data,
    };
    const stored = item('assistant', reply.content, { messageId: reply.messageId, ...(reply.products.length ? { products: reply.products } : {}) });
    const start: [string, unknown] = [TURN_EVENT.start, { messageId: reply.messageId, sessionId }];
    const deltas = (reply.content.match(/\S+\s*/g) ?? []).map((text): [string, unknown] => [TURN_EVENT.delta, { text }]);
    if ('processing' in outcome) {
      state.pendingPolls.set(reply.messageId, { reply: stored, polls: outcome.afterPolls ?? 1, session: sessionId });
      if (stream) return eventStream([start, ...deltas.slice(0, outcome.deltas ?? 0)], undefined, true);
      return HttpResponse.json({ data: { messageId: reply.messageId, status: 'processing' }, meta: { creditsConsumed: 0 } }, { status: 202 });
    }
    current.history.push(stored);
    if (reply.sessionEnded) current.status = 'resolved';
    const events: [string, unknown][] = [start, ...deltas, [TURN_EVENT.completed, { data: reply, meta: META }]];
    if (stream && key) state.replays.set(key, events);
    if (stream && state.cutBeforeStart) return eventStream([], undefined, true);
    if (stream) return eventStream(events, outcome.hold);
    return HttpResponse.json({ data: reply, meta: META });
  }

  const base = `${BASE}/widgets/:widgetId/conversations`;
  const handlers = [
    http.get(`${BASE}/widget/config`, async ({ request }) => {
      await record(request);
      return guard(request) ?? HttpResponse.json({ data: state.config as unknown as JsonBodyType, meta: { creditsConsumed: 0 } });
    }),
    http.post(base, async ({ request }) => {
      const body = (await record(request)) as { visitorId?: string; sessionId?: string };
      const refused = guard(request);
      if (refused) return refused;
      // Public keys may not choose a session id (DESIGN.md 4).
      if (body.sessionId) return error(403, 'insufficient_scope', 'public keys cannot choose a session id');
      const id = `sess_${++state.sessionCount}`;
      sessions.set(id, { visitorId: body.visitorId!, status: 'active', rating: null, history: [], sub: subOf(request.headers.get('x-identity-token')), handoff: null });
      return HttpResponse.json(
        { data: { sessionId: id, widgetId: WIDGET_ID, visitorId: body.visitorId!, status: 'active', createdAt: new Date().toISOString(), resumed: false }, meta: META },
        { status: 201 },
      );
    }),
    http.get(`${base}/:sessionId`, async ({ request, params }) => {
      await record(request);
      const current = guard(request) ?? session(String(params.sessionId), request);
      if (current instanceof Response) return current;
      return HttpResponse.json({ data: sessionView(String(params.sessionId), current) as unknown as JsonBodyType, meta: META });
    }),
    http.get(`${base}/:sessionId/events`, async ({ request, params }) => {
      await record(request);
      const sessionId = String(params.sessionId);
      const current = guard(request) ?? session(sessionId, request);
      if (current instanceof Response) return current;
      // After the last event the client saw, or from now on.
      const after = request.headers.get('last-event-id');
      const from = after === null ? state.eventLog.length : Number(after);
      let listener: { session: string; controller: ReadableStreamDefaultController<Uint8Array> };
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          listener = { session: sessionId, controller };
          controller.enqueue(encoder.encode(': ping\n\n'));
          for (const entry of state.eventLog.slice(from)) if (entry.session === sessionId) controller.enqueue(frame(entry));
          listeners.add(listener);
        },
        cancel() {
          listeners.delete(listener);
        },
      });
      request.signal.addEventListener('abort', () => listeners.delete(listener));
      return new HttpResponse(body, { headers: { 'Content-Type': 'text/event-stream' } });
    }),
    http.get(`${base}/:sessionId/messages`, async ({ request, params }) => {
      await record(request);
      const current = guard(request) ?? session(String(params.sessionId), request);
      if (current instanceof Response) return current;
      for (const [id, pending] of state.pendingPolls) {
        if (pending.session === params.sessionId && --pending.polls <= 0) {
          current.history.push(pending.reply);
          state.pendingPolls.delete(id);
        }
      }
      const url = new URL(request.url);
      const start = Number(url.searchParams.get('cursor') ?? 0);
      const page = current.history.slice(start, start + Math.min(state.pageSize, Number(url.searchParams.get('limit') ?? 50)));
      const end = start + page.length;
      const hasMore = end < current.history.length;
      return HttpResponse.json({ data: page as unknown as JsonBodyType, pagination: { cursor: hasMore ? String(end) : null, hasMore }, meta: META });
    }),
    http.post(`${base}/:sessionId/messages`, async ({ request, params }) => {
      const body = (await record(request)) as { content: string; response_type?: string };
      const current = guard(request) ?? session(String(params.sessionId), request);
      if (current instanceof Response) return current;
      return turn(current, body.content, String(params.sessionId), body.response_type === 'stream', request.headers.get('idempotency-key'));
    }),
    http.post(`${base}/:sessionId/form-submissions`, async ({ request, params }) => {
      const body = (await record(request)) as { formId: string; answers: Record<string, unknown>; response_type?: string };
      const current = guard(request) ?? session(String(params.sessionId), request);
      if (current instanceof Response) return current;
      const content = `Submitted form "${body.formId}": ${JSON.stringify(body.answers)}`;
      return turn(current, content, String(params.sessionId), body.response_type === 'stream', request.headers.get('idempotency-key'));
    }),
    http.post(`${base}/:sessionId/end`, async ({ request, params }) => {
      await record(request);
      const current = guard(request) ?? session(String(params.sessionId), request);
      if (current instanceof Response) return current;
      current.status = 'resolved';
      publish(String(params.sessionId), SESSION_EVENT.sessionUpdated, sessionView(String(params.sessionId), current));
      return HttpResponse.json({ data: { sessionId: params.sessionId as string, status: 'resolved', resolvedAt: new Date().toISOString() }, meta: META });
    }),
    http.post(`${base}/:sessionId/rate`, async ({ request, params }) => {
      const body = (await record(request)) as { rating: 'positive' | 'negative' };
      const current = guard(request) ?? session(String(params.sessionId), request);
      if (current instanceof Response) return current;
      if (current.status === 'active') return error(409, 'session_active');
      current.rating = body.rating;
      return HttpResponse.json({ data: { sessionId: params.sessionId as string, rating: body.rating }, meta: META });
    }),
  ];

  const initial = structuredClone({ config: state.config, pageSize: state.pageSize });
  /** Forgets everything, as a fresh service would. */
  function clear(): void {
    requests.length = 0;
    sessions.clear();
    dropStreams();
    Object.assign(state, structuredClone(initial), { next: [], failNext: [], sessionCount: 0, messageCount: 0, pendingPolls: new Map(), replays: new Map(), eventLog: [] });
  }

  return {
    server: setupServer(...handlers),
    requests,
    sessions,
    state,
    item,
    clear,
    operatorReply,
    setHandoff,
    dropStreams,
    /** How many event streams are open now. */
    openStreams: () => listeners.size,
  };
}

export type FakeService = ReturnType<typeof createFakeService>;

/** A sample form with one question of every kind (DESIGN.md 4). */
export const EVERY_KIND_FORM: SurfacedForm = {
  formId: 'contact_sales',
  title: 'Talk to sales',
  questions: [
    { id: 'name', label: 'Name', kind: 'text', required: true },
    { id: 'notes', label: 'Notes', kind: 'textarea', required: false, max: 20 },
    { id: 'email', label: 'Email', kind: 'email', required: true },
    { id: 'phone', label: 'Phone', kind: 'phone', required: false },
    { id: 'seats', label: 'Seats', kind: 'number', required: true, min: 1, max: 50 },
    { id: 'newsletter', label: 'Newsletter', kind: 'boolean', required: true },
    { id: 'plan', label: 'Plan', kind: 'select', required: true, options: ['Starter', 'Pro'] },
    { id: 'topics', label: 'Topics', kind: 'multiselect', required: false, options: ['Tents', 'Boots', 'Stoves'], max: 2 },
    { id: 'day', label: 'Day', kind: 'date', required: false },
    { id: 'hour', label: 'Hour', kind: 'time', required: false },
    { id: 'meeting', label: 'Meeting', kind: 'datetime', required: false },
  ],
};
