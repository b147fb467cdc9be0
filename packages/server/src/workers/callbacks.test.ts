import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { verifyCallback } from '@svc/callbacks';
import { createScriptedAgent } from '@svc/agents';
import { CREDIT_BUCKETS } from '@svc/core/store-kit';
import { createHarness, type Harness } from '../testing/harness.js';
import { startReceiver } from '../testing/receiver.js';
import type { Workers } from './workers.js';
import { operatorAdmin } from '../cli/operator-admin.js';

let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

async function withCallbacks(h: Harness, receiverUrl: string, options: { retryDelaysMs?: number[] } = {}) {
  const created = await operatorAdmin(h.store, { allowPrivateCallbacks: true }).createApiKey({
    accountId: h.account.id,
    scopes: ['conversations:chat', 'identity:assert'],
    callbackUrl: receiverUrl,
  });
  const workers: Workers = h.runtime.startWorkers({
    allowPrivateCallbacks: true,
    pollMs: 50,
    ...(options.retryDelaysMs ? { retryDelaysMs: options.retryDelaysMs } : {}),
  });
  cleanups.push(() => workers.stop());
  return { key: created.key, secret: created.callbackSecret!, keyId: created.apiKey.id };
}

describe('callback mode (spec 4.2, 6)', () => {
  it('answers 202 at once, then delivers a signed message.completed that verifies, readable in history', async () => {
    const h = await createHarness({ config: { allowPrivateCallbacks: true } });
    const receiver = await startReceiver();
    cleanups.push(receiver.close);
    const { key, secret } = await withCallbacks(h, receiver.url);
    const id = await h.session();

    const res = await h.post(`${h.base}/${id}/messages`, { content: 'Do you ship to Canada?', response_type: 'callback' }, { key });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ data: { messageId: null, status: 'processing' }, meta: { creditsConsumed: 0 } });

    const [delivery] = await receiver.waitFor(1);
    const headers = delivery!.headers;
    expect(headers['x-svc-event']).toBe('message.completed');
    expect(headers['x-svc-delivery']).toMatch(/^dlv_/);
    expect(Math.abs(Number(headers['x-svc-timestamp']) - Date.now() / 1000)).toBeLessThan(30);
    // An independent check of the signature rule of spec 6.
    const expected = createHmac('sha256', secret).update(`${headers['x-svc-timestamp']}.${delivery!.body}`).digest('hex');
    expect(headers['x-svc-signature']).toBe(expected);
    const verified = await verifyCallback({ body: delivery!.body, headers }, { secret });
    expect(verified.event).toMatchObject({
      event: 'message.completed',
      messageId: expect.stringMatching(/^msg_/),
      sessionId: id,
      widgetId: h.widget.id,
      data: { content: expect.stringMatching(/canada/i), products: [], actions: [], sessionEnded: false },
    });
    const body = JSON.parse(delivery!.body);
    expect(Object.keys(body.data.credits)).toEqual([...CREDIT_BUCKETS]);
    expect(body.data.usage.outputTokens).toBeGreaterThan(0);

    const history = await h.get(`${h.base}/${id}/messages`, { key });
    expect(history.body.data.map((m: { messageId: string; role: string }) => m.role)).toEqual(['user', 'assistant']);
    expect(history.body.data[1].messageId).toBe(body.messageId);
    const ledger = await h.store.listLedgerEntries(h.account.id, 10);
    expect(ledger.find((e) => e.operation === 'message.turn')?.messageId).toBe(body.messageId);
  });

  it('signs the delivery id with the body, so a replay under a new X-Svc-Delivery id is rejected (issue 10)', async () => {
    const h = await createHarness({ config: { allowPrivateCallbacks: true }, agent: createScriptedAgent(() => ({ content: 'once' })) });
    const receiver = await startReceiver();
    cleanups.push(receiver.close);
    const { key, secret } = await withCallbacks(h, receiver.url);
    const id = await h.session();
    await h.post(`${h.base}/${id}/messages`, { content: 'hi', response_type: 'callback' }, { key });
    const [delivery] = await receiver.waitFor(1);
    const body = JSON.parse(delivery!.body);
    expect(body).toMatchObject({ event: 'message.completed', deliveryId: delivery!.headers['x-svc-delivery'] });
    expect(Object.keys(body).slice(0, 2)).toEqual(['event', 'deliveryId']);
    const genuine = await verifyCallback({ body: delivery!.body, headers: delivery!.headers }, { secret });
    expect(genuine.deliveryId).toBe(body.deliveryId);
    // The captured delivery, replayed within the tolerance under a fresh id to slip past de-duplication.
    const replay = { ...delivery!.headers, 'x-svc-delivery': 'dlv_attackerchosen00000000' };
    await expect(verifyCallback({ body: delivery!.body, headers: replay }, { secret })).rejects.toMatchObject({ reason: 'invalid_body' });
  });

  it('answers 400 callback_not_configured for a key without a callback URL, storing nothing', async () => {
    const h = await createHarness();
    const id = await h.session();
    const res = await h.post(`${h.base}/${id}/messages`, { content: 'hi', response_type: 'callback' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('callback_not_configured');
    expect((await h.store.getSession(h.widget.id, id))!.messageCount).toBe(0);
  });

  it('retries 0 s, 1 s and 5 s after each failure with the same X-Svc-Delivery and fresh timestamps', async () => {
    const h = await createHarness({ config: { allowPrivateCallbacks: true }, agent: createScriptedAgent(() => ({ content: 'ok' })) });
    const receiver = await startReceiver([500, 500, 500, 200]);
    cleanups.push(receiver.close);
    const { key } = await withCallbacks(h, receiver.url);
    const id = await h.session();
    await h.post(`${h.base}/${id}/messages`, { content: 'hi', response_type: 'callback' }, { key });
    const attempts = await receiver.waitFor(4, 20_000);
    const gaps = attempts.slice(1).map((a, i) => (a.at - attempts[i]!.at) / 1000);
    expect(gaps[0]).toBeLessThan(0.5);
    expect(gaps[1]).toBeGreaterThan(0.9);
    expect(gaps[1]).toBeLessThan(1.6);
    expect(gaps[2]).toBeGreaterThan(4.9);
    expect(gaps[2]).toBeLessThan(5.7);
    expect(new Set(attempts.map((a) => a.headers['x-svc-delivery'])).size).toBe(1);
    // The attempt is recorded once its response is read, a moment after the receiver saw the request.
    await expect.poll(async () => (await h.store.listDeliveries({ limit: 1 }))[0]).toMatchObject({
      status: 'delivered',
      attempts: 4,
      lastStatus: 200,
    });
  }, 30_000);

  it('gives up after exactly 4 attempts; the reply stays readable and the delivery can be replayed', async () => {
    const h = await createHarness({ config: { allowPrivateCallbacks: true }, agent: createScriptedAgent(() => ({ content: 'kept' })) });
    const receiver = await startReceiver([503]);
    cleanups.push(receiver.close);
    const { key } = await withCallbacks(h, receiver.url, { retryDelaysMs: [0, 50, 100] });
    const id = await h.session();
    await h.post(`${h.base}/${id}/messages`, { content: 'hi', response_type: 'callback' }, { key });
    await receiver.waitFor(4);
    await expect.poll(async () => (await h.store.listDeliveries({ limit: 1 }))[0]?.status).toBe('failed');
    await sleep(300);
    expect(receiver.received).toHaveLength(4);
    const [delivery] = await h.store.listDeliveries({ limit: 1 });
    expect(delivery).toMatchObject({ status: 'failed', attempts: 4, lastStatus: 503 });
    const history = await h.get(`${h.base}/${id}/messages`, { key });
    expect(history.body.data.at(-1)).toMatchObject({ role: 'assistant', content: 'kept' });
    await h.admin.replayDelivery(h.account.id, delivery!.id);
    await receiver.waitFor(5);
  });

  it('delivers message.failed when the agent fails; the visitor message is kept and nothing billed', async () => {
    const h = await createHarness({
      config: { allowPrivateCallbacks: true },
      agent: createScriptedAgent(() => {
        throw new Error('model down');
      }),
    });
    const receiver = await startReceiver();
    cleanups.push(receiver.close);
    const { key, secret } = await withCallbacks(h, receiver.url);
    const id = await h.session();
    await h.post(`${h.base}/${id}/messages`, { content: 'hello?', response_type: 'callback' }, { key });
    const [delivery] = await receiver.waitFor(1);
    expect(delivery!.headers['x-svc-event']).toBe('message.failed');
    const verified = await verifyCallback({ body: delivery!.body, headers: delivery!.headers }, { secret });
    expect(verified.event).toEqual({
      event: 'message.failed',
      deliveryId: delivery!.headers['x-svc-delivery'],
      messageId: null,
      sessionId: id,
      widgetId: h.widget.id,
      error: { code: 'agent_unavailable', message: expect.any(String) },
    });
    expect((await h.store.getAccount(h.account.id))!.balance).toBe(999);
    expect((await h.store.listMessages({ widgetId: h.widget.id, sessionId: id, limit: 10 })).map((m) => m.content)).toEqual(['hello?']);
  });

  it('carries identity through to processing and erases it with the job', async () => {
    const seen: unknown[] = [];
    const h = await createHarness({
      config: { allowPrivateCallbacks: true },
      agent: createScriptedAgent((req) => {
        seen.push(req.identity);
        return { content: 'hi Ada' };
      }),
    });
    const receiver = await startReceiver();
    cleanups.push(receiver.close);
    const { key } = await withCallbacks(h, receiver.url);
    const id = await h.session();
    await h.post(`${h.base}/${id}/messages`, { content: 'me?', response_type: 'callback', identity: { sub: 'user-7' } }, { key });
    await receiver.waitFor(1);
    await sleep(50);
    expect(seen).toEqual([{ sub: 'user-7' }]);
    const jobs = await h.store.claimTurnJobs({ owner: 'probe', now: new Date(Date.now() + 3_600_000), leaseMs: 1, limit: 10 });
    expect(jobs).toEqual([]);
    const dump = JSON.stringify(await h.store.listDeliveries({ limit: 10 }));
    expect(dump).not.toContain('user-7');
  });

  it('runs the callback turns of one session in arrival order', async () => {
    const h = await createHarness({
      config: { allowPrivateCallbacks: true },
      agent: createScriptedAgent(async ({ message }) => {
        await sleep(message === 'one' ? 60 : 1);
        return { content: `re ${message}` };
      }),
    });
    const receiver = await startReceiver();
    cleanups.push(receiver.close);
    const { key } = await withCallbacks(h, receiver.url);
    const id = await h.session();
    for (const content of ['one', 'two', 'three']) {
      expect((await h.post(`${h.base}/${id}/messages`, { content, response_type: 'callback' }, { key })).status).toBe(202);
    }
    const deliveries = await receiver.waitFor(3);
    expect(deliveries.map((d) => JSON.parse(d.body).data.content)).toEqual(['re one', 're two', 're three']);
    const history = await h.get(`${h.base}/${id}/messages`, { key });
    // Each visitor message enters the history when its turn starts, so each reply follows the message it answers.
    expect(history.body.data.map((m: { content: string }) => m.content)).toEqual(['one', 're one', 'two', 're two', 'three', 're three']);
  });

  it('delivers a sync reply that outlived the sync wait (202) to the key’s callback URL too', async () => {
    const h = await createHarness({
      config: { allowPrivateCallbacks: true },
      syncTimeoutMs: 100,
      agent: createScriptedAgent(async () => {
        await sleep(300);
        return { content: 'slow but sure' };
      }),
    });
    const receiver = await startReceiver();
    cleanups.push(receiver.close);
    const { key, secret } = await withCallbacks(h, receiver.url);
    const id = await h.session();
    const res = await h.post(`${h.base}/${id}/messages`, { content: 'hello?' }, { key });
    expect(res.status).toBe(202);
    const [delivery] = await receiver.waitFor(1);
    const verified = await verifyCallback({ body: delivery!.body, headers: delivery!.headers }, { secret });
    expect(verified.event).toMatchObject({ event: 'message.completed', messageId: res.body.data.messageId, data: { content: 'slow but sure' } });
  });

  it('does not deliver sync replies answered in time', async () => {
    const h = await createHarness({ config: { allowPrivateCallbacks: true }, agent: createScriptedAgent(() => ({ content: 'quick' })) });
    const receiver = await startReceiver();
    cleanups.push(receiver.close);
    const { key } = await withCallbacks(h, receiver.url);
    const id = await h.session();
    expect((await h.post(`${h.base}/${id}/messages`, { content: 'hi' }, { key })).status).toBe(200);
    await sleep(300);
    expect(receiver.received).toHaveLength(0);
  });
});
