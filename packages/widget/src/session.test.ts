import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeContext, type Overrides } from '../test/context.js';
import { ApiError, type RequestOptions } from './api.js';
import type { HistoryItem, SessionView, WidgetConfig } from './api-types.js';
import { chatMessage } from './messages.js';
import { createSession } from './session.js';
import { loadSession, loadVisitorId, saveSession } from './storage.js';

const CONFIG = { widgetId: 'wgt 1', name: 'Shop', greeting: null, language: 'fr', theme: null } as unknown as WidgetConfig;
const item = (messageId: string, content: string): HistoryItem => ({ messageId, role: 'assistant', content, createdAt: '2026-01-01T10:00:00.000Z' });

/**
 * The fake service behind `api`: the config, one stored session (`view`) with its history in pages of two, and
 * the session a first message creates. `answer` overrides what a path answers (a function may throw).
 */
function service(view: Partial<SessionView> = { status: 'active', rating: null }, answer: Record<string, () => unknown> = {}) {
  const history = [item('m1', 'one'), item('m2', 'two'), item('m3', 'three')];
  const api = vi.fn(async (method: string, path: string, _request?: RequestOptions): Promise<unknown> => {
    const [route, query] = path.split('?');
    if (answer[route!]) return answer[route!]!();
    if (route === '/widget/config') return { data: CONFIG };
    if (method === 'POST' && route === '/widgets/wgt%201/conversations') return { data: { sessionId: 'sess_new' } };
    if (route === '/widgets/wgt%201/conversations/sess_1') return { data: view };
    if (route === '/widgets/wgt%201/conversations/sess_1/messages') {
      const start = Number(new URLSearchParams(query).get('cursor') ?? 0);
      return { data: history.slice(start, start + 2), pagination: { cursor: String(start + 2), hasMore: start + 2 < history.length } };
    }
    throw new Error(`unexpected ${method} ${path}`);
  });
  return api;
}

function session(api = service(), overrides: Overrides = {}) {
  const c = fakeContext({ api, ...overrides });
  Object.assign(c, createSession(c));
  return { c, api, paths: () => api.mock.calls.map(([method, path]) => `${method} ${path}`) };
}

const storeSession = (sessionId: string): void => saveSession('pk_live_unit', { sessionId, visitorId: 'v_unit' });

afterEach(() => {
  localStorage.clear();
});

describe('the session', () => {
  it('asks under the widget’s conversations, with a fresh identity token, the config read once', async () => {
    const { c, api, paths } = session(service(undefined, { '/widgets/wgt%201/conversations/sess%2F1/events': () => 'a stream' }));
    const request = { headers: { 'Last-Event-ID': '0' } };
    await c.GET('sess/1', '/events', request);
    await c.POST(null, '');
    expect(paths()).toEqual(['GET /widget/config', 'GET /widgets/wgt%201/conversations/sess%2F1/events', 'POST /widgets/wgt%201/conversations']);
    expect(api.mock.calls[1]![2]).toBe(request);
    expect(c.tokens.ensureFresh).toHaveBeenCalledTimes(2);
    expect(c.store.get().config).toBe(CONFIG);
  });

  it('uses the loader’s read of the config, and reads it again when that failed; a failure is not kept', async () => {
    const ready = session(service(), { prefetchedConfig: Promise.resolve(CONFIG) });
    await ready.c.fetchConfig();
    expect(ready.paths()).toEqual([]);

    let fails = true;
    const failing = session(
      service(undefined, {
        '/widget/config': () => {
          if (fails) throw new ApiError(0, 'network_error', '');
          return { data: CONFIG };
        },
      }),
      { prefetchedConfig: Promise.reject(new Error('loader failed')) },
    );
    await expect(failing.c.fetchConfig()).rejects.toMatchObject({ code: 'network_error' });
    fails = false;
    await expect(failing.c.fetchConfig()).resolves.toBe(CONFIG);
    expect(failing.paths()).toEqual(['GET /widget/config', 'GET /widget/config']);
  });

  it('reads a whole history, page after page', async () => {
    const { c, paths } = session();
    expect((await c.history('sess_1')).map((message) => message.content)).toEqual(['one', 'two', 'three']);
    expect(paths().slice(1)).toEqual([
      'GET /widgets/wgt%201/conversations/sess_1/messages?limit=100',
      'GET /widgets/wgt%201/conversations/sess_1/messages?limit=100&cursor=2',
    ]);
  });

  it('is created by the first message, with the visitor’s id, language, time zone and identify() details, kept in storage, then reused', async () => {
    const { c, api } = session(service(), { details: { name: 'Ada', email: 'ada@example.com' } });
    expect(await c.ensure()).toBe('sess_new');
    expect(api).toHaveBeenLastCalledWith('POST', '/widgets/wgt%201/conversations', {
      body: { visitorId: 'v_unit', language: 'fr', timezone: expect.any(String), visitorContext: { name: 'Ada', email: 'ada@example.com' } },
    });
    expect(loadSession('pk_live_unit', 'v_unit')).toBe('sess_new');
    expect(c.current).toBe('sess_new');
    expect(c.store.get().session).toBe('active');
    // The event stream follows the new session.
    expect(c.follow).toHaveBeenCalledOnce();
    expect(await c.ensure()).toBe('sess_new');
    expect(api.mock.calls.filter(([method]) => method === 'POST')).toHaveLength(1);
  });

  it('without identify() details, sends no visitor context', async () => {
    const { c, api } = session();
    await c.ensure();
    expect(api.mock.calls.at(-1)![2]!.body).not.toHaveProperty('visitorContext');
  });

  it('after a reload, loads the stored conversation once: its state and history, with the unsent messages after it', async () => {
    storeSession('sess_1');
    const { c, paths } = session();
    c.store.set({ messages: [chatMessage('user', 'Unsent', { key: 'idem_1', status: 'sending' })] });
    await c.restore();
    expect(c.store.get().messages.map((message) => message.content)).toEqual(['one', 'two', 'three', 'Unsent']);
    expect(c.store.get()).toMatchObject({ session: 'active', rating: null, loading: false, announcement: '' });
    expect(c.current).toBe('sess_1');
    // A message sent now goes to it.
    expect(await c.ensure()).toBe('sess_1');
    await c.restore();
    expect(paths().filter((path) => path.includes('sess_1'))).toHaveLength(3);
  });

  it('an ended conversation stays to be rated; once rated, the next visit starts afresh', async () => {
    storeSession('sess_1');
    const ended = session(service({ status: 'resolved', rating: null }));
    await ended.c.restore();
    expect(ended.c.store.get()).toMatchObject({ session: 'ended', rating: null });

    const rated = session(service({ status: 'resolved', rating: 'positive' }));
    await rated.c.restore();
    expect(rated.c.store.get().messages).toEqual([]);
    expect(rated.c.current).toBeNull();
    expect(loadSession('pk_live_unit', 'v_unit')).toBeNull();
  });

  it('a stored session the service does not know (data reset, another widget) is forgotten', async () => {
    storeSession('sess_1');
    const { c } = session(
      service(undefined, {
        '/widgets/wgt%201/conversations/sess_1': () => {
          throw new ApiError(404, 'session_not_found', 'Gone');
        },
      }),
    );
    await c.restore();
    expect(loadSession('pk_live_unit', 'v_unit')).toBeNull();
    expect(c.fail).not.toHaveBeenCalled();
  });

  it('someone else’s stored conversation (identity_mismatch): a new visitor, with nothing of the previous one', async () => {
    storeSession('sess_1');
    const { c } = session(
      service(undefined, {
        '/widgets/wgt%201/conversations/sess_1': () => {
          throw new ApiError(403, 'identity_mismatch', 'Not yours');
        },
      }),
      { details: { name: 'Ada' } },
    );
    await c.restore();
    expect(c.visitorId).toMatch(/^v_[0-9a-f]{32}$/);
    expect(loadVisitorId()).toBe(c.visitorId);
    expect(c.details).toEqual({});
    expect(c.forgetIdentity).toHaveBeenCalledOnce();
    expect(c.generation).toBe(1);
    expect(loadSession('pk_live_unit', 'v_unit')).toBeNull();
  });

  it('a failure to load: the banner’s retry loads it again, then sends what waits', async () => {
    storeSession('sess_1');
    let fails = true;
    const { c } = session(
      service(undefined, {
        '/widgets/wgt%201/conversations/sess_1': () => {
          if (fails) throw new ApiError(503, 'unavailable', '');
          return { data: { status: 'active', rating: null } };
        },
      }),
    );
    await c.restore();
    expect(c.store.get().loading).toBe(false);
    const [error, retry] = vi.mocked(c.fail).mock.calls[0]!;
    expect(error).toMatchObject({ status: 503 });
    fails = false;
    retry!();
    await vi.waitFor(() => expect(c.pump).toHaveBeenCalledOnce());
    expect(c.store.get().messages).toHaveLength(3);
  });

  it('starts over: a new conversation for the same visitor, nothing of the old one on screen, in storage or in the outbox', async () => {
    storeSession('sess_1');
    const { c, paths } = session();
    c.current = 'sess_1';
    c.store.set({ messages: [chatMessage('user', 'Old')], session: 'ended', rating: 'negative', problem: { kind: 'error', retry: null }, announcement: 'Old', sentForms: ['m1/f1'], typing: true });
    c.startOver();
    expect(c.generation).toBe(1);
    expect(c.store.get()).toMatchObject({ messages: [], session: 'none', rating: null, problem: null, typing: false, loading: false, announcement: '', sentForms: [] });
    expect(c.current).toBeNull();
    expect(loadSession('pk_live_unit', 'v_unit')).toBeNull();
    expect(c.drop).toHaveBeenCalledOnce();
    expect(c.stopCountdown).toHaveBeenCalledOnce();
    expect(c.follow).toHaveBeenCalledOnce();
    // Nothing to restore: the conversation on screen is the new one.
    await c.restore();
    expect(paths()).toEqual([]);
  });

  it('a conversation started over while the stored one loads never gets its late answer', async () => {
    storeSession('sess_1');
    let answer = (): void => undefined;
    const { c, paths } = session(
      service(undefined, {
        '/widgets/wgt%201/conversations/sess_1': () => new Promise((resolve) => (answer = () => resolve({ data: { status: 'active', rating: null } }))),
      }),
    );
    const restoring = c.restore();
    await vi.waitFor(() => expect(paths()).toContain('GET /widgets/wgt%201/conversations/sess_1'));
    expect(c.store.get().loading).toBe(true);
    c.startOver();
    answer();
    await restoring;
    expect(c.store.get().messages).toEqual([]);
    expect(c.current).toBeNull();
  });
});
