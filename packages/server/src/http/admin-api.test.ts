import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMemoryStore } from '@svc/core';
import { startAdminFixture, type AdminFixture, type Console } from '../testing/admin-api.js';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

/**
 * The admin API as the console uses it (DESIGN.md 10), over a real socket: an owner signed in with the cookie, every
 * write with its CSRF token. Security (credentials, CSRF, roles, tenants) is admin-security.test.ts's.
 */
describe('admin API: what the console does with it', () => {
  let f: AdminFixture;
  let owner: Console;
  beforeAll(async () => {
    f = await startAdminFixture(createMemoryStore());
    owner = await f.signIn('owner@acme.example');
  });
  afterAll(() => f?.close());

  const as = (method: string, path: string, body?: unknown) =>
    f.call(method, `/admin/v1${path}`, { cookie: owner.cookie, ...(method === 'GET' ? {} : { csrf: owner.csrf }), ...(body === undefined ? {} : { body }) });

  it('creates, reads, changes and themes a widget; its identity secret is shown on creation and rotation only', async () => {
    const created = await as('POST', '/widgets', { name: 'Shop', greeting: 'Hello!', sessionTtlSeconds: 3600 });
    expect(created.status).toBe(201);
    const widget = created.body.data;
    expect(widget).toMatchObject({ id: expect.stringMatching(/^wgt_/), name: 'Shop', greeting: 'Hello!', sessionTtlSeconds: 3600, theme: {}, forms: [] });
    expect(widget.identitySecret).toMatch(/^idsec_/);

    const listed = await as('GET', '/widgets');
    expect(listed.body.data.map((w: { id: string }) => w.id)).toEqual([widget.id]);
    expect(listed.text).not.toContain(widget.identitySecret);
    expect((await as('GET', `/widgets/${widget.id}`)).text).not.toContain('idsec_');

    const patched = await as('PATCH', `/widgets/${widget.id}`, { greeting: 'Welcome back', language: 'fr' });
    expect(patched.body.data).toMatchObject({ name: 'Shop', greeting: 'Welcome back', language: 'fr', sessionTtlSeconds: 3600 });
    const badPatch = await as('PATCH', `/widgets/${widget.id}`, { sessionTtlSeconds: 5 });
    expect([badPatch.status, badPatch.body.error.field]).toEqual([400, 'sessionTtlSeconds']);
    const unknownField = await as('PATCH', `/widgets/${widget.id}`, { colour: 'red' });
    expect([unknownField.status, unknownField.body.error.field]).toEqual([400, 'colour']);

    const themed = await as('PUT', `/widgets/${widget.id}/theme`, { primaryColor: '#0f766e', title: 'Shop help', darkMode: 'auto' });
    expect(themed.body.data.theme).toEqual({ primaryColor: '#0f766e', title: 'Shop help', darkMode: 'auto' });
    const badTheme = await as('PUT', `/widgets/${widget.id}/theme`, { primaryColour: '#fff' });
    expect([badTheme.status, badTheme.body.error.field]).toEqual([400, 'theme.primaryColour']);

    const forms = [{ id: 'callback', title: 'Call me back', questions: [{ id: 'phone', label: 'Phone', kind: 'phone', required: true }] }];
    expect((await as('PUT', `/widgets/${widget.id}/forms`, { forms })).body.data.forms).toEqual(forms);

    const rotated = await as('POST', `/widgets/${widget.id}/identity-secret`, { graceSeconds: 60 });
    expect(rotated.body.data.identitySecret).toMatch(/^idsec_/);
    expect(rotated.body.data.identitySecret).not.toBe(widget.identitySecret);
    expect((await as('POST', `/widgets/${widget.id}/identity-secret`)).status).toBe(200);
    expect((await as('GET', '/widgets/wgt_missing')).body.error.code).toBe('widget_not_found');
  });

  it('creates named server keys (secret and callback secret once), public keys for a widget, rotates and revokes them', async () => {
    const widget = (await as('POST', '/widgets', { name: 'Keys' })).body.data;
    const created = await as('POST', '/keys', { name: 'Back office', scopes: ['knowledge:read', 'admin'] });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ key: expect.stringMatching(/^sk_live_/), apiKey: { name: 'Back office', kind: 'secret', scopes: ['knowledge:read', 'admin'], revokedAt: null } });
    expect(created.body.data.callbackSecret).toBeUndefined();
    const { key, apiKey } = created.body.data;
    // The new admin key works on this API, as the owner of the account.
    expect((await f.call('GET', '/admin/v1/account', { key })).body.data.id).toBe(f.accountA.id);

    const withCallback = await as('POST', '/keys', { scopes: ['conversations:chat'], callbackUrl: 'https://hooks.example.com/svc' });
    expect(withCallback.body.data.callbackSecret).toMatch(/^whsec_/);
    const badScope = await as('POST', '/keys', { scopes: ['everything'] });
    expect([badScope.status, badScope.body.error.field]).toEqual([400, 'scopes.0']);
    const privateUrl = await as('POST', '/keys', { scopes: ['conversations:chat'], callbackUrl: 'http://127.0.0.1/hook' });
    expect([privateUrl.status, privateUrl.body.error.field]).toEqual([400, 'callbackUrl']);

    const publicKey = await as('POST', '/public-keys', { widgetId: widget.id, origins: ['https://shop.example/'] });
    expect(publicKey.body.data).toMatchObject({ key: expect.stringMatching(/^pk_live_/), apiKey: { kind: 'public', widgetId: widget.id, allowedOrigins: ['https://shop.example'] } });
    const config = await fetch(`${f.server.url}/widget/config`, { headers: { 'X-API-Key': publicKey.body.data.key, Origin: 'https://shop.example' } });
    expect(((await config.json()) as { data: { widgetId: string } }).data.widgetId).toBe(widget.id);

    const listed = await as('GET', '/keys');
    expect(listed.body.data.map((k: { id: string }) => k.id)).toEqual(expect.arrayContaining([apiKey.id, publicKey.body.data.apiKey.id]));
    for (const secret of [key, publicKey.body.data.key, withCallback.body.data.callbackSecret]) expect(listed.text).not.toContain(secret);

    const secret = await as('POST', `/keys/${withCallback.body.data.apiKey.id}/callback-secret`);
    expect(secret.body.data.callbackSecret).toMatch(/^whsec_/);
    expect(secret.body.data.callbackSecret).not.toBe(withCallback.body.data.callbackSecret);

    const revoked = await as('DELETE', `/keys/${apiKey.id}`);
    expect(revoked.body.data).toMatchObject({ id: apiKey.id, revokedAt: expect.any(String) });
    expect((await f.call('GET', '/admin/v1/account', { key })).body.error.code).toBe('invalid_api_key');
  });

  it('adds, lists, rotates and removes webhook endpoints; the secret is shown on creation and rotation only', async () => {
    const created = await as('POST', '/webhooks', { url: 'https://hooks.example.com/lifecycle', events: ['session.resolved'] });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ id: expect.stringMatching(/^whk_/), url: 'https://hooks.example.com/lifecycle', events: ['session.resolved'], secret: expect.stringMatching(/^whsec_/) });
    const listed = await as('GET', '/webhooks');
    expect(listed.body.data).toEqual([{ id: created.body.data.id, url: 'https://hooks.example.com/lifecycle', events: ['session.resolved'], createdAt: expect.any(String), secretRotatedUntil: null }]);
    const rotated = await as('POST', `/webhooks/${created.body.data.id}/secret`, { graceSeconds: 120 });
    expect(rotated.body.data.secret).toMatch(/^whsec_/);
    expect((await as('GET', '/webhooks')).body.data[0].secretRotatedUntil).toEqual(expect.any(String));
    expect((await as('DELETE', `/webhooks/${created.body.data.id}`)).status).toBe(204);
    expect((await as('GET', '/webhooks')).body.data).toEqual([]);
    expect((await as('DELETE', `/webhooks/${created.body.data.id}`)).status).toBe(404);
  });

  it('creates a knowledge base, imports a file into it, pages its products, lists documents and tries a search', async () => {
    const kb = (await as('POST', '/knowledge-bases', { name: 'Catalogue' })).body.data;
    expect(kb).toMatchObject({ id: expect.stringMatching(/^kb_/), name: 'Catalogue' });
    const products = Array.from({ length: 3 }, (_, i) => ({ id: `p${i + 1}`, name: `Trail tent ${i + 1}`, price: 100 + i }));
    const imported = await as('POST', `/knowledge-bases/${kb.id}/import`, { products, documents: [{ title: 'Opening hours', content: 'We are open from 9 to 5, Monday to Friday.' }] });
    expect(imported.body.data).toEqual({ products: 3, documents: 1 });
    expect((await as('GET', `/knowledge-bases/${kb.id}`)).body.data).toMatchObject({ id: kb.id, products: 3, documents: 1 });
    expect((await as('GET', '/knowledge-bases')).body.data.map((k: { id: string }) => k.id)).toContain(kb.id);

    const first = await as('GET', `/knowledge-bases/${kb.id}/products?limit=2`);
    expect(first.body.data.map((p: { id: string }) => p.id)).toEqual(['p1', 'p2']);
    expect(first.body.meta).toEqual({ creditsConsumed: 0, nextCursor: 'p2' });
    const second = await as('GET', `/knowledge-bases/${kb.id}/products?limit=2&cursor=p2`);
    expect([second.body.data.map((p: { id: string }) => p.id), second.body.meta.nextCursor]).toEqual([['p3'], null]);
    expect((await as('GET', `/knowledge-bases/${kb.id}/products?limit=0`)).body.error.field).toBe('limit');

    const documents = await as('GET', `/knowledge-bases/${kb.id}/documents`);
    expect(documents.body.data).toEqual([expect.objectContaining({ title: 'Opening hours' })]);
    const search = await as('POST', `/knowledge-bases/${kb.id}/search`, { text: 'when are you open' });
    expect(search.body.data.passages[0]).toMatchObject({ title: 'Opening hours' });
    expect((await as('POST', `/knowledge-bases/${kb.id}/search`, { query: 'tent' })).body.data.products.length).toBeGreaterThan(0);
    expect((await as('POST', `/knowledge-bases/${kb.id}/search`, {})).body.error.field).toBe('text');
  });

  it('lists deliveries (filtered by status) and refuses to replay one that does not exist', async () => {
    expect((await as('GET', '/deliveries?status=failed')).body).toEqual({ data: [], meta: { creditsConsumed: 0 } });
    expect((await as('GET', '/deliveries?status=lost')).body.error.field).toBe('status');
    expect((await as('POST', '/deliveries/dlv_missing/replay')).status).toBe(404);
  });

  it('lists, reads, takes over, answers, releases and resolves a conversation, for an agent too', async () => {
    const widget = (await as('POST', '/widgets', { name: 'Support' })).body.data;
    const opened = await fetch(`${f.server.url}/widgets/${widget.id}/conversations`, {
      method: 'POST',
      headers: { 'X-API-Key': f.chatKeyA, 'Content-Type': 'application/json' },
      body: JSON.stringify({ visitorId: 'visitor-1' }),
    });
    const { sessionId } = ((await opened.json()) as { data: { sessionId: string } }).data;
    const agent = await f.signIn('agent@acme.example', undefined, f.freshAddress());
    const byAgent = (method: string, path: string, body?: unknown) =>
      f.call(method, `/admin/v1${path}`, { cookie: agent.cookie, csrf: agent.csrf, ...(body === undefined ? {} : { body }) });

    const inbox = await byAgent('GET', `/conversations?widgetId=${widget.id}&status=active`);
    expect(inbox.body.data).toEqual([expect.objectContaining({ sessionId, widgetId: widget.id, status: 'active', handoff: null, lastMessage: null })]);
    expect(inbox.body.meta).toEqual({ creditsConsumed: 0, nextCursor: null });
    expect((await byAgent('GET', '/conversations?status=open')).body.error.field).toBe('status');

    const accepted = await byAgent('POST', `/conversations/${widget.id}/${sessionId}/handoff/accept`);
    expect(accepted.body.data.handoff).toMatchObject({ state: 'active', operator: { id: f.agentA.id, name: 'Acme agent' } });
    const reply = await byAgent('POST', `/conversations/${widget.id}/${sessionId}/messages`, { text: 'Hi, I am here to help.' });
    expect(reply.status).toBe(201);
    expect(reply.body.data).toMatchObject({ role: 'assistant', content: 'Hi, I am here to help.', author: { type: 'operator', name: 'Acme agent' } });
    const history = await byAgent('GET', `/conversations/${widget.id}/${sessionId}`);
    expect(history.body.data.messages).toEqual([expect.objectContaining({ content: 'Hi, I am here to help.', author: { type: 'operator', name: 'Acme agent' } })]);
    // The visitor's side sees the person's reply in the public history.
    const visitorHistory = await fetch(`${f.server.url}/widgets/${widget.id}/conversations/${sessionId}/messages`, { headers: { 'X-API-Key': f.chatKeyA } });
    expect(JSON.stringify(await visitorHistory.json())).toContain('Hi, I am here to help.');

    expect((await byAgent('POST', `/conversations/${widget.id}/${sessionId}/handoff/release`)).body.data.handoff).toBeNull();
    const resolved = await byAgent('POST', `/conversations/${widget.id}/${sessionId}/resolve`);
    expect(resolved.body.data).toMatchObject({ status: 'resolved', handoff: null });
    const late = await byAgent('POST', `/conversations/${widget.id}/${sessionId}/messages`, { text: 'Anything else?' });
    expect([late.status, late.body.error.code]).toEqual([409, 'session_not_active']);

    // An admin key answers under its own name.
    const keyed = await as('POST', '/keys', { name: 'Helpdesk bot', scopes: ['admin'] });
    const second = await fetch(`${f.server.url}/widgets/${widget.id}/conversations`, {
      method: 'POST',
      headers: { 'X-API-Key': f.chatKeyA, 'Content-Type': 'application/json' },
      body: JSON.stringify({ visitorId: 'visitor-2' }),
    });
    const other = ((await second.json()) as { data: { sessionId: string } }).data.sessionId;
    const byKey = await f.call('POST', `/admin/v1/conversations/${widget.id}/${other}/messages`, { key: keyed.body.data.key, body: { text: 'Automated hello' } });
    expect(byKey.body.data.author).toEqual({ type: 'operator', name: 'Helpdesk bot' });
  });

  it('streams the account\'s events live to the inbox, each naming its widget and session, and resumes after Last-Event-ID', async () => {
    const widget = (await as('POST', '/widgets', { name: 'Live' })).body.data;
    const agent = await f.signIn('agent@acme.example', undefined, f.freshAddress());
    const feed = await f.events('/admin/v1/events', { cookie: agent.cookie });
    expect(feed.res.status).toBe(200);
    expect(feed.res.headers.get('content-type')).toMatch(/^text\/event-stream/);

    const opened = await fetch(`${f.server.url}/widgets/${widget.id}/conversations`, {
      method: 'POST',
      headers: { 'X-API-Key': f.chatKeyA, 'Content-Type': 'application/json' },
      body: JSON.stringify({ visitorId: 'visitor-live' }),
    });
    const { sessionId } = ((await opened.json()) as { data: { sessionId: string } }).data;
    await f.call('POST', `/admin/v1/conversations/${widget.id}/${sessionId}/messages`, { cookie: agent.cookie, csrf: agent.csrf, body: { text: 'A person is here.' } });

    // The session's creation, its takeover, then the reply.
    const [started, updated, created] = await feed.next(3);
    expect([started!.event, updated!.event, created!.event]).toEqual(['session.updated', 'session.updated', 'message.created']);
    expect(JSON.parse(started!.data)).toMatchObject({ sessionId, widgetId: widget.id, status: 'active', handoff: null });
    expect(JSON.parse(updated!.data)).toMatchObject({ sessionId, widgetId: widget.id, handoff: { state: 'active' } });
    expect(JSON.parse(created!.data)).toMatchObject({ widgetId: widget.id, sessionId, content: 'A person is here.', author: { type: 'operator', name: 'Acme agent' } });
    expect(Number(created!.id)).toBeGreaterThan(Number(updated!.id));
    await feed.close();

    // Resuming after the first event replays exactly what followed it; another account's feed sees none of it.
    const resumed = await f.events('/admin/v1/events', { cookie: agent.cookie, headers: { 'Last-Event-ID': updated!.id! } });
    expect((await resumed.next(1)).map((event) => event.id)).toEqual([created!.id]);
    await resumed.close();
    const ownerB = await f.signIn('owner@beta.example', undefined, f.freshAddress());
    const other = await f.events('/admin/v1/events', { cookie: ownerB.cookie, headers: { 'Last-Event-ID': '0' } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(other.received).toEqual([]);
    await other.close();
    expect((await f.call('GET', '/admin/v1/events', { cookie: agent.cookie, headers: { 'Last-Event-ID': 'abc' } })).body.error.field).toBe('Last-Event-ID');
  });

  it('answers analytics for a range: conversations per day, resolutions, handoff rate and credits by bucket', async () => {
    const widget = (await as('POST', '/widgets', { name: 'Counted' })).body.data;
    for (const visitorId of ['v1', 'v2']) {
      await fetch(`${f.server.url}/widgets/${widget.id}/conversations`, {
        method: 'POST',
        headers: { 'X-API-Key': f.chatKeyA, 'Content-Type': 'application/json' },
        body: JSON.stringify({ visitorId }),
      });
    }
    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const res = await as('GET', `/analytics?from=${today}&to=${tomorrow}&widgetId=${widget.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      conversationsPerDay: [{ date: today, count: 2 }],
      handoffRate: 0,
      totals: { conversations: 2 },
      creditsByBucket: expect.arrayContaining([expect.objectContaining({ bucket: 'chat' })]),
    });
    expect((await as('GET', '/analytics')).body.data.conversationsPerDay).toHaveLength(30);
    expect((await as('GET', `/analytics?from=${tomorrow}&to=${today}`)).body.error.field).toBe('to');
    expect((await as('GET', '/analytics?widgetId=wgt_other')).body.error.code).toBe('widget_not_found');
  });
});
