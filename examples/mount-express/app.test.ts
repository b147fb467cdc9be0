import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPgliteStore } from '@svc/store-postgres';
import { operatorAdmin } from '@svc/server';
import type { Store } from '@svc/core';
import { createShopApp } from './app.js';

describe('examples/mount-express', () => {
  let store: Store;
  let server: Server;
  let base: string;
  let widgetId: string;
  let key: string;

  beforeAll(async () => {
    store = await createPgliteStore({});
    const admin = operatorAdmin(store);
    const account = await admin.createAccount({ name: 'Shop', credits: 100 });
    widgetId = (await admin.createWidget({ accountId: account.id, name: 'Shop assistant' })).id;
    key = (await admin.createApiKey({ accountId: account.id, scopes: ['conversations:chat'] })).key;
    const app = await createShopApp(store);
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // Opening PGlite takes seconds, more on a busy machine: this project does not inherit the root's hook timeout.
  }, 60_000);

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await store.close();
  });

  it('serves the chat API under /chat-api over a real socket', async () => {
    const headers = { 'X-API-Key': key, 'Content-Type': 'application/json' };
    const created = await fetch(`${base}/chat-api/widgets/${widgetId}/conversations`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ visitorId: 'shopper-1' }),
    });
    expect(created.status).toBe(201);
    const { data } = (await created.json()) as { data: { sessionId: string } };
    // Location is relative to the request URL, so it points under /chat-api although the API never sees the prefix.
    const location = new URL(created.headers.get('location')!, created.url);
    expect(location.pathname).toBe(`/chat-api/widgets/${widgetId}/conversations/${data.sessionId}`);
    expect((await fetch(location, { headers })).status).toBe(200);
    const reply = await fetch(`${base}/chat-api/widgets/${widgetId}/conversations/${data.sessionId}/messages`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ content: 'Hello!' }),
    });
    expect(reply.status).toBe(200);
    expect(((await reply.json()) as { data: { content: string } }).data.content.length).toBeGreaterThan(0);
  });

  it('keeps the API’s own errors and the host app’s routes working', async () => {
    const unauthenticated = await fetch(`${base}/chat-api/widgets/${widgetId}/conversations`, { method: 'POST' });
    expect(unauthenticated.status).toBe(401);
    expect(await unauthenticated.json()).toMatchObject({ error: { code: 'missing_api_key' }, meta: { creditsConsumed: 0 } });
    expect(await (await fetch(`${base}/`)).text()).toContain('Welcome to the shop');
    const newsletter = await fetch(`${base}/newsletter`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'a@example.com' }),
    });
    expect(await newsletter.json()).toEqual({ subscribed: 'a@example.com' });
  });
});
