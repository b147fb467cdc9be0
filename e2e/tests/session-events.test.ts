import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type SessionStreamEvent, type SvcClient } from '@svc/client';
import { operatorAdmin } from '@svc/server';
import { startLiveServer, type LiveServer } from '../support/live-server.js';

/**
 * A TCP proxy in front of the service whose connections can be cut (and new ones refused for a while): a dropped
 * network as a client meets it, not a polite close.
 */
async function startProxy(target: string): Promise<{ url: string; cut(): void; refuse(on: boolean): void; close(): Promise<void> }> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  let refusing = false;
  const server: Server = createServer((client) => {
    if (refusing) return client.destroy();
    const upstream = connect(Number(port), hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    cut: () => {
      for (const socket of sockets) socket.destroy();
    },
    refuse: (on) => {
      refusing = on;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

// Issue 13: the session event stream through @svc/client, resuming after a dropped connection with nothing missed
// and nothing repeated.
describe('client.sessions.events against a real server', () => {
  let live: LiveServer;
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  let api: SvcClient;
  let watcher: SvcClient;

  beforeAll(async () => {
    live = await startLiveServer();
    proxy = await startProxy(live.url);
    api = createClient({ baseUrl: live.url, apiKey: live.keys.chat });
    watcher = createClient({ baseUrl: proxy.url, apiKey: live.keys.chat });
  }, 60_000);

  afterAll(async () => {
    await proxy.close();
    await live.close();
  });

  it('yields handoff changes and operator replies in order, once each, across a cut connection', async () => {
    const widgetId = live.widgetId;
    const { data: session } = await api.sessions.create(widgetId, { visitorId: 'visitor-events' });
    const { sessionId } = session;
    const { accountId } = (await live.store.getWidget(widgetId))!;
    const admin = operatorAdmin(live.store);
    const operator = { id: null, name: 'Dana' };

    const seen: SessionStreamEvent[] = [];
    let opens = 0;
    const stop = new AbortController();
    const stream = watcher.sessions.events(widgetId, sessionId, { signal: stop.signal, reconnectDelayMs: 100, onOpen: () => opens++ });
    const consuming = (async () => {
      for await (const event of stream) seen.push(event);
    })();
    await expect.poll(() => opens).toBe(1);

    const asked = await api.messages.send(widgetId, sessionId, { content: 'Can I talk to a person?' });
    expect(asked.status).toBe(200);
    await admin.acceptHandoff({ accountId, widgetId, sessionId }, operator);
    await admin.replyAsOperator({ accountId, widgetId, sessionId }, { operator, text: 'Hi, Dana here.' });
    await expect.poll(() => seen.length).toBe(3);

    // The network drops; while it is down the operator writes twice and releases the session.
    proxy.refuse(true);
    proxy.cut();
    await admin.replyAsOperator({ accountId, widgetId, sessionId }, { operator, text: 'Your order left today.' });
    await admin.replyAsOperator({ accountId, widgetId, sessionId }, { operator, text: 'Anything else?' });
    await admin.releaseHandoff({ accountId, widgetId, sessionId });
    await new Promise((resolve) => setTimeout(resolve, 300));
    proxy.refuse(false);

    await expect.poll(() => seen.length).toBe(6);
    expect(opens).toBeGreaterThanOrEqual(2);
    // Back with the AI: the next message is answered (the turn's own reply is not an event of the stream).
    const answered = await api.messages.send(widgetId, sessionId, { content: 'Do you ship to Canada?' });
    expect(answered.status === 200 && answered.data.content).toMatch(/canada/i);
    await api.sessions.end(widgetId, sessionId);
    await expect.poll(() => seen.length).toBe(7);
    stop.abort();
    await consuming;

    expect(seen.map((event) => (event.type === 'message.created' ? `message: ${event.data.content}` : `session: ${event.data.status} ${event.data.handoff?.state ?? '-'}`))).toEqual([
      'session: active requested',
      'session: active active',
      'message: Hi, Dana here.',
      'message: Your order left today.',
      'message: Anything else?',
      'session: active -',
      'session: resolved -',
    ]);
    const ids = seen.map((event) => BigInt(event.id));
    expect(ids.every((id, i) => i === 0 || id > ids[i - 1]!)).toBe(true);
    expect(stream.lastEventId).toBe(seen.at(-1)!.id);
    const reply = seen[2]!;
    expect(reply.type === 'message.created' && reply.data.author).toEqual({ type: 'operator', name: 'Dana' });
  });
});
