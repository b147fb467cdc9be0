import { describe, expect, it } from 'vitest';
import { createScriptedAgent } from '@svc/agents';
import { createHarness } from '../testing/harness.js';

describe('authentication (spec 5.1)', () => {
  it('answers 401 missing_api_key without the header', async () => {
    const h = await createHarness();
    const res = await h.post(h.base, { visitorId: 'v' }, { key: null });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: { code: 'missing_api_key', message: expect.any(String) }, meta: { creditsConsumed: 0 } });
  });

  it.each(['sk_live_unknownunknownunknown1234', 'garbage', 'pk_live_'])('answers 401 invalid_api_key for %s', async (key) => {
    const h = await createHarness();
    const res = await h.post(h.base, { visitorId: 'v' }, { key });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('invalid_api_key');
  });

  it('answers 401 for a revoked key', async () => {
    const h = await createHarness();
    const [record] = await h.store.listApiKeys(h.account.id);
    await h.store.revokeApiKey(record!.id, new Date());
    expect((await h.post(h.base, { visitorId: 'v' })).status).toBe(401);
  });

  it('refuses a key with only knowledge:write on conversation endpoints: 403 insufficient_scope', async () => {
    const h = await createHarness();
    const key = await h.newKey(['knowledge:write']);
    const res = await h.post(h.base, { visitorId: 'v' }, { key });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('insufficient_scope');
    expect((await h.get(`${h.base}/whatever`, { key })).status).toBe(403);
  });

  it('isolates tenants: another account’s widget and sessions are 404', async () => {
    const h = await createHarness();
    const id = await h.session();
    const other = await h.admin.createAccount({ name: 'Other', credits: 100 });
    const otherKey = await h.newKey(['conversations:chat'], other.id);
    const res = await h.get(`${h.base}/${id}`, { key: otherKey });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('widget_not_found');
    expect((await h.post(h.base, { visitorId: 'v' }, { key: otherKey })).status).toBe(404);
    const otherWidget = await h.admin.createWidget({ accountId: other.id, name: 'Theirs' });
    expect((await h.get(`/widgets/${otherWidget.id}/conversations/${id}`, { key: otherKey })).body.error.code).toBe('session_not_found');
  });

  it('accepts a public key on a same-origin request without Origin (browsers omit it), and refuses one from nowhere', async () => {
    const h = await createHarness();
    const { key } = await h.admin.createPublicKey(h.account.id, { widgetId: h.widget.id, origins: ['http://localhost'] });
    const sameOrigin = await h.get('/widget/config', { key, headers: { 'Sec-Fetch-Site': 'same-origin' } });
    expect(sameOrigin.status).toBe(200);
    const noOrigin = await h.get('/widget/config', { key });
    expect(noOrigin.status).toBe(403);
    expect(noOrigin.body.error.code).toBe('origin_not_allowed');
    const crossSite = await h.get('/widget/config', { key, headers: { 'Sec-Fetch-Site': 'cross-site' } });
    expect(crossSite.status).toBe(403);
  });

  it('never stores the key in clear', async () => {
    const h = await createHarness();
    const [record] = await h.store.listApiKeys(h.account.id);
    expect(JSON.stringify(record)).not.toContain(h.key);
    expect(record!.hash).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('credits (spec 7: 402)', () => {
  it('answers 402 when the balance is exhausted, before any work', async () => {
    let agentRuns = 0;
    const h = await createHarness({
      credits: 2,
      agent: createScriptedAgent(() => {
        agentRuns++;
        return { content: 'ok', usage: { inputTokens: 10, outputTokens: 10 } };
      }),
    });
    const id = await h.session(); // balance 1
    expect((await h.post(`${h.base}/${id}/messages`, { content: 'hi' })).status).toBe(200); // balance 0
    const res = await h.post(`${h.base}/${id}/messages`, { content: 'again' });
    expect(res.status).toBe(402);
    expect(res.body).toMatchObject({ error: { code: 'insufficient_credits' }, meta: { creditsConsumed: 0 } });
    expect(agentRuns).toBe(1);
    expect((await h.store.getSession(h.widget.id, id))!.messageCount).toBe(2);
    expect((await h.post(h.base, { visitorId: 'v' })).status).toBe(402);
    expect((await h.get(`${h.base}/${id}`)).status).toBe(402);
  });

  it('answers 402 when payment is overdue', async () => {
    const h = await createHarness();
    await h.store.setAccountStatus(h.account.id, 'overdue');
    const res = await h.post(h.base, { visitorId: 'v' });
    expect(res.status).toBe(402);
    expect(res.body.error.message).toMatch(/overdue/);
  });

  it('writes a ledger row for every debit, summing to the balance change', async () => {
    const h = await createHarness();
    const id = await h.session();
    await h.post(`${h.base}/${id}/messages`, { content: 'What is your return policy?' });
    await h.get(`${h.base}/${id}/messages`);
    await h.get(`${h.base}/${id}`);
    await h.post(`${h.base}/${id}/end`);
    const ledger = await h.store.listLedgerEntries(h.account.id, 100);
    expect(ledger.map((e) => e.operation).sort()).toEqual(['message.turn', 'messages.list', 'session.create', 'session.end', 'session.get']);
    const spent = ledger.reduce((sum, e) => sum + e.total, 0);
    expect((await h.store.getAccount(h.account.id))!.balance).toBeCloseTo(1000 - spent, 6);
  });
});

describe('request bodies (DESIGN.md section 4)', () => {
  it('answers 415 for a body that is not JSON', async () => {
    const h = await createHarness();
    const res = await h.post(h.base, undefined, { raw: 'visitorId=v', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({ error: { code: 'unsupported_media_type' }, meta: { creditsConsumed: 0 } });
  });

  it('answers 400 invalid_json for malformed JSON', async () => {
    const h = await createHarness();
    const res = await h.post(h.base, undefined, { raw: '{"visitorId": ', headers: { 'Content-Type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_json');
  });

  it('answers 400 when the JSON body is not an object', async () => {
    const h = await createHarness();
    const res = await h.post(h.base, undefined, { raw: '["v"]', headers: { 'Content-Type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'validation_failed', field: 'body' });
  });

  it('answers 400 naming visitorId for an empty body', async () => {
    const h = await createHarness();
    const res = await h.post(h.base);
    expect(res.status).toBe(400);
    expect(res.body.error.field).toBe('visitorId');
  });

  it('answers 413 for bodies over 64 KiB', async () => {
    const h = await createHarness();
    const id = await h.session();
    const res = await h.post(`${h.base}/${id}/messages`, { content: 'x', padding: 'y'.repeat(70_000) });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ error: { code: 'payload_too_large' }, meta: { creditsConsumed: 0 } });
  });

  it('accepts application/json with a charset', async () => {
    const h = await createHarness();
    const res = await h.post(h.base, { visitorId: 'v' }, { headers: { 'Content-Type': 'application/json; charset=utf-8' } });
    expect(res.status).toBe(201);
  });
});

describe('every response is JSON with meta', () => {
  it('answers unknown routes with 404 and the error envelope', async () => {
    const h = await createHarness();
    const res = await h.get('/nope');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: { code: 'not_found' }, meta: { creditsConsumed: 0 } });
  });

  it('tags responses with a request id', async () => {
    const h = await createHarness();
    const res = await h.post(h.base, { visitorId: 'v' });
    expect(res.headers.get('x-request-id')).toMatch(/.+/);
  });

  it('answers /healthz', async () => {
    const h = await createHarness();
    const res = await h.get('/healthz', { key: null });
    expect(res).toMatchObject({ status: 200, body: { status: 'ok' } });
  });

  it('hides internal failures behind a generic 500', async () => {
    const h = await createHarness();
    const id = await h.session();
    h.store.getSession = () => Promise.reject(new Error('disk on fire'));
    const res = await h.get(`${h.base}/${id}`);
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ error: { code: 'internal_error' }, meta: { creditsConsumed: 0 } });
    expect(JSON.stringify(res.body)).not.toContain('disk on fire');
  });
});
