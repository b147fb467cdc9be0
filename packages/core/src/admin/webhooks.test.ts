import { describe, expect, it } from 'vitest';
import { manualClock } from '../clock.js';
import { createMemoryStore } from '../store/memory-store.js';
import { createAdmin } from './admin.js';
import { ANY_ACCOUNT } from './context.js';
import { signingSecrets } from './webhooks.js';

const publicOnly = (url: URL): string | null => (url.protocol === 'https:' ? null : 'webhook URLs must use https');

async function setup(start?: string) {
  const clock = manualClock(start);
  const store = createMemoryStore();
  const admin = createAdmin({ store, clock, urlProblem: publicOnly });
  const account = await admin.createAccount({ name: 'Acme' });
  return { clock, store, admin, accountId: account.id };
}

describe('webhook endpoint operations', () => {
  it('creates an endpoint with every event by default, refusing unknown events, bad URLs and unknown accounts', async () => {
    const { clock, store, admin, accountId } = await setup();
    const { webhook, secret } = await admin.createWebhook({ accountId, url: 'https://hooks.example.com/in' });
    expect(secret).toMatch(/^whsec_[0-9A-Za-z+/]{43}=$/);
    expect(await store.getWebhook(webhook.id)).toEqual({
      id: webhook.id,
      accountId,
      url: 'https://hooks.example.com/in',
      events: ['session.created', 'session.resolved', 'session.expired', 'session.rated', 'session.handoff', 'message.feedback'],
      secret,
      previousSecret: null,
      previousSecretExpiresAt: null,
      createdAt: clock.now(),
    });
    const some = await admin.createWebhook({ accountId, url: 'https://hooks.example.com/x', events: ['session.rated', 'session.created', 'session.rated'] });
    expect(some.webhook.events).toEqual(['session.created', 'session.rated']);

    await expect(admin.createWebhook({ accountId, url: 'https://x.example', events: ['session.unknown'] })).rejects.toMatchObject({ field: 'events' });
    await expect(admin.createWebhook({ accountId, url: 'https://x.example', events: [] })).rejects.toMatchObject({ field: 'events' });
    await expect(admin.createWebhook({ accountId, url: 'http://x.example' })).rejects.toMatchObject({ field: 'url', code: 'validation_failed' });
    await expect(admin.createWebhook({ accountId, url: 'not a url' })).rejects.toMatchObject({ field: 'url' });
    await expect(admin.createWebhook({ accountId: 'acct_missing', url: 'https://x.example' })).rejects.toMatchObject({ field: 'account' });
  });

  it('rotates with a grace period during which both secrets sign, then only the new one', async () => {
    const { clock, admin, accountId } = await setup('2026-05-01T10:00:00.000Z');
    const { webhook, secret: first } = await admin.createWebhook({ accountId, url: 'https://hooks.example.com/in' });
    const { webhook: rotated, secret: second } = await admin.rotateWebhookSecret(accountId, webhook.id, 60);
    expect(second).not.toBe(first);
    expect(signingSecrets(rotated, clock.now())).toEqual([second, first]);
    expect(signingSecrets(rotated, new Date(clock.now().getTime() + 59_999))).toEqual([second, first]);
    expect(signingSecrets(rotated, new Date(clock.now().getTime() + 60_000))).toEqual([second]);
    const { webhook: immediate, secret: third } = await admin.rotateWebhookSecret(ANY_ACCOUNT, webhook.id, 0);
    expect(signingSecrets(immediate, clock.now())).toEqual([third]);
    await expect(admin.rotateWebhookSecret(accountId, webhook.id, -1)).rejects.toMatchObject({ field: 'graceSeconds' });
    await expect(admin.rotateWebhookSecret(accountId, 'whk_missing', 60)).rejects.toMatchObject({ code: 'not_found' });
  });

  it("neither rotates, deletes nor lists another account's endpoint", async () => {
    const { store, admin, accountId } = await setup();
    const other = await admin.createAccount({ name: 'Other' });
    const { webhook, secret } = await admin.createWebhook({ accountId, url: 'https://hooks.example.com/in' });
    await expect(admin.rotateWebhookSecret(other.id, webhook.id)).rejects.toMatchObject({ code: 'not_found', status: 404 });
    await expect(admin.deleteWebhook(other.id, webhook.id)).rejects.toMatchObject({ code: 'not_found', status: 404 });
    expect(await admin.listWebhooks(other.id)).toEqual([]);
    expect((await store.getWebhook(webhook.id))!.secret).toBe(secret);
    await admin.deleteWebhook(accountId, webhook.id);
    expect(await store.getWebhook(webhook.id)).toBeNull();
  });
});
