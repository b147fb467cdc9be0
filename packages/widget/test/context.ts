/**
 * One module of the conversation tested alone: a context (src/context.ts) whose store is real and whose every other
 * function is a mock. A test replaces what it drives, then assigns the module under test onto it:
 * `const c = fakeContext({ GET }); Object.assign(c, createLiveEvents(c));`.
 */
import { vi } from 'vitest';
import { initialChatState } from '../src/chat-state.js';
import type { Context } from '../src/context.js';
import { createStore } from '../src/store.js';

/** What a test gives instead of the defaults: mocks, which need not match the context's generic types. */
export type Overrides = Partial<Record<keyof Context, unknown>>;

export function fakeContext(overrides: Overrides = {}): Context {
  const context = {
    api: vi.fn(),
    apiKey: 'pk_live_unit',
    store: createStore(initialChatState(true)),
    visitorId: 'v_unit',
    details: {},
    tokens: { ensureFresh: vi.fn(async () => undefined) },
    signal: new AbortController().signal,
    forgetIdentity: vi.fn(),
    fail: vi.fn(),
    stopCountdown: vi.fn(),
    generation: 0,
    restoring: Promise.resolve(),
    fetchConfig: vi.fn(),
    GET: vi.fn(),
    POST: vi.fn(),
    history: vi.fn(),
    remember: vi.fn(),
    ensure: vi.fn(async () => 'sess_1'),
    restore: vi.fn(async () => undefined),
    startOver: vi.fn(),
    newVisitor: vi.fn(),
    turn: vi.fn(async () => null),
    pump: vi.fn(async () => undefined),
    enqueue: vi.fn(),
    retryNow: vi.fn(),
    stop: vi.fn(),
    drop: vi.fn(),
    listen: vi.fn(),
    follow: vi.fn(),
    ...overrides,
  };
  return context as unknown as Context;
}

/** A `text/event-stream` body as the service writes it: `[event, data, id?]` each. */
export function eventStream(...events: [event: string, data: unknown, id?: string][]): ReadableStream<Uint8Array> {
  return new Response(events.map(([event, data, id]) => `${id ? `id: ${id}\n` : ''}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`).join('')).body!;
}

/** A body that stays open until the request's signal aborts it (an event stream nothing happens on). */
export function openStream(signal?: AbortSignal): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      signal?.addEventListener('abort', () => controller.error(new DOMException('aborted', 'AbortError')));
    },
  });
}
