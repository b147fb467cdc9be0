import { expect, it } from 'vitest';
import type { Store } from '../../store/store.js';
import { at, makeApiKey, makeWidget } from '../fixtures.js';

export function widgetAndKeyContract(store: () => Store): void {
  it('round-trips a widget with forms, theme and knowledge bases', async () => {
    const widget = makeWidget();
    await store().insertWidget(widget);
    expect(await store().getWidget(widget.id)).toEqual(widget);
    expect(await store().getWidget('wgt_missing')).toBeNull();
    await expect(store().insertWidget(widget)).rejects.toThrow();
  });

  it('round-trips a widget with empty collections', async () => {
    const widget = makeWidget({ knowledgeBaseIds: [], forms: [], theme: {} });
    await store().insertWidget(widget);
    expect(await store().getWidget(widget.id)).toEqual(widget);
  });

  it('updates only the fields a widget patch names', async () => {
    const widget = makeWidget();
    await store().insertWidget(widget);
    const forms = [{ id: 'lead', title: 'Leave your email', questions: [{ id: 'email', label: 'Email', kind: 'email' as const, required: true }] }];
    expect(await store().updateWidget(widget.id, { name: 'Renamed', forms, knowledgeBaseIds: ['kb_new'] })).toBe(true);
    expect(await store().getWidget(widget.id)).toEqual({ ...widget, name: 'Renamed', forms, knowledgeBaseIds: ['kb_new'] });
    expect(await store().updateWidget('wgt_missing', { name: 'x' })).toBe(false);
  });

  it("lists one account's widgets oldest first", async () => {
    const second = makeWidget({ accountId: 'acct_w', createdAt: at(2) });
    const first = makeWidget({ accountId: 'acct_w', createdAt: at(1) });
    await store().insertWidget(second);
    await store().insertWidget(makeWidget({ accountId: 'acct_other' }));
    await store().insertWidget(first);
    expect(await store().listWidgets('acct_w')).toEqual([first, second]);
    expect(await store().listWidgets('acct_none')).toEqual([]);
  });

  it('round-trips secret and public keys, found by id and by hash', async () => {
    const secret = makeApiKey({ createdAt: at(1), name: 'Back office — Zoë', scopes: ['admin', 'knowledge:read'] });
    const publicKey = makeApiKey({
      kind: 'public',
      prefix: 'pk_live_XyZw',
      scopes: ['conversations:chat'],
      callbackUrl: null,
      callbackSecret: null,
      replyFormat: 'whatsapp',
      widgetId: 'wgt_bound',
      allowedOrigins: ['https://shop.example.com', 'http://localhost:5173'],
      createdAt: at(2),
    });
    await store().insertApiKey(secret);
    await store().insertApiKey(publicKey);
    expect(await store().getApiKey(secret.id)).toEqual(secret);
    expect(await store().getApiKey(publicKey.id)).toEqual(publicKey);
    expect(await store().findApiKeyByHash(publicKey.hash)).toEqual(publicKey);
    expect(await store().findApiKeyByHash('no-such-hash')).toBeNull();
    expect(await store().getApiKey('key_missing')).toBeNull();
  });

  it('rejects a second key with the same id or the same hash', async () => {
    const apiKey = makeApiKey();
    await store().insertApiKey(apiKey);
    await expect(store().insertApiKey({ ...apiKey, hash: 'another-hash' })).rejects.toThrow();
    await expect(store().insertApiKey(makeApiKey({ hash: apiKey.hash }))).rejects.toThrow();
  });

  it("lists every key, or one account's, oldest first", async () => {
    const a2 = makeApiKey({ accountId: 'acct_a', createdAt: at(3) });
    const b1 = makeApiKey({ accountId: 'acct_b', createdAt: at(2) });
    const a1 = makeApiKey({ accountId: 'acct_a', createdAt: at(1) });
    for (const apiKey of [a2, b1, a1]) await store().insertApiKey(apiKey);
    expect(await store().listApiKeys('acct_a')).toEqual([a1, a2]);
    expect(await store().listApiKeys()).toEqual([a1, b1, a2]);
    expect(await store().listApiKeys('acct_none')).toEqual([]);
  });

  it("rotates a key's callback secret, saying whether the key exists", async () => {
    const apiKey = makeApiKey();
    const other = makeApiKey();
    await store().insertApiKey(apiKey);
    await store().insertApiKey(other);
    expect(await store().setApiKeyCallbackSecret(apiKey.id, 'whsec_rotated_9f2d')).toBe(true);
    expect(await store().getApiKey(apiKey.id)).toEqual({ ...apiKey, callbackSecret: 'whsec_rotated_9f2d' });
    expect((await store().findApiKeyByHash(apiKey.hash))?.callbackSecret).toBe('whsec_rotated_9f2d');
    expect(await store().getApiKey(other.id)).toEqual(other);
    expect(await store().setApiKeyCallbackSecret('key_missing', 'whsec_x')).toBe(false);
  });

  it('revokes a key once: a second revocation changes nothing and says so', async () => {
    const apiKey = makeApiKey();
    await store().insertApiKey(apiKey);
    expect(await store().revokeApiKey(apiKey.id, at(60))).toBe(true);
    expect(await store().revokeApiKey(apiKey.id, at(120))).toBe(false);
    expect(await store().getApiKey(apiKey.id)).toEqual({ ...apiKey, revokedAt: at(60) });
    expect((await store().findApiKeyByHash(apiKey.hash))?.revokedAt).toEqual(at(60));
    expect(await store().revokeApiKey('key_missing', at(60))).toBe(false);
  });
}
