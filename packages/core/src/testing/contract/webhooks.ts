import { expect, it } from 'vitest';
import type { Store } from '../../store/store.js';
import { at, makeAccount, makeDelivery, makeSession, makeWebhook } from '../fixtures.js';

/** Webhook endpoints, lifecycle delivery rows, and the expiry sweep that writes them (DESIGN.md section 5). */
export function webhookContract(store: () => Store): void {
  it('stores endpoints with every field, lists one account\'s oldest first, and deletes them', async () => {
    const account = makeAccount();
    const first = makeWebhook({ accountId: account.id, createdAt: at(2), events: ['session.rated'] });
    const second = makeWebhook({ accountId: account.id, createdAt: at(5), previousSecret: 'whsec_old', previousSecretExpiresAt: at(90) });
    const other = makeWebhook({ accountId: 'acct_other' });
    for (const webhook of [second, other, first]) await store().insertWebhook(webhook);

    expect(await store().getWebhook(second.id)).toEqual(second);
    expect(await store().getWebhook('whk_missing')).toBeNull();
    expect(await store().listWebhooks(account.id)).toEqual([first, second]);
    await expect(store().insertWebhook(first)).rejects.toThrow();

    expect(await store().deleteWebhook(first.id)).toBe(true);
    expect(await store().deleteWebhook(first.id)).toBe(false);
    expect(await store().listWebhooks(account.id)).toEqual([second]);
    expect(await store().listWebhooks('acct_other')).toEqual([other]);
  });

  it('sets the secrets of a rotation and returns the endpoint as stored', async () => {
    const webhook = makeWebhook();
    await store().insertWebhook(webhook);
    const rotated = { secret: 'whsec_new', previousSecret: webhook.secret, previousSecretExpiresAt: at(3600) };
    expect(await store().setWebhookSecrets(webhook.id, rotated)).toEqual({ ...webhook, ...rotated });
    expect(await store().getWebhook(webhook.id)).toEqual({ ...webhook, ...rotated });
    const retired = { secret: 'whsec_newer', previousSecret: null, previousSecretExpiresAt: null };
    expect(await store().setWebhookSecrets(webhook.id, retired)).toEqual({ ...webhook, ...retired });
    expect(await store().setWebhookSecrets('whk_missing', retired)).toBeNull();
  });

  it('round-trips lifecycle deliveries (no key, an endpoint) and claims them like callbacks', async () => {
    const lifecycle = makeDelivery({
      keyId: null,
      webhookId: 'whk_fixture',
      messageId: null,
      event: 'session.expired',
      payload: '{"event":"session.expired","id":"evt_1", "data":{"status":"expired"}}',
    });
    const callback = makeDelivery({ nextAttemptAt: at(1) });
    await store().insertDelivery(lifecycle);
    await store().insertDelivery(callback);
    expect(await store().getDelivery(lifecycle.id)).toEqual(lifecycle);
    const claimed = await store().claimDeliveries({ owner: 'w1', now: at(5), leaseMs: 1000, limit: 10 });
    expect(claimed.map((delivery) => [delivery.id, delivery.keyId, delivery.webhookId])).toEqual([
      [lifecycle.id, null, 'whk_fixture'],
      [callback.id, callback.keyId, null],
    ]);
    for (const event of ['session.created', 'session.resolved', 'session.rated', 'session.handoff', 'message.feedback'] as const) {
      const row = makeDelivery({ keyId: null, webhookId: 'whk_fixture', event });
      await store().insertDelivery(row);
      expect((await store().getDelivery(row.id))?.event).toBe(event);
    }
  });

  it('expires due active sessions in batches, earliest expiry first, returning each one it changed once', async () => {
    const now = at(1000);
    const later = makeSession({ expiresAt: at(999), pendingFormId: 'form_1' });
    const earliest = makeSession({ expiresAt: at(100) });
    const dueExactly = makeSession({ expiresAt: now });
    const notYet = makeSession({ expiresAt: at(1001) });
    const resolved = makeSession({ status: 'resolved', resolvedAt: at(10), expiresAt: at(10) });
    for (const session of [later, earliest, dueExactly, notYet, resolved]) await store().insertSession(session);

    const firstBatch = await store().expireDueSessions({ now, limit: 2 });
    expect(firstBatch).toEqual([
      { ...earliest, status: 'expired', pendingFormId: null },
      { ...later, status: 'expired', pendingFormId: null },
    ]);
    expect(await store().expireDueSessions({ now, limit: 2 })).toEqual([{ ...dueExactly, status: 'expired' }]);
    expect(await store().expireDueSessions({ now, limit: 2 })).toEqual([]);
    expect(await store().getSession(later.widgetId, later.id)).toEqual({ ...later, status: 'expired', pendingFormId: null });
    expect(await store().getSession(notYet.widgetId, notYet.id)).toEqual(notYet);
    expect(await store().getSession(resolved.widgetId, resolved.id)).toEqual(resolved);
  });

  it('expires one named session only when it is active and due, once', async () => {
    const now = at(1000);
    const named = makeSession({ expiresAt: at(5) });
    const bystander = makeSession({ expiresAt: at(5) });
    const fresh = makeSession({ expiresAt: at(2000) });
    for (const session of [named, bystander, fresh]) await store().insertSession(session);
    const only = (s: typeof named) => ({ widgetId: s.widgetId, sessionId: s.id });

    expect(await store().expireDueSessions({ now, limit: 1, session: only(named) })).toEqual([{ ...named, status: 'expired' }]);
    expect(await store().expireDueSessions({ now, limit: 1, session: only(named) })).toEqual([]);
    expect(await store().expireDueSessions({ now, limit: 1, session: only(fresh) })).toEqual([]);
    expect(await store().getSession(bystander.widgetId, bystander.id)).toEqual(bystander);
  });

  it('writes an expiry and its delivery rows atomically: a failed transaction leaves the session active', async () => {
    const session = makeSession({ expiresAt: at(1) });
    await store().insertSession(session);
    await expect(
      store().transaction(async (tx) => {
        const [expired] = await tx.expireDueSessions({ now: at(10), limit: 10 });
        await tx.insertDelivery(makeDelivery({ keyId: null, webhookId: 'whk_x', event: 'session.expired', sessionId: expired!.id }));
        throw new Error('crash before commit');
      }),
    ).rejects.toThrow('crash before commit');
    expect(await store().getSession(session.widgetId, session.id)).toEqual(session);
    expect(await store().listDeliveries({ limit: 10 })).toEqual([]);
  });
}
