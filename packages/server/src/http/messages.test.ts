import { describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { CREDIT_BUCKETS } from '@svc/core/store-kit';
import { createScriptedAgent } from '@svc/agents';
import { createHarness } from '../testing/harness.js';

describe('POST …/messages, sync (spec 4.2)', () => {
  it('answers from the knowledge base with every reply field, credits in all 8 buckets', async () => {
    const h = await createHarness();
    const id = await h.session();
    const res = await h.post(`${h.base}/${id}/messages`, { content: 'Do you ship to Canada?' });
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data).toMatchObject({
      messageId: expect.stringMatching(/^msg_[0-9A-Z]{26}$/),
      content: expect.stringMatching(/canada/i),
      products: expect.any(Array),
      actions: [],
      sessionEnded: false,
    });
    expect(data).not.toHaveProperty('forms');
    expect(Object.keys(data.credits).sort()).toEqual([...CREDIT_BUCKETS].sort());
    expect(data.credits.chat).toBeGreaterThan(0);
    expect(data.credits.retrieval).toBeGreaterThan(0);
    expect(data.usage.inputTokens).toBeGreaterThan(0);
    expect(data.usage.outputTokens).toBeGreaterThan(0);
    const sum = CREDIT_BUCKETS.reduce((total, bucket) => total + data.credits[bucket], 0);
    expect(res.body.meta.creditsConsumed).toBeCloseTo(sum, 6);
    const balance = (await h.store.getAccount(h.account.id))!.balance;
    expect(balance).toBeCloseTo(1000 - 1 - sum, 6);
    const ledger = await h.store.listLedgerEntries(h.account.id, 10);
    expect(ledger[0]).toMatchObject({ operation: 'message.turn', messageId: data.messageId, total: res.body.meta.creditsConsumed });
  });

  it('returns matching products with id, name and price', async () => {
    const h = await createHarness();
    const id = await h.session();
    const res = await h.post(`${h.base}/${id}/messages`, { content: 'Which tents do you sell?' });
    expect(res.status).toBe(200);
    expect(res.body.data.products.length).toBeGreaterThan(0);
    for (const product of res.body.data.products) {
      expect(product).toMatchObject({ id: expect.any(String), name: expect.any(String), price: expect.any(Number) });
    }
  });

  it('resolves the session when the agent concludes: sessionEnded true, end unnecessary', async () => {
    const h = await createHarness();
    const id = await h.session();
    const res = await h.post(`${h.base}/${id}/messages`, { content: 'Thanks, that is all. Goodbye!' });
    expect(res.status).toBe(200);
    expect(res.body.data.sessionEnded).toBe(true);
    const session = await h.get(`${h.base}/${id}`);
    expect(session.body.data).toMatchObject({ status: 'resolved', resolvedAt: expect.any(String) });
    expect((await h.post(`${h.base}/${id}/messages`, { content: 'one more thing' })).status).toBe(409);
    expect((await h.post(`${h.base}/${id}/rate`, { rating: 'positive' })).status).toBe(200);
  });

  it('stores both sides of the turn in order', async () => {
    const h = await createHarness({ agent: createScriptedAgent(({ message }) => ({ content: `echo: ${message}` })) });
    const id = await h.session();
    await h.post(`${h.base}/${id}/messages`, { content: 'first' });
    await h.post(`${h.base}/${id}/messages`, { content: 'second' });
    const history = await h.get(`${h.base}/${id}/messages`);
    expect(history.body.data.map((m: { role: string; content: string }) => `${m.role}:${m.content}`)).toEqual([
      'user:first',
      'assistant:echo: first',
      'user:second',
      'assistant:echo: second',
    ]);
  });

  it('serialises concurrent turns on one session in arrival order', async () => {
    const h = await createHarness({
      agent: createScriptedAgent(async ({ message, history }) => {
        await sleep(message === 'one' ? 30 : 1);
        return { content: `${message} after ${history.length}` };
      }),
    });
    const id = await h.session();
    const [a, b] = await Promise.all([
      h.post(`${h.base}/${id}/messages`, { content: 'one' }),
      h.post(`${h.base}/${id}/messages`, { content: 'two' }),
    ]);
    expect(a.body.data.content).toBe('one after 0');
    expect(b.body.data.content).toBe('two after 2');
  });

  it('passes timezone, language and visitor context to the agent and upserts the context', async () => {
    const seen: unknown[] = [];
    const h = await createHarness({
      agent: createScriptedAgent((req) => {
        seen.push({ timezone: req.timezone, language: req.language, visitor: req.visitorContext, identity: req.identity });
        return { content: 'ok' };
      }),
    });
    const id = await h.session({ visitorId: 'v-1', language: 'fr', timezone: 'Europe/Paris' });
    await h.post(`${h.base}/${id}/messages`, { content: 'Bonjour', visitorContext: { name: 'Camille' } });
    await h.post(`${h.base}/${id}/messages`, { content: 'Encore', timezone: 'America/Montreal' });
    expect(seen).toEqual([
      { timezone: 'Europe/Paris', language: 'fr', visitor: { name: 'Camille' }, identity: null },
      { timezone: 'America/Montreal', language: 'fr', visitor: { name: 'Camille' }, identity: null },
    ]);
  });

  it.each([
    [{}, 'content'],
    [{ content: '' }, 'content'],
    [{ content: '   ' }, 'content'],
    [{ content: 'x'.repeat(4001) }, 'content'],
    [{ content: 7 }, 'content'],
    [{ content: 'hi', response_type: 'streaming' }, 'response_type'],
    [{ content: 'hi', timezone: 'Nowhere/Town' }, 'timezone'],
    [{ content: 'hi', visitorContext: { email: 'x' } }, 'visitorContext.email'],
  ])('rejects %j with 400 naming %s, storing and charging nothing', async (body, field) => {
    const h = await createHarness();
    const id = await h.session();
    const res = await h.post(`${h.base}/${id}/messages`, body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'validation_failed', field });
    expect((await h.store.getSession(h.widget.id, id))!.messageCount).toBe(0);
    expect((await h.store.getAccount(h.account.id))!.balance).toBe(999);
  });

  it('accepts exactly 4000 characters, counting an emoji as one', async () => {
    const h = await createHarness({ agent: createScriptedAgent(() => ({ content: 'ok' })) });
    const id = await h.session();
    expect((await h.post(`${h.base}/${id}/messages`, { content: '😀'.repeat(4000) })).status).toBe(200);
  });

  it('answers 404 for an unknown session and for an unknown widget', async () => {
    const h = await createHarness();
    const missingSession = await h.post(`${h.base}/sess_nope/messages`, { content: 'hi' });
    expect(missingSession.status).toBe(404);
    expect(missingSession.body.error.code).toBe('session_not_found');
    const missingWidget = await h.post('/widgets/wgt_nope/conversations/sess_nope/messages', { content: 'hi' });
    expect(missingWidget.status).toBe(404);
    expect(missingWidget.body.error.code).toBe('widget_not_found');
  });

  it('answers 400 callback_not_configured for callback mode on a key without a callback URL', async () => {
    const h = await createHarness();
    const id = await h.session();
    const res = await h.post(`${h.base}/${id}/messages`, { content: 'hi', response_type: 'callback' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: { code: 'callback_not_configured', field: 'response_type' }, meta: { creditsConsumed: 0 } });
    expect((await h.store.getSession(h.widget.id, id))!.messageCount).toBe(0);
  });
});

describe('verified identity (spec 5.3)', () => {
  it('refuses identity from a key without identity:assert: 403, nothing stored', async () => {
    const h = await createHarness();
    const id = await h.session();
    const res = await h.post(`${h.base}/${id}/messages`, { content: 'hi', identity: { sub: 'user-1' } });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'identity_scope_required', field: 'identity' });
    expect((await h.store.getSession(h.widget.id, id))!.messageCount).toBe(0);
  });

  it('passes identity to the agent for that call only and never stores it', async () => {
    const identities: unknown[] = [];
    const h = await createHarness({
      agent: createScriptedAgent((req) => {
        identities.push(req.identity);
        return { content: 'ok' };
      }),
    });
    const key = await h.newKey(['conversations:chat', 'identity:assert']);
    const id = await h.session();
    const identity = { sub: 'user-42', email: 'ada@example.com', email_verified: true };
    expect((await h.post(`${h.base}/${id}/messages`, { content: 'who am I?', identity }, { key })).status).toBe(200);
    expect((await h.post(`${h.base}/${id}/messages`, { content: 'and now?' }, { key })).status).toBe(200);
    expect(identities).toEqual([identity, null]);
    const everything = JSON.stringify([
      await h.store.getSession(h.widget.id, id),
      await h.store.listMessages({ widgetId: h.widget.id, sessionId: id, limit: 10 }),
      await h.store.getVisitor(h.account.id, 'visitor-1'),
    ]);
    expect(everything).not.toContain('user-42');
  });

  it.each([
    [{ identity: {} }, 'identity.sub'],
    [{ identity: { sub: '' } }, 'identity.sub'],
    [{ identity: { sub: 'x'.repeat(256) } }, 'identity.sub'],
    [{ identity: { sub: 'bad\u0007bell' } }, 'identity.sub'],
    [{ identity: { sub: 'u', email_verified: 'yes' } }, 'identity.email_verified'],
    [{ identity: { sub: 'u', email: 'not-an-email' } }, 'identity.email'],
    [{ identity: { sub: 'u', roles: { admin: true } } }, 'identity.roles'],
    [{ identity: 'user-1' }, 'identity'],
  ])('rejects %j with 400 invalid_identity naming %s', async (extra, field) => {
    const h = await createHarness();
    const key = await h.newKey(['conversations:chat', 'identity:assert']);
    const id = await h.session();
    const res = await h.post(`${h.base}/${id}/messages`, { content: 'hi', ...extra }, { key });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_identity', field });
  });

  it('accepts a 255-character sub', async () => {
    const h = await createHarness({ agent: createScriptedAgent(() => ({ content: 'ok' })) });
    const key = await h.newKey(['conversations:chat', 'identity:assert']);
    const id = await h.session();
    expect((await h.post(`${h.base}/${id}/messages`, { content: 'hi', identity: { sub: 'é'.repeat(255) } }, { key })).status).toBe(200);
  });
});

describe('slow and failing agents (DESIGN.md section 4)', () => {
  it('answers 202 processing with the future messageId when the sync wait runs out; the reply lands there', async () => {
    const h = await createHarness({
      syncTimeoutMs: 100,
      agent: createScriptedAgent(async () => {
        await sleep(300);
        return { content: 'Sorry for the wait' };
      }),
    });
    const id = await h.session();
    const res = await h.post(`${h.base}/${id}/messages`, { content: 'hello?' });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ data: { messageId: expect.stringMatching(/^msg_/), status: 'processing' }, meta: { creditsConsumed: 0 } });
    await sleep(400);
    const history = await h.get(`${h.base}/${id}/messages`);
    expect(history.body.data.at(-1)).toMatchObject({ messageId: res.body.data.messageId, role: 'assistant', content: 'Sorry for the wait' });
  });

  it('answers 502 agent_unavailable when the agent fails, keeps the visitor message and bills nothing', async () => {
    const h = await createHarness({
      agent: createScriptedAgent(() => {
        throw new Error('provider exploded');
      }),
    });
    const id = await h.session();
    const res = await h.post(`${h.base}/${id}/messages`, { content: 'are you there?' });
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ error: { code: 'agent_unavailable' }, meta: { creditsConsumed: 0 } });
    expect(JSON.stringify(res.body)).not.toContain('provider exploded');
    const history = await h.get(`${h.base}/${id}/messages`);
    expect(history.body.data.map((m: { content: string }) => m.content)).toEqual(['are you there?']);
    expect((await h.store.getAccount(h.account.id))!.balance).toBe(1000 - 1 - 1);
  });
});
