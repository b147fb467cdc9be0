import { afterEach, describe, expect, it, vi } from 'vitest';

// PGlite and PostgreSQL on a shared 2-core machine: generous per-test time, the assertions stay exact.
vi.setConfig({ testTimeout: 30_000 });
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { LookupAddress } from 'node:dns';
import { verifyCallback, type LifecycleEvent } from '@svc/callbacks';
import { Webhook } from 'svix';
import { createScriptedAgent } from '@svc/agents';
import { ANY_ACCOUNT, type Store } from '@svc/core';
import { createHarness } from '../testing/harness.js';
import { PRODUCTION_STORES } from '../testing/production-stores.js';
import { startReceiver, type ReceivedDelivery } from '../testing/receiver.js';
import { selfSignedCertificate } from '../testing/test-certificate.js';
import { webhookCommand } from '../testing/webhook-command.js';
import { operatorAdmin } from '../cli/operator-admin.js';

const HOST = 'hooks.example';
const PUBLIC_ADDRESS: LookupAddress[] = [{ address: '93.184.215.14', family: 4 }];
const certificate = selfSignedCertificate(HOST);

let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

/** What a receiver without @svc/callbacks does: HMAC-SHA256 over `<timestamp>.<raw body>`, any listed signature. */
function plainReceiverAccepts(delivery: ReceivedDelivery, secret: string): boolean {
  const expected = createHmac('sha256', secret).update(`${delivery.headers['x-svc-timestamp']}.${delivery.body}`).digest();
  return delivery.headers['x-svc-signature']!.split(',').some((hex) => {
    const candidate = Buffer.from(hex.trim(), 'hex');
    return candidate.length === expected.length && timingSafeEqual(candidate, expected);
  });
}

/** Svix's own verifier (the Standard Webhooks scheme): what a receiver built on Svix or standard-webhooks runs. */
function standardReceiverAccepts(delivery: ReceivedDelivery, secret: string): boolean {
  try {
    new Webhook(secret).verify(delivery.body, delivery.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
}

async function verified(delivery: ReceivedDelivery, secret: string): Promise<LifecycleEvent> {
  const { event } = await verifyCallback({ body: delivery.body, headers: delivery.headers }, { secret });
  expect(plainReceiverAccepts(delivery, secret)).toBe(true);
  expect(standardReceiverAccepts(delivery, secret)).toBe(true);
  expect(delivery.headers['webhook-id']).toBe(delivery.headers['x-svc-delivery']);
  expect(delivery.headers['webhook-timestamp']).toBe(delivery.headers['x-svc-timestamp']);
  return event as LifecycleEvent;
}

async function waitForDelivery(store: Store, predicate: (d: Awaited<ReturnType<Store['listDeliveries']>>[number]) => boolean, what: string) {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const found = (await store.listDeliveries({ limit: 100 })).find(predicate);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/**
 * Private callbacks are NOT allowed: the webhook URL names hooks.example, whose DNS answer (a public address) the
 * test gives; the policy judges it as it would a real one and only an approved address is dialled, at a loopback
 * https receiver, so nothing leaves the machine (as in callback-policy.test.ts).
 */
async function setup(open: () => Promise<{ store: Store; dispose: () => Promise<void> }>, options: { statuses?: number[]; retryDelaysMs?: number[]; events?: string } = {}) {
  const { store, dispose } = await open();
  cleanups.push(dispose);
  const receiver = await startReceiver(options.statuses ?? [200], { tls: certificate });
  cleanups.push(receiver.close);
  const port = new URL(receiver.url).port;
  const agent = createScriptedAgent(({ message }) => (message === 'bye' ? { content: 'Goodbye!', sessionEnded: true } : { content: `re ${message}` }));
  const h = await createHarness({ store, agent });
  const created = (await webhookCommand(
    'create',
    { account: h.account.id, url: `https://${HOST}:${port}/svc/webhooks`, ...(options.events ? { events: options.events } : {}) },
    store,
    false,
  )).json as { id: string; url: string; events: string[]; secret: string };
  const dialled: string[] = [];
  const workers = h.runtime.startWorkers({
    pollMs: 50,
    ...(options.retryDelaysMs ? { retryDelaysMs: options.retryDelaysMs } : {}),
    connect: {
      resolve: async (hostname) => (hostname === HOST ? PUBLIC_ADDRESS : Promise.reject(new Error(`unexpected lookup of ${hostname}`))),
      dialApproved: (approved) => {
        dialled.push(approved);
        return '127.0.0.1';
      },
      ca: certificate.cert,
    },
  });
  cleanups.push(() => workers.stop());
  return { h, store, receiver, webhook: created, dialled };
}

describe.each(PRODUCTION_STORES)('lifecycle webhooks over real sockets, default address policy (%s)', (_name, open) => {
  it('delivers each event once per state change, signed, with the get-session view', async () => {
    const { h, receiver, webhook, dialled } = await setup(open);
    expect(webhook).toEqual({ id: expect.stringMatching(/^whk_/), url: expect.stringContaining(HOST), events: ['session.created', 'session.resolved', 'session.expired', 'session.rated', 'session.handoff', 'message.feedback'], secret: expect.stringMatching(/^whsec_/) });

    const ended = await h.session();
    await h.post(h.base, { visitorId: 'visitor-1', sessionId: ended }); // resumed: no event
    expect((await h.post(`${h.base}/${ended}/messages`, { content: 'hello' })).status).toBe(200);
    expect((await h.post(`${h.base}/${ended}/end`)).status).toBe(200);
    expect((await h.post(`${h.base}/${ended}/end`)).status).toBe(200); // again: no event
    await receiver.waitFor(2);
    expect((await h.post(`${h.base}/${ended}/rate`, { rating: 'positive' })).status).toBe(200);
    await receiver.waitFor(3);
    const concluded = await h.session({ visitorId: 'visitor-2' });
    expect((await h.post(`${h.base}/${concluded}/messages`, { content: 'bye' })).body.data.sessionEnded).toBe(true);
    await receiver.waitFor(5);
    // Nothing more comes: one delivery per change.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.received).toHaveLength(5);

    const events = await Promise.all(receiver.received.map((delivery) => verified(delivery, webhook.secret)));
    expect(events.map((e) => [e.event, e.data.sessionId, e.data.status, 'reason' in e ? e.reason : null])).toEqual([
      ['session.created', ended, 'active', null],
      ['session.resolved', ended, 'resolved', 'ended'],
      ['session.rated', ended, 'resolved', null],
      ['session.created', concluded, 'active', null],
      ['session.resolved', concluded, 'resolved', 'agent'],
    ]);
    // `data` is exactly what get-session answers after the change.
    const view = (await h.get(`${h.base}/${ended}`)).body.data;
    expect(events[2]!.data).toEqual(view);
    expect(events[2]!.data.rating).toBe('positive');
    for (const [index, delivery] of receiver.received.entries()) {
      expect(delivery.headers['x-svc-event']).toBe(events[index]!.event);
      expect(delivery.headers['x-svc-delivery']).toBe(events[index]!.deliveryId);
      expect(delivery.headers['content-type']).toBe('application/json');
      expect(events[index]!.id).toMatch(/^evt_/);
    }
    expect(new Set(events.map((e) => e.deliveryId)).size).toBe(5);
    expect(new Set(dialled)).toEqual(new Set(['93.184.215.14']));
  });

  it('delivers message.feedback for each rating of a reply, signed, naming the message and its feedback', async () => {
    const { h, receiver, webhook } = await setup(open, { events: 'message.feedback' });
    const id = await h.session();
    const reply = (await h.post(`${h.base}/${id}/messages`, { content: 'When does my order ship?' })).body.data.messageId as string;
    expect((await h.post(`${h.base}/${id}/messages/${reply}/feedback`, { rating: 'up' })).status).toBe(200);
    await receiver.waitFor(1);
    expect((await h.post(`${h.base}/${id}/messages/${reply}/feedback`, { rating: 'down', reason: 'wrong', comment: 'It shipped already.' })).status).toBe(200);
    await receiver.waitFor(2);
    const events = await Promise.all(receiver.received.map((delivery) => verified(delivery, webhook.secret)));
    expect(events.map((e) => (e.event === 'message.feedback' ? [e.event, e.feedback.messageId, e.feedback.rating, e.feedback.reason, e.feedback.comment] : [e.event]))).toEqual([
      ['message.feedback', reply, 'up', null, null],
      ['message.feedback', reply, 'down', 'wrong', 'It shipped already.'],
    ]);
    expect(events[1]!.data).toEqual((await h.get(`${h.base}/${id}`)).body.data);
    expect(receiver.received[1]!.headers['x-svc-event']).toBe('message.feedback');
  });

  it('retries a failing endpoint 0 s and 1 s later with a fresh timestamp and the same delivery id, then stops', async () => {
    const { h, store, receiver, webhook } = await setup(open, { statuses: [500, 503, 200], events: 'session.created' });
    await h.session();
    const attempts = await receiver.waitFor(3, 15_000);
    expect(new Set(attempts.map((a) => a.headers['x-svc-delivery'])).size).toBe(1);
    for (const attempt of attempts) expect(plainReceiverAccepts(attempt, webhook.secret)).toBe(true);
    // Retry schedule of DESIGN.md 5: at once, then 1 s after the previous attempt.
    expect(attempts[1]!.at - attempts[0]!.at).toBeLessThan(900);
    expect(attempts[2]!.at - attempts[1]!.at).toBeGreaterThanOrEqual(950);
    const row = await waitForDelivery(store, (d) => d.webhookId === webhook.id && d.status === 'delivered', 'the delivered row');
    expect(row).toMatchObject({ event: 'session.created', attempts: 3, lastStatus: 200, keyId: null });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received).toHaveLength(3);
  });

  it('marks a delivery failed after 4 attempts and sends it again on replay', async () => {
    const { h, store, receiver, webhook } = await setup(open, { statuses: [500, 500, 500, 500, 204], retryDelaysMs: [0, 0, 0], events: 'session.created' });
    await h.session();
    const failed = await waitForDelivery(store, (d) => d.webhookId === webhook.id && d.status === 'failed', 'the failed row');
    expect(failed).toMatchObject({ attempts: 4, lastStatus: 500, lastError: 'HTTP 500' });
    expect(receiver.received).toHaveLength(4);
    await operatorAdmin(store).replayDelivery(ANY_ACCOUNT, failed.id);
    // The running workers pick the replay up at their next poll.
    await receiver.waitFor(5);
    const replayed = receiver.received[4]!;
    expect(replayed.headers['x-svc-delivery']).toBe(failed.id);
    expect((await verified(replayed, webhook.secret)).event).toBe('session.created');
    expect(await waitForDelivery(store, (d) => d.id === failed.id && d.status === 'delivered', 'the replayed row')).toMatchObject({ attempts: 1 });
  });

  it('signs with both secrets during a rotation grace period, then with the new one only', async () => {
    const { h, store, receiver, webhook } = await setup(open, { events: 'session.created' });
    const rotated = (await webhookCommand('rotate-secret', { id: webhook.id, graceSeconds: 3600 }, store, false)).json as {
      secret: string;
      previousSecretValidUntil: string;
    };
    expect(rotated.secret).not.toBe(webhook.secret);
    expect(Date.parse(rotated.previousSecretValidUntil) - Date.now()).toBeGreaterThan(3_500_000);
    await h.session();
    const [overlap] = await receiver.waitFor(1);
    expect(overlap!.headers['x-svc-signature']!.split(',')).toHaveLength(2);
    // A receiver still on the old secret and one already on the new secret both accept it.
    await verified(overlap!, webhook.secret);
    await verified(overlap!, rotated.secret);

    const immediate = (await webhookCommand('rotate-secret', { id: webhook.id, graceSeconds: 0 }, store, false)).json as { secret: string };
    await h.session({ visitorId: 'visitor-2' });
    const [, after] = await receiver.waitFor(2);
    expect(after!.headers['x-svc-signature']!.split(',')).toHaveLength(1);
    await verified(after!, immediate.secret);
    expect(plainReceiverAccepts(after!, rotated.secret)).toBe(false);
    expect(standardReceiverAccepts(after!, rotated.secret)).toBe(false);
    expect(after!.headers['webhook-signature']!.split(' ')).toHaveLength(1);
    await expect(verifyCallback({ body: after!.body, headers: after!.headers }, { secret: webhook.secret })).rejects.toMatchObject({ reason: 'signature_mismatch' });
  });
});

describe('svc webhooks: the address policy of callback URLs', () => {
  it('refuses http, private addresses and URLs with credentials unless private callbacks are allowed', async () => {
    const h = await createHarness();
    const create = (url: string, allowPrivate = false) => webhookCommand('create', { account: h.account.id, url }, h.store, allowPrivate);
    await expect(create('http://hooks.example.com/in')).rejects.toMatchObject({ code: 'validation_failed', field: 'url' });
    await expect(create('https://127.0.0.1/in')).rejects.toMatchObject({ code: 'validation_failed', field: 'url' });
    await expect(create('https://10.0.0.8/in')).rejects.toMatchObject({ code: 'validation_failed', field: 'url' });
    await expect(create('https://user:pw@hooks.example.com/in')).rejects.toMatchObject({ code: 'validation_failed', field: 'url' });
    await expect(create('https://user:pw@127.0.0.1/in', true)).rejects.toMatchObject({ field: 'url' });
    await expect(create('http://127.0.0.1:4000/in', true)).resolves.toMatchObject({ json: { url: 'http://127.0.0.1:4000/in' } });
    await expect(create('https://[2606:4700:4700::1111]/in')).resolves.toMatchObject({ json: { url: 'https://[2606:4700:4700::1111]/in' } });
    await expect(webhookCommand('create', { account: h.account.id, url: 'https://hooks.example.com/in', events: 'session.created,session.transferred' }, h.store, false)).rejects.toMatchObject({ field: 'events' });
    const listed = (await webhookCommand('list', { account: h.account.id }, h.store, false)).json as Array<Record<string, unknown>>;
    expect(listed).toHaveLength(2);
    // Listings never show a secret.
    for (const entry of listed) expect(Object.keys(entry)).toEqual(['id', 'url', 'events', 'createdAt', 'secretRotatedUntil']);
    await webhookCommand('delete', { id: listed[0]!.id as string }, h.store, false);
    await expect(webhookCommand('delete', { id: listed[0]!.id as string }, h.store, false)).rejects.toMatchObject({ code: 'not_found' });
    expect((await webhookCommand('list', { account: h.account.id }, h.store, false)).json).toHaveLength(1);
  });
});
