import { describe, expect, it } from 'vitest';
import { manualClock } from '@svc/core';
import { createScriptedAgent } from '@svc/agents';
import { createHarness } from '../testing/harness.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('POST /widgets/{widgetId}/conversations (spec 3, 4.1)', () => {
  it('creates a new session with a generated sess_ id: 201, resumed false, 1 credit', async () => {
    const h = await createHarness();
    const res = await h.post(h.base, { visitorId: 'visitor-1', language: 'en', timezone: 'Europe/Paris' });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      sessionId: expect.stringMatching(/^sess_[A-Za-z0-9]{22}$/),
      widgetId: h.widget.id,
      visitorId: 'visitor-1',
      status: 'active',
      createdAt: expect.stringMatching(ISO),
      resumed: false,
    });
    expect(res.body.meta).toEqual({ creditsConsumed: 1 });
    const stored = await h.store.getSession(h.widget.id, res.body.data.sessionId);
    expect(stored).toMatchObject({ status: 'active', language: 'en', timezone: 'Europe/Paris', messageCount: 0 });
    expect((await h.store.getAccount(h.account.id))!.balance).toBe(999);
  });

  it('uses a client-supplied sessionId', async () => {
    const h = await createHarness();
    const res = await h.post(h.base, { visitorId: 'v-1', sessionId: 'order-4711' });
    expect(res.status).toBe(201);
    expect(res.body.data.sessionId).toBe('order-4711');
  });

  it('resumes an active session with the same id: 200, resumed true, no new session, history kept', async () => {
    const h = await createHarness({ agent: createScriptedAgent(() => ({ content: 'Hello there' })) });
    await h.post(h.base, { visitorId: 'v-1', sessionId: 'chat-1' });
    await h.post(`${h.base}/chat-1/messages`, { content: 'Hi' });
    const res = await h.post(h.base, { visitorId: 'v-1', sessionId: 'chat-1' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ sessionId: 'chat-1', status: 'active', resumed: true });
    expect(res.body.meta.creditsConsumed).toBe(1);
    const history = await h.get(`${h.base}/chat-1/messages`);
    expect(history.body.data.map((m: { content: string }) => m.content)).toEqual(['Hi', 'Hello there']);
    expect((await h.store.getSession(h.widget.id, 'chat-1'))!.messageCount).toBe(2);
  });

  it('refuses to resume another visitor’s active session: 409 session_id_taken', async () => {
    const h = await createHarness();
    await h.post(h.base, { visitorId: 'v-1', sessionId: 'chat-1' });
    const res = await h.post(h.base, { visitorId: 'v-2', sessionId: 'chat-1' });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'session_id_taken', field: 'sessionId' });
  });

  it('answers 409 for the id of a resolved session, unchanged', async () => {
    const h = await createHarness();
    await h.post(h.base, { visitorId: 'v-1', sessionId: 'chat-1' });
    await h.post(`${h.base}/chat-1/end`);
    const res = await h.post(h.base, { visitorId: 'v-1', sessionId: 'chat-1' });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: { code: 'session_id_taken' }, meta: { creditsConsumed: 0 } });
    expect((await h.store.getSession(h.widget.id, 'chat-1'))!.status).toBe('resolved');
  });

  it('answers 409 for the id of an expired session', async () => {
    const clock = manualClock('2026-03-01T10:00:00.000Z');
    const h = await createHarness({ clock, sessionTtlSeconds: 3600 });
    await h.post(h.base, { visitorId: 'v-1', sessionId: 'chat-1' });
    clock.advance(3600 * 1000);
    const res = await h.post(h.base, { visitorId: 'v-1', sessionId: 'chat-1' });
    expect(res.status).toBe(409);
    expect((await h.store.getSession(h.widget.id, 'chat-1'))!.status).toBe('expired');
  });

  it('keeps session ids unique per widget, not globally', async () => {
    const h = await createHarness();
    const other = await h.admin.createWidget({ accountId: h.account.id, name: 'Second' });
    expect((await h.post(h.base, { visitorId: 'v', sessionId: 'same' })).status).toBe(201);
    expect((await h.post(`/widgets/${other.id}/conversations`, { visitorId: 'v', sessionId: 'same' })).status).toBe(201);
  });

  it('upserts visitorContext onto the visitor record', async () => {
    const h = await createHarness();
    await h.post(h.base, { visitorId: 'v-9', visitorContext: { name: 'Ada', email: 'ada@example.com' } });
    await h.post(h.base, { visitorId: 'v-9', visitorContext: { company: 'Analytical Engines' } });
    expect((await h.store.getVisitor(h.account.id, 'v-9'))!.context).toEqual({
      name: 'Ada',
      email: 'ada@example.com',
      company: 'Analytical Engines',
    });
  });

  it.each([
    [{}, 'visitorId'],
    [{ visitorId: '' }, 'visitorId'],
    [{ visitorId: 'x'.repeat(129) }, 'visitorId'],
    [{ visitorId: 'has space' }, 'visitorId'],
    [{ visitorId: 'ok', sessionId: 'bad/id' }, 'sessionId'],
    [{ visitorId: 'ok', language: 'not a language' }, 'language'],
    [{ visitorId: 'ok', timezone: 'Mars/Olympus' }, 'timezone'],
    [{ visitorId: 'ok', visitorContext: { email: 'nope' } }, 'visitorContext.email'],
    [{ visitorId: 'ok', visitorContext: { phone: '1'.repeat(31) } }, 'visitorContext.phone'],
    [{ visitorId: 42 }, 'visitorId'],
  ])('rejects %j with 400 naming %s, charging nothing', async (body, field) => {
    const h = await createHarness();
    const res = await h.post(h.base, body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: 'validation_failed', message: expect.any(String), field }, meta: { creditsConsumed: 0 } });
    expect((await h.store.getAccount(h.account.id))!.balance).toBe(1000);
  });

  it('accepts the full visitorId alphabet up to 128 characters', async () => {
    const h = await createHarness();
    const visitorId = 'Az09_-.:@'.repeat(14).slice(0, 128);
    expect((await h.post(h.base, { visitorId })).status).toBe(201);
  });
});

describe('GET /widgets/{widgetId}/conversations/{sessionId} (spec 4.6)', () => {
  it('returns the session fields with messageCount, rating and resolvedAt', async () => {
    const h = await createHarness({ agent: createScriptedAgent(() => ({ content: 'ok' })) });
    const id = await h.session();
    await h.post(`${h.base}/${id}/messages`, { content: 'Hello' });
    const res = await h.get(`${h.base}/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: {
        sessionId: id,
        widgetId: h.widget.id,
        visitorId: 'visitor-1',
        status: 'active',
        messageCount: 2,
        rating: null,
        createdAt: expect.stringMatching(ISO),
        resolvedAt: null,
        handoff: null,
      },
      meta: { creditsConsumed: 1 },
    });
  });

  it('answers 404 session_not_found for an unknown session', async () => {
    const h = await createHarness();
    const res = await h.get(`${h.base}/sess_missing`);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: { code: 'session_not_found' }, meta: { creditsConsumed: 0 } });
  });
});

describe('POST …/end (spec 3, 4.4)', () => {
  it('resolves an active session and blocks further messages', async () => {
    const h = await createHarness();
    const id = await h.session();
    const res = await h.post(`${h.base}/${id}/end`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: { sessionId: id, status: 'resolved', resolvedAt: expect.stringMatching(ISO) },
      meta: { creditsConsumed: 1 },
    });
    const stored = await h.store.getSession(h.widget.id, id);
    expect(stored).toMatchObject({ status: 'resolved' });
    expect(stored!.resolvedAt!.toISOString()).toBe(res.body.data.resolvedAt);

    const send = await h.post(`${h.base}/${id}/messages`, { content: 'Still there?' });
    expect(send.status).toBe(409);
    expect(send.body.error.code).toBe('session_not_active');
    expect((await h.store.getSession(h.widget.id, id))!.messageCount).toBe(0);
  });

  it('is safe to retry: ending again returns the original resolvedAt at no cost', async () => {
    const clock = manualClock('2026-03-01T10:00:00.000Z');
    const h = await createHarness({ clock });
    const id = await h.session();
    const first = await h.post(`${h.base}/${id}/end`);
    clock.advance(60_000);
    const second = await h.post(`${h.base}/${id}/end`);
    expect(second.status).toBe(200);
    expect(second.body.data.resolvedAt).toBe(first.body.data.resolvedAt);
    expect(second.body.meta.creditsConsumed).toBe(0);
  });

  it('answers 409 session_not_active for an expired session', async () => {
    const clock = manualClock('2026-03-01T10:00:00.000Z');
    const h = await createHarness({ clock, sessionTtlSeconds: 60 });
    const id = await h.session();
    clock.advance(61_000);
    const res = await h.post(`${h.base}/${id}/end`);
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('session_not_active');
  });
});

describe('POST …/rate (spec 3, 4.5)', () => {
  it('rates a resolved session, keeping its status; rating again replaces it', async () => {
    const h = await createHarness();
    const id = await h.session();
    await h.post(`${h.base}/${id}/end`);
    const res = await h.post(`${h.base}/${id}/rate`, { rating: 'positive' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { sessionId: id, rating: 'positive' }, meta: { creditsConsumed: 1 } });
    await h.post(`${h.base}/${id}/rate`, { rating: 'negative' });
    const session = await h.get(`${h.base}/${id}`);
    expect(session.body.data).toMatchObject({ status: 'resolved', rating: 'negative' });
  });

  it('rates an expired session, which stays expired', async () => {
    const clock = manualClock('2026-03-01T10:00:00.000Z');
    const h = await createHarness({ clock, sessionTtlSeconds: 60 });
    const id = await h.session();
    clock.advance(120_000);
    const res = await h.post(`${h.base}/${id}/rate`, { rating: 'negative' });
    expect(res.status).toBe(200);
    expect((await h.store.getSession(h.widget.id, id))).toMatchObject({ status: 'expired', rating: 'negative' });
  });

  it('refuses to rate an active session: 409 session_active, rating unchanged', async () => {
    const h = await createHarness();
    const id = await h.session();
    const res = await h.post(`${h.base}/${id}/rate`, { rating: 'positive' });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('session_active');
    expect((await h.store.getSession(h.widget.id, id))!.rating).toBeNull();
  });

  it.each([[{}], [{ rating: 'great' }], [{ rating: 1 }]])('rejects %j with 400 naming rating', async (body) => {
    const h = await createHarness();
    const id = await h.session();
    await h.post(`${h.base}/${id}/end`);
    const res = await h.post(`${h.base}/${id}/rate`, body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'validation_failed', field: 'rating' });
  });
});

describe('expiry (DESIGN.md section 4)', () => {
  it('expires an idle session on access and through the sweep', async () => {
    const clock = manualClock('2026-03-01T10:00:00.000Z');
    const h = await createHarness({ clock, sessionTtlSeconds: 600 });
    const onAccess = await h.session({ visitorId: 'a' });
    const bySweep = await h.session({ visitorId: 'b' });
    clock.advance(599_000);
    expect((await h.get(`${h.base}/${onAccess}`)).body.data.status).toBe('active');
    clock.advance(1_000);
    expect((await h.get(`${h.base}/${onAccess}`)).body.data.status).toBe('expired');
    expect(await h.runtime.core.work.expireIdleSessions()).toBe(1);
    expect((await h.store.getSession(h.widget.id, bySweep))!.status).toBe('expired');
  });

  it('pushes expiry back with every message', async () => {
    const clock = manualClock('2026-03-01T10:00:00.000Z');
    const h = await createHarness({ clock, sessionTtlSeconds: 600, agent: createScriptedAgent(() => ({ content: 'ok' })) });
    const id = await h.session();
    clock.advance(500_000);
    expect((await h.post(`${h.base}/${id}/messages`, { content: 'still here' })).status).toBe(200);
    clock.advance(500_000);
    expect((await h.get(`${h.base}/${id}`)).body.data.status).toBe('active');
  });
});
