import { describe, expect, it, vi } from 'vitest';

vi.setConfig({ testTimeout: 20_000 });
import { ANY_ACCOUNT } from '@svc/core';
import { readEventStream, type ServerSentEvent } from '@svc/core/schemas';
import { operatorAdmin } from '../cli/operator-admin.js';
import { createHarness } from '../testing/harness.js';

const ORIGIN = 'https://shop.example.com';

/** GET …/events through the app; `events` fills as they come, `close()` drops the connection. */
async function open(h: Awaited<ReturnType<typeof createHarness>>, sessionId: string, headers: Record<string, string> = {}) {
  const controller = new AbortController();
  const res = await h.runtime.app.request(`${h.base}/${sessionId}/events`, { headers: { 'X-API-Key': h.key, ...headers }, signal: controller.signal });
  const events: ServerSentEvent[] = [];
  let reading: Promise<void> = Promise.resolve();
  if (res.status === 200) {
    // Piped so that closing cancels the response body, as a client going away does.
    const through = new TransformStream<Uint8Array, Uint8Array>();
    void res.body!.pipeTo(through.writable, { signal: controller.signal }).catch(() => undefined);
    reading = (async () => {
      for await (const event of readEventStream(through.readable)) events.push(event);
    })().catch(() => undefined);
  }
  return {
    res,
    events,
    async close() {
      controller.abort();
      await reading;
    },
  };
}

describe('GET /widgets/{widgetId}/conversations/{sessionId}/events', () => {
  it('starts at now without a Last-Event-ID, sends operator replies and session changes, and resumes after an id', async () => {
    const h = await createHarness();
    const sessionId = await h.session();
    const admin = operatorAdmin(h.store);
    const operator = { id: null, name: 'Dana' };
    await admin.acceptHandoff({ accountId: h.account.id, widgetId: h.widget.id, sessionId }, operator); // before the stream: not sent

    const stream = await open(h, sessionId);
    expect(stream.res.status).toBe(200);
    expect(stream.res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(stream.res.headers.get('cache-control')).toBe('no-store');
    await admin.replyAsOperator({ accountId: h.account.id, widgetId: h.widget.id, sessionId }, { operator, text: 'Hello from **Dana**' });
    expect((await h.post(`${h.base}/${sessionId}/messages`, { content: 'Thanks' })).status).toBe(202); // the caller's own: not sent
    expect((await h.post(`${h.base}/${sessionId}/end`)).status).toBe(200);
    await expect.poll(() => stream.events.length).toBe(2);
    await stream.close();
    const [message, ended] = stream.events;
    expect(message).toMatchObject({ event: 'message.created', id: expect.stringMatching(/^\d+$/) });
    expect(JSON.parse(message!.data)).toEqual({
      messageId: expect.stringMatching(/^msg_/),
      role: 'assistant',
      content: 'Hello from **Dana**',
      author: { type: 'operator', name: 'Dana' },
      createdAt: expect.any(String),
    });
    expect(ended!.event).toBe('session.updated');
    expect(JSON.parse(ended!.data)).toEqual((await h.get(`${h.base}/${sessionId}`)).body.data);

    const resumed = await open(h, sessionId, { 'Last-Event-ID': message!.id! });
    await expect.poll(() => resumed.events.length).toBe(1);
    expect(resumed.events[0]).toEqual(ended);
    await resumed.close();
  });

  it('refuses a Last-Event-ID it did not issue, other callers\' sessions, and a fourth stream of one session', async () => {
    const h = await createHarness();
    const sessionId = await h.session();
    const bad = await open(h, sessionId, { 'Last-Event-ID': 'evt_1; drop table' });
    expect(bad.res.status).toBe(400);
    expect(await bad.res.json()).toMatchObject({ error: { code: 'validation_failed', field: 'Last-Event-ID' } });

    // A session a server key created is invisible to the widget's public key, as on every other endpoint.
    const { key: publicKey } = await operatorAdmin(h.store).createPublicKey(ANY_ACCOUNT, { widgetId: h.widget.id, origins: [ORIGIN] });
    const asWidget = await open(h, sessionId, { 'X-API-Key': publicKey, Origin: ORIGIN });
    expect(asWidget.res.status).toBe(404);
    expect(await asWidget.res.json()).toMatchObject({ error: { code: 'session_not_found' } });
    const someoneElse = await operatorAdmin(h.store).createAccount({ name: 'Someone else', credits: 10 });
    const other = await h.newKey(['conversations:chat'], someoneElse.id);
    expect((await open(h, sessionId, { 'X-API-Key': other })).res.status).toBe(404);

    const streams = [await open(h, sessionId), await open(h, sessionId), await open(h, sessionId)];
    expect(streams.map((stream) => stream.res.status)).toEqual([200, 200, 200]);
    const fourth = await open(h, sessionId);
    expect(fourth.res.status).toBe(429);
    expect(await fourth.res.json()).toMatchObject({ error: { code: 'rate_limited', message: expect.stringContaining('3 event streams') } });
    await streams[0]!.close();
    // The slot is given back when a stream closes.
    await expect
      .poll(async () => {
        const again = await open(h, sessionId);
        await again.close();
        return again.res.status;
      })
      .toBe(200);
    for (const stream of streams.slice(1)) await stream.close();
  });
});
