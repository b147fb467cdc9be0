import { describe, expect, it } from 'vitest';
import { manualClock } from '../clock.js';
import type { Ids } from '../ids.js';
import { sha256Hex } from '../signing.js';
import { createMemoryStore } from '../store/memory-store.js';
import { makeDelivery } from '../testing/fixtures.js';
import { createAdmin } from './admin.js';
import { ANY_ACCOUNT } from './context.js';

/** Ids that count up per prefix, so tests can name what an operation created. */
function countingIds(): Ids {
  const next = new Map<string, number>();
  const id = (prefix: string) => {
    const n = (next.get(prefix) ?? 0) + 1;
    next.set(prefix, n);
    return `${prefix}_${n}`;
  };
  return { random: id, sortable: id };
}

async function setup() {
  const clock = manualClock('2026-03-01T09:00:00.000Z');
  const store = createMemoryStore();
  const admin = createAdmin({ store, clock, ids: countingIds(), urlProblem: (url) => (url.protocol === 'https:' ? null : 'must use https') });
  const acme = await admin.createAccount({ name: 'Acme', credits: 50 });
  const other = await admin.createAccount({ name: 'Other' });
  return { clock, store, admin, acme, other };
}

describe('operator operations use the ports', () => {
  it('stamps what they create with the clock and the id port, never the system time', async () => {
    const { clock, store, admin, acme } = await setup();
    expect(acme).toMatchObject({ id: 'acct_1', balance: 50, createdAt: clock.now() });
    const { knowledgeBase } = await admin.importKnowledgeBase({ accountId: acme.id, content: { products: [{ id: 'p1', name: 'Tent', price: 99 }], documents: [{ title: 'Hours', content: 'Open 9-5.' }] } });
    expect(knowledgeBase).toMatchObject({ id: 'kb_1', createdAt: clock.now() });
    expect(await store.listDocuments('kb_1')).toMatchObject([{ id: 'doc_1', createdAt: clock.now() }]);
    const widget = await admin.createWidget({ accountId: acme.id, name: ' Shop ', knowledgeBaseIds: ['kb_1', 'kb_1'] });
    expect(widget).toMatchObject({ id: 'wgt_1', name: 'Shop', knowledgeBaseIds: ['kb_1'], createdAt: clock.now(), sessionTtlSeconds: 86_400 });
    expect(widget.identitySecrets).toEqual([{ secret: expect.stringMatching(/^idsec_\w{43}$/), createdAt: clock.now(), retiresAt: null }]);

    clock.advance(60_000);
    const { apiKey, key } = await admin.createApiKey({ accountId: acme.id, scopes: ['conversations:chat', 'conversations:chat'] });
    expect(await store.getApiKey(apiKey.id)).toEqual({
      id: 'key_1',
      accountId: acme.id,
      kind: 'secret',
      prefix: key.slice(0, 12),
      hash: await sha256Hex(key),
      scopes: ['conversations:chat'],
      callbackUrl: null,
      callbackSecret: null,
      replyFormat: 'markdown',
      widgetId: null,
      allowedOrigins: [],
      createdAt: clock.now(),
      revokedAt: null,
    });
    const pub = await admin.createPublicKey(acme.id, { widgetId: widget.id, origins: ['https://shop.example/', 'https://shop.example'] });
    expect(pub.key).toMatch(/^pk_live_\w{32}$/);
    expect(pub.apiKey).toMatchObject({ id: 'key_2', kind: 'public', scopes: ['conversations:chat'], widgetId: widget.id, allowedOrigins: ['https://shop.example'], createdAt: clock.now() });

    clock.advance(1000);
    expect((await admin.revokeKey(acme.id, apiKey.id)).revokedAt).toEqual(clock.now());
    expect((await store.getApiKey(apiKey.id))!.revokedAt).toEqual(clock.now());
  });

  it('rotates an identity secret keeping the old one for the grace period, by the clock', async () => {
    const { clock, admin, acme } = await setup();
    const widget = await admin.createWidget({ accountId: acme.id, name: 'Shop' });
    const old = widget.identitySecrets[0]!.secret;
    clock.advance(5000);
    const { widget: rotated, identitySecret } = await admin.rotateIdentitySecret(acme.id, widget.id, 3600);
    expect(rotated.identitySecrets).toEqual([
      { secret: identitySecret, createdAt: clock.now(), retiresAt: null },
      { secret: old, createdAt: widget.createdAt, retiresAt: new Date(clock.now().getTime() + 3_600_000) },
    ]);
    expect((await admin.getWidget(acme.id, widget.id)).identitySecrets).toEqual(rotated.identitySecrets);
  });
});

describe('operator operations are scoped to the account', () => {
  it("answers 404 for another account's widget, key, knowledge base and delivery, and changes nothing", async () => {
    const { store, admin, acme, other } = await setup();
    const widget = await admin.createWidget({ accountId: acme.id, name: 'Shop' });
    const { apiKey } = await admin.createApiKey({ accountId: acme.id, scopes: ['conversations:chat'], callbackUrl: 'https://hooks.example.com/cb' });
    const { knowledgeBase } = await admin.importKnowledgeBase({ accountId: acme.id, content: {} });
    const delivery = makeDelivery({ id: 'dlv_acme', accountId: acme.id, status: 'failed' });
    await store.insertDelivery(delivery);

    const widgetMissing = { code: 'widget_not_found', status: 404 };
    await expect(admin.getWidget(other.id, widget.id)).rejects.toMatchObject(widgetMissing);
    await expect(admin.updateWidget(other.id, widget.id, { name: 'Mine' })).rejects.toMatchObject(widgetMissing);
    await expect(admin.setWidgetTheme(other.id, widget.id, { primaryColor: '#000000' })).rejects.toMatchObject(widgetMissing);
    await expect(admin.setWidgetForms(other.id, widget.id, [])).rejects.toMatchObject(widgetMissing);
    await expect(admin.rotateIdentitySecret(other.id, widget.id, 0)).rejects.toMatchObject(widgetMissing);
    await expect(admin.createPublicKey(other.id, { widgetId: widget.id, origins: ['https://evil.example'] })).rejects.toMatchObject(widgetMissing);
    await expect(admin.createWidget({ accountId: other.id, name: 'Steal', knowledgeBaseIds: [knowledgeBase.id] })).rejects.toMatchObject({ field: 'knowledgeBase' });

    await expect(admin.revokeKey(other.id, apiKey.id)).rejects.toMatchObject({ code: 'not_found', status: 404 });
    await expect(admin.rotateCallbackSecret(other.id, apiKey.id)).rejects.toMatchObject({ code: 'not_found', status: 404 });
    expect(await admin.listKeys(other.id)).toEqual([]);

    const kbMissing = { code: 'knowledge_base_not_found', status: 404 };
    await expect(admin.getKnowledgeBase(other.id, knowledgeBase.id)).rejects.toMatchObject(kbMissing);
    await expect(admin.listKnowledgeProducts(other.id, knowledgeBase.id)).rejects.toMatchObject(kbMissing);
    await expect(admin.listKnowledgeDocuments(other.id, knowledgeBase.id)).rejects.toMatchObject(kbMissing);
    await expect(admin.searchKnowledge(other.id, knowledgeBase.id, { query: 'tent' })).rejects.toMatchObject(kbMissing);
    await expect(admin.importIntoKnowledgeBase(other.id, knowledgeBase.id, { products: [{ id: 'x', name: 'X', price: 1 }] })).rejects.toMatchObject(kbMissing);
    expect(await admin.listKnowledgeBases(other.id)).toEqual([]);

    await expect(admin.replayDelivery(other.id, delivery.id)).rejects.toMatchObject({ code: 'not_found', status: 404 });
    expect(await admin.listDeliveries(other.id)).toEqual([]);

    const stored = (await store.getWidget(widget.id))!;
    expect(stored).toMatchObject({ name: 'Shop', theme: {}, forms: [] });
    expect(stored.identitySecrets).toHaveLength(1);
    expect((await store.getApiKey(apiKey.id))!).toMatchObject({ revokedAt: null, callbackSecret: expect.any(String) });
    expect(await store.listApiKeys(acme.id)).toHaveLength(1);
    expect(await store.countProducts(knowledgeBase.id)).toBe(0);
    expect((await store.getDelivery(delivery.id))!.status).toBe('failed');
  });

  it('lets the owning account, and the command line, address the same resources', async () => {
    const { store, admin, acme } = await setup();
    const widget = await admin.createWidget({ accountId: acme.id, name: 'Shop' });
    expect((await admin.updateWidget(acme.id, widget.id, { greeting: 'Hello!', sessionTtlSeconds: 600 })).greeting).toBe('Hello!');
    expect(await store.getWidget(widget.id)).toMatchObject({ greeting: 'Hello!', sessionTtlSeconds: 600, name: 'Shop' });
    await admin.setWidgetTheme(ANY_ACCOUNT, widget.id, { primaryColor: '#0f766e' });
    expect((await store.getWidget(widget.id))!.theme).toEqual({ primaryColor: '#0f766e' });
    expect((await admin.listWidgets(acme.id)).map((w) => w.id)).toEqual([widget.id]);
    expect(await admin.getAccount(acme.id)).toEqual({ id: acme.id, name: 'Acme', balance: 50, status: 'active' });
  });

  it('reports a wrong id on the command line as a wrong flag (400), as the CLI always has', async () => {
    const { admin } = await setup();
    await expect(admin.setWidgetTheme(ANY_ACCOUNT, 'wgt_nope', {})).rejects.toMatchObject({ code: 'validation_failed', field: 'widget' });
    await expect(admin.rotateCallbackSecret(ANY_ACCOUNT, 'key_nope')).rejects.toMatchObject({ code: 'validation_failed', field: 'id' });
    await expect(admin.replayDelivery(ANY_ACCOUNT, 'dlv_nope')).rejects.toMatchObject({ code: 'validation_failed', field: 'id' });
    await expect(admin.deleteWebhook(ANY_ACCOUNT, 'whk_nope')).rejects.toMatchObject({ code: 'not_found', field: 'id' });
  });
});

describe('operator input is validated, naming the field', () => {
  it.each([
    [{ name: '' }, 'name'],
    [{ name: 'Shop', language: 'not a language!' }, 'language'],
    [{ name: 'Shop', timezone: 'Mars/Olympus' }, 'timezone'],
    [{ name: 'Shop', sessionTtlSeconds: 5 }, 'sessionTtl'],
    [{ name: 'Shop', knowledgeBaseIds: ['kb_missing'] }, 'knowledgeBase'],
    [{ name: 'Shop', forms: [{ id: 'f' }] }, 'forms.0.title'],
  ])('widget %j → %s', async (input, field) => {
    const { admin, acme } = await setup();
    await expect(admin.createWidget({ accountId: acme.id, ...input } as never)).rejects.toMatchObject({ code: 'validation_failed', status: 400, field });
  });

  it('refuses bad keys, credits, origins, knowledge files and searches', async () => {
    const { admin, acme } = await setup();
    const widget = await admin.createWidget({ accountId: acme.id, name: 'Shop' });
    await expect(admin.createApiKey({ accountId: acme.id, scopes: ['everything'] })).rejects.toMatchObject({ field: 'scopes' });
    await expect(admin.createApiKey({ accountId: acme.id, scopes: ['conversations:chat'], replyFormat: 'html' })).rejects.toMatchObject({ field: 'replyFormat' });
    await expect(admin.createApiKey({ accountId: acme.id, scopes: ['conversations:chat'], callbackUrl: 'http://hooks.example.com' })).rejects.toMatchObject({ field: 'callbackUrl' });
    await expect(admin.createApiKey({ accountId: 'acct_missing', scopes: ['conversations:chat'] })).rejects.toMatchObject({ field: 'account' });
    await expect(admin.setCredits(acme.id, -1)).rejects.toMatchObject({ field: 'balance' });
    await expect(admin.createAccount({ name: 'X', credits: Number.NaN })).rejects.toMatchObject({ field: 'credits' });
    await expect(admin.createPublicKey(acme.id, { widgetId: widget.id, origins: [] })).rejects.toMatchObject({ field: 'origins' });
    await expect(admin.createPublicKey(acme.id, { widgetId: widget.id, origins: ['https://shop.example/path'] })).rejects.toMatchObject({ field: 'origins' });
    await expect(admin.importKnowledgeBase({ accountId: acme.id, content: { products: [{ id: 'p', name: 'A', price: 1 }, { id: 'p', name: 'B', price: 2 }] } })).rejects.toMatchObject({ field: 'products' });
    await expect(admin.importKnowledgeBase({ accountId: acme.id, content: { documents: [{ title: 'T' }] } })).rejects.toMatchObject({ field: 'documents.0.content' });
    await expect(admin.createKnowledgeBase(acme.id, { name: '' })).rejects.toMatchObject({ field: 'name' });
    const kb = await admin.createKnowledgeBase(acme.id, { name: 'Catalogue' });
    await expect(admin.searchKnowledge(acme.id, kb.id, { query: '' })).rejects.toMatchObject({ field: 'query' });
    await expect(admin.listKnowledgeProducts(acme.id, kb.id, { limit: 0 })).rejects.toMatchObject({ field: 'limit' });
    await expect(admin.listDeliveries(acme.id, { limit: -1 })).rejects.toMatchObject({ field: 'limit' });
  });
});

describe('knowledge bases for their operator', () => {
  it('imports into an existing base, pages products by id and searches for free', async () => {
    const { store, admin, acme } = await setup();
    const kb = await admin.createKnowledgeBase(acme.id, { name: 'Catalogue' });
    const products = Array.from({ length: 3 }, (_, i) => ({ id: `p${i}`, name: `Tent ${i}`, price: 100 + i, description: 'A waterproof tent' }));
    expect(await admin.importIntoKnowledgeBase(acme.id, kb.id, { products, documents: [{ title: 'Returns', content: 'Tents can be returned within 30 days.' }] })).toEqual({ products: 3, documents: 1 });
    expect(await admin.getKnowledgeBase(acme.id, kb.id)).toMatchObject({ id: kb.id, name: 'Catalogue', products: 3, documents: 1 });
    const first = await admin.listKnowledgeProducts(acme.id, kb.id, { limit: 2 });
    expect(first.products.map((p) => p.id)).toEqual(['p0', 'p1']);
    const second = await admin.listKnowledgeProducts(acme.id, kb.id, { limit: 2, cursor: first.nextCursor! });
    expect(second).toMatchObject({ products: [{ id: 'p2' }], nextCursor: null });
    expect((await admin.listKnowledgeDocuments(acme.id, kb.id)).map((d) => d.title)).toEqual(['Returns']);
    const hits = await admin.searchKnowledge(acme.id, kb.id, { query: 'tent' });
    expect(hits.products.length + hits.passages.length).toBeGreaterThan(0);
    expect((await store.getAccount(acme.id))!.balance).toBe(50);
    expect(await store.listLedgerEntries(acme.id, 10)).toEqual([]);
  });
});
