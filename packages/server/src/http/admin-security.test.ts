import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LOGIN_THROTTLE } from '@svc/core';
import { ANY_OPERATOR } from './admin-route-kit.js';
import { ADMIN_ROUTES } from './admin-routes.js';
import { OPERATOR_PASSWORD, startAdminFixture, type AdminFixture, type CallOptions } from '../testing/admin-api.js';
import { PRODUCTION_STORES, type OpenedStore } from '../testing/production-stores.js';

// PGlite and PostgreSQL on a shared 2-core machine, and scrypt on every sign-in: generous per-test time.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

/** Every admin route but signing in, as a concrete request: path parameters filled with ids that exist nowhere. */
const GUARDED = ADMIN_ROUTES.filter((route) => route.auth === 'admin').map((route) => ({
  route,
  method: route.method.toUpperCase(),
  path: route.path.replace(/\{(\w+)\}/g, (_, name: string) => `${name}_nowhere`),
  // Enough of a body to pass validation where one is needed, so only the guard under test can refuse it.
  body: route.body ? {} : undefined,
}));
const WRITES = GUARDED.filter(({ method }) => method !== 'GET');

/** A body each route with one would accept (from its own account): the tenant matrix sends it with A's ids. */
const VALID_BODIES: Record<string, (ids: Record<string, string>) => Record<string, unknown>> = {
  adminChangePassword: () => ({ currentPassword: 'not the password', newPassword: 'a long enough password' }),
  adminCreateOperator: () => ({ email: `made.${Math.random().toString(36).slice(2)}@beta.example`, password: 'a long enough password' }),
  adminCreateWidget: () => ({ name: 'Made by B' }),
  adminUpdateWidget: () => ({ greeting: 'Changed by B' }),
  adminSetWidgetTheme: () => ({ primaryColor: '#000000' }),
  adminSetWidgetForms: () => ({ forms: [] }),
  adminRotateIdentitySecret: () => ({}),
  adminCreateKey: () => ({ scopes: ['admin'] }),
  adminCreatePublicKey: (ids) => ({ widgetId: ids['widgetId']!, origins: ['https://evil.example'] }),
  adminCreateWebhook: () => ({ url: 'https://evil.example/hook' }),
  adminRotateWebhookSecret: () => ({}),
  adminCreateKnowledgeBase: () => ({ name: 'Made by B' }),
  adminImportKnowledge: () => ({ products: [{ id: 'planted', name: 'Planted', price: 1 }] }),
  adminSearchKnowledge: () => ({ text: 'tent' }),
  adminReplyAsOperator: () => ({ text: 'Written by B' }),
  adminAddSource: () => ({ type: 'website', url: 'https://evil.example/' }),
  adminAnswerQuestion: () => ({ content: 'Written by B' }),
  adminStartEvalRun: () => ({ name: 'planted', cases: [{ name: 'b', question: 'Run by B?' }] }),
  adminPutEvalSuite: () => ({ cases: [{ name: 'b', question: 'Stored by B?' }] }),
  adminAddEvalCase: (ids) => ({ sessionId: ids['sessionId']! }),
};

/** Account A with one of everything the admin API addresses, by path parameter name, and the secrets it must never show B. */
async function resourcesOf(f: AdminFixture) {
  const as = (method: string, path: string, body?: unknown) => f.call(method, `/admin/v1${path}`, { key: f.adminKeyA, ...(body === undefined ? {} : { body }) });
  const kb = (await as('POST', '/knowledge-bases', { name: 'A catalogue' })).body.data;
  await as('POST', `/knowledge-bases/${kb.id}/import`, { products: [{ id: 'tent-a', name: 'Tent of A', price: 10 }], documents: [{ title: 'Returns of A', content: 'Thirty days.' }] });
  const source = (await as('POST', `/knowledge-bases/${kb.id}/sources`, { type: 'website', url: 'https://help.a.example/' })).body.data;
  const widget = (await as('POST', '/widgets', { name: 'A widget', knowledgeBaseIds: [kb.id] })).body.data;
  const webhook = (await as('POST', '/webhooks', { url: 'https://hooks.a.example/in' })).body.data;
  const key = (await as('POST', '/keys', { name: 'A key', scopes: ['conversations:chat'], callbackUrl: 'https://hooks.a.example/cb' })).body.data;
  const opened = await fetch(`${f.server.url}/widgets/${widget.id}/conversations`, {
    method: 'POST',
    headers: { 'X-API-Key': key.key, 'Content-Type': 'application/json' },
    body: JSON.stringify({ visitorId: 'visitor-of-a' }),
  });
  const sessionId = ((await opened.json()) as { data: { sessionId: string } }).data.sessionId;
  await as('POST', `/conversations/${widget.id}/${sessionId}/messages`, { text: 'A private answer' });
  // The session.created event queued a delivery to A's webhook.
  const [delivery] = await f.store.listDeliveries({ accountId: f.accountA.id, limit: 1 });
  // A question the assistant could not answer, on A's questions page.
  const asked = new Date();
  const groupId = `qgr_a${Math.random().toString(36).slice(2)}`;
  await f.store.insertQuestionGroup({
    id: groupId, accountId: f.accountA.id, widgetId: widget.id, kind: 'unanswered', status: 'open', sample: 'A private question', terms: ['private', 'question'],
    count: 1, firstAskedAt: asked, lastAskedAt: asked, sessions: [sessionId], daily: {}, closedAt: null, documentId: null,
  });
  // An eval suite and a finished run of it.
  await as('PUT', `/widgets/${widget.id}/evals/suites/a-suite`, { cases: [{ name: 'returns', question: 'What about returns?' }] });
  const queued = (await as('POST', `/widgets/${widget.id}/evals/runs`, { name: 'a-suite', cases: [{ name: 'returns', question: 'What about returns?' }] })).body.data;
  for (let i = 0; i < 200 && (await f.store.getEvalRun(queued.id))?.finishedAt == null; i++) await new Promise((resolve) => setTimeout(resolve, 20));
  return {
    ids: <Record<string, string>>{
      widgetId: widget.id,
      sessionId,
      kbId: kb.id,
      sourceId: source.id,
      keyId: key.apiKey.id,
      webhookId: webhook.id,
      deliveryId: delivery!.id,
      groupId,
      accountId: f.accountA.id,
      runId: queued.id,
      suite: 'a-suite',
    },
    secrets: [widget.identitySecret, webhook.secret, key.key, key.callbackSecret, 'A private answer', 'visitor-of-a', 'owner@acme.example', 'A private question'],
  };
}

/** Everything of account A as stored. */
async function snapshotOf(f: AdminFixture, a: Awaited<ReturnType<typeof resourcesOf>>) {
  const { store } = f;
  const id = f.accountA.id;
  return {
    account: await store.getAccount(id),
    widgets: await store.listWidgets(id),
    keys: await store.listApiKeys(id),
    webhooks: await store.listWebhooks(id),
    knowledgeBases: await store.listKnowledgeBases(id),
    products: await store.listProducts({ knowledgeBaseId: a.ids.kbId!, limit: 100 }),
    documents: await store.listDocuments(a.ids.kbId!),
    sources: await store.listSources(a.ids.kbId!),
    session: await store.getSession(a.ids.widgetId!, a.ids.sessionId!),
    messages: await store.listMessages({ widgetId: a.ids.widgetId!, sessionId: a.ids.sessionId!, limit: 100 }),
    deliveries: (await store.listDeliveries({ accountId: id, limit: 100 })).map(({ id: deliveryId, status, attempts }) => ({ deliveryId, status, attempts })),
    operators: await store.listOperators(id),
    questions: await store.listQuestionGroups({ accountId: id, status: 'open', limit: 100 }),
    evalSuites: await store.listEvalSuites(a.ids.widgetId!),
    evalRuns: await store.listEvalRuns({ widgetId: a.ids.widgetId!, limit: 100 }),
  };
}

describe.each(PRODUCTION_STORES)('admin API security on %s (real HTTP)', (_name, open) => {
  let opened: OpenedStore;
  let f: AdminFixture;
  beforeAll(async () => {
    opened = await open();
    f = await startAdminFixture(opened.store);
  });
  afterAll(async () => {
    await f?.close();
    await opened?.dispose();
  });

  it('answers no admin endpoint without a session or an admin key, and changes nothing', async () => {
    expect(GUARDED.length).toBe(ADMIN_ROUTES.length - 1);
    const operatorsBefore = await f.store.listOperators(f.accountA.id);
    const refusals: Array<[string, CallOptions, number, string]> = [
      ['nothing', {}, 401, 'authentication_required'],
      ['a cookie no session has', { cookie: `svc_console=cst_${'A'.repeat(43)}` }, 401, 'authentication_required'],
      ['a malformed cookie', { cookie: 'svc_console=../../etc' }, 401, 'authentication_required'],
      ['an unknown key', { key: `sk_live_${'Z'.repeat(40)}` }, 401, 'invalid_api_key'],
      ['a key without the admin scope', { key: f.chatKeyA }, 403, 'insufficient_scope'],
      ['a key without the admin scope in X-API-Key', { key: f.chatKeyA, keyHeader: 'x-api-key' }, 403, 'insufficient_scope'],
    ];
    for (const { method, path, body } of GUARDED) {
      for (const [what, opts, status, code] of refusals) {
        const res = await f.call(method, path, { ...opts, ...(body ? { body } : {}) });
        expect([res.status, res.body?.error?.code], `${method} ${path} with ${what}`).toEqual([status, code]);
        expect(res.headers.get('cache-control')).toBe('no-store');
      }
    }
    expect(await f.store.listOperators(f.accountA.id)).toEqual(operatorsBefore);
  });

  it('accepts an admin key as Authorization: Bearer or X-API-Key, acting as the owner of its account', async () => {
    for (const keyHeader of ['authorization', 'x-api-key'] as const) {
      const res = await f.call('GET', '/admin/v1/account', { key: f.adminKeyA, keyHeader });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: { id: f.accountA.id, name: 'Acme', balance: 1000, status: 'active' }, meta: { creditsConsumed: 0 } });
    }
    // A key has no session: the console's own routes are for operators.
    expect((await f.call('GET', '/admin/v1/me', { key: f.adminKeyA })).body.error.code).toBe('insufficient_role');
  });

  it('signs in with a cookie that is HttpOnly, SameSite=Strict and Path=/, Secure except on loopback', async () => {
    const signedIn = await f.signIn('Owner@Acme.example');
    const attributes = signedIn.setCookie.split(';').map((part) => part.trim().toLowerCase());
    expect(signedIn.cookie).toMatch(/^svc_console=cst_[A-Za-z0-9]{43}$/);
    expect(attributes).toEqual(expect.arrayContaining(['httponly', 'samesite=strict', 'path=/']));
    expect(attributes).not.toContain('secure');

    const remote = await f.rawSignIn('console.shop.example', 'owner@acme.example');
    expect(remote.status).toBe(200);
    expect(remote.setCookie[0]!.split(';').map((part) => part.trim().toLowerCase())).toEqual(
      expect.arrayContaining(['httponly', 'samesite=strict', 'path=/', 'secure']),
    );

    const me = await f.call('GET', '/admin/v1/me', { cookie: signedIn.cookie });
    expect(me.body.data).toEqual({
      operator: { id: f.ownerA.id, email: 'owner@acme.example', name: 'Acme owner', role: 'owner', accountId: f.accountA.id, createdAt: f.ownerA.createdAt.toISOString() },
      csrfToken: signedIn.csrf,
    });
    expect(me.text).not.toContain('scrypt');
  });

  it('requires the CSRF token (and this origin) on every cookie-authenticated write', async () => {
    const signedIn = await f.signIn('owner@acme.example');
    for (const { method, path, body } of WRITES) {
      for (const opts of [{}, { csrf: 'wrong' }, { csrf: signedIn.csrf, origin: 'https://evil.example' }, { csrf: signedIn.csrf, origin: 'null' }]) {
        const res = await f.call(method, path, { cookie: signedIn.cookie, ...opts, ...(body ? { body } : {}) });
        expect([res.status, res.body?.error?.code], `${method} ${path} ${JSON.stringify(opts)}`).toEqual([403, 'csrf_failed']);
      }
    }
    const created = await f.call('POST', '/admin/v1/operators', {
      cookie: signedIn.cookie,
      csrf: signedIn.csrf,
      origin: f.server.url,
      body: { email: 'new.agent@acme.example', name: 'New agent', password: 'a long enough password' },
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ email: 'new.agent@acme.example', role: 'agent', accountId: f.accountA.id });
    expect(created.text).not.toContain('password');
    // A sign-in from another site is refused too (login CSRF).
    const foreign = await f.call('POST', '/admin/v1/sessions', { origin: 'https://evil.example', body: { email: 'owner@acme.example', password: OPERATOR_PASSWORD } });
    expect([foreign.status, foreign.body.error.code]).toEqual([403, 'csrf_failed']);
    expect(foreign.headers.get('set-cookie')).toBeNull();
  });

  it('limits an agent to conversations and /me, everything else 403 insufficient_role', async () => {
    const agent = await f.signIn('agent@acme.example');
    expect((await f.call('GET', '/admin/v1/me', { cookie: agent.cookie })).body.data.operator.role).toBe('agent');
    for (const { route, method, path, body } of GUARDED) {
      if ((route.roles ?? ['owner']).includes('agent')) continue;
      const res = await f.call(method, path, { cookie: agent.cookie, csrf: agent.csrf, ...(body ? { body } : {}) });
      expect([res.status, res.body?.error?.code], `${method} ${path}`).toEqual([403, 'insufficient_role']);
    }
    expect(ANY_OPERATOR).toContain('agent');
  });

  it('answers an unknown email like a wrong password, and throttles an email after 5 failures (429 with Retry-After)', async () => {
    await f.addOperator(f.accountB.id, 'target@beta.example');
    const address = f.freshAddress();
    const unknown = await f.call('POST', '/admin/v1/sessions', { address, body: { email: 'nobody@acme.example', password: OPERATOR_PASSWORD } });
    const wrong = await f.call('POST', '/admin/v1/sessions', { address, body: { email: 'target@beta.example', password: 'not the password' } });
    expect([unknown.status, wrong.status]).toEqual([401, 401]);
    expect(unknown.body).toEqual(wrong.body);
    expect(unknown.body.error).toEqual({ code: 'invalid_credentials', message: 'The email or the password is wrong.' });

    for (let i = 1; i < LOGIN_THROTTLE.perEmail; i++) {
      const res = await f.call('POST', '/admin/v1/sessions', { address: f.freshAddress(), body: { email: 'target@beta.example', password: `wrong ${i}` } });
      expect(res.status).toBe(401);
    }
    const throttled = await f.call('POST', '/admin/v1/sessions', { address: f.freshAddress(), body: { email: 'target@beta.example', password: OPERATOR_PASSWORD } });
    expect([throttled.status, throttled.body.error.code]).toEqual([429, 'rate_limited']);
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(throttled.headers.get('retry-after'))).toBeLessThanOrEqual(LOGIN_THROTTLE.windowMs / 1000);
    expect(throttled.headers.get('set-cookie')).toBeNull();
  });

  it('throttles an address after 20 failures, whatever the emails', async () => {
    const address = f.freshAddress();
    for (let i = 0; i < LOGIN_THROTTLE.perAddress; i++) {
      const res = await f.call('POST', '/admin/v1/sessions', { address, body: { email: `guess${i}@acme.example`, password: 'guess' } });
      expect(res.status).toBe(401);
    }
    const throttled = await f.call('POST', '/admin/v1/sessions', { address, body: { email: 'agent@acme.example', password: OPERATOR_PASSWORD } });
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await f.call('POST', '/admin/v1/sessions', { address: f.freshAddress(), body: { email: 'agent@acme.example', password: OPERATOR_PASSWORD } })).status).toBe(200);
  });

  it('ends every other session of the operator when the password changes, and signs out one session', async () => {
    await f.addOperator(f.accountB.id, 'changer@beta.example');
    const here = await f.signIn('changer@beta.example', OPERATOR_PASSWORD, f.freshAddress());
    const elsewhere = await f.signIn('changer@beta.example', OPERATOR_PASSWORD, f.freshAddress());
    const wrong = await f.call('PUT', '/admin/v1/me/password', { cookie: here.cookie, csrf: here.csrf, body: { currentPassword: 'nope', newPassword: 'a brand new password' } });
    expect([wrong.status, wrong.body.error.field]).toEqual([400, 'currentPassword']);
    const short = await f.call('PUT', '/admin/v1/me/password', { cookie: here.cookie, csrf: here.csrf, body: { currentPassword: OPERATOR_PASSWORD, newPassword: 'short' } });
    expect([short.status, short.body.error.field]).toEqual([400, 'newPassword']);

    const changed = await f.call('PUT', '/admin/v1/me/password', { cookie: here.cookie, csrf: here.csrf, body: { currentPassword: OPERATOR_PASSWORD, newPassword: 'a brand new password' } });
    expect(changed.status).toBe(204);
    expect((await f.call('GET', '/admin/v1/me', { cookie: here.cookie })).status).toBe(200);
    const signedOut = await f.call('GET', '/admin/v1/me', { cookie: elsewhere.cookie });
    expect([signedOut.status, signedOut.body.error.code]).toEqual([401, 'authentication_required']);
    expect(signedOut.headers.get('set-cookie')).toMatch(/^svc_console=;.*Max-Age=0/i);
    expect((await f.call('POST', '/admin/v1/sessions', { address: f.freshAddress(), body: { email: 'changer@beta.example', password: OPERATOR_PASSWORD } })).status).toBe(401);
    const again = await f.signIn('changer@beta.example', 'a brand new password', f.freshAddress());

    const out = await f.call('DELETE', '/admin/v1/sessions/current', { cookie: here.cookie, csrf: here.csrf });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/^svc_console=;.*Max-Age=0/i);
    expect((await f.call('GET', '/admin/v1/me', { cookie: here.cookie })).status).toBe(401);
    expect((await f.call('GET', '/admin/v1/me', { cookie: again.cookie })).status).toBe(200);
  });

  it("keeps every caller of account B out of account A, on the whole admin API: nothing of A is read or changed", async () => {
    const a = await resourcesOf(f);
    const ownerB = await f.signIn('owner@beta.example', OPERATOR_PASSWORD, f.freshAddress());
    const keyB = (await f.call('POST', '/admin/v1/keys', { cookie: ownerB.cookie, csrf: ownerB.csrf, body: { scopes: ['admin'] } })).body.data.key as string;
    const before = await snapshotOf(f, a);
    const secretsOfA = [...Object.values(a.ids), ...a.secrets];
    expect(new Set(Object.keys(VALID_BODIES))).toEqual(new Set(GUARDED.filter(({ route }) => route.body).map(({ route }) => route.operationId)));

    // Signing out last: it ends the session the rest of the matrix uses.
    const matrix = [...GUARDED].sort((x, y) => Number(x.route.operationId === 'adminSignOut') - Number(y.route.operationId === 'adminSignOut'));
    for (const caller of [{ cookie: ownerB.cookie, csrf: ownerB.csrf }, { key: keyB }]) {
      for (const { route, method } of matrix) {
        const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => a.ids[name]!);
        const body = route.body ? VALID_BODIES[route.operationId]!(a.ids) : undefined;
        const res = await f.call(method, path, { ...caller, ...(body ? { body } : {}) });
        const what = `${method} ${path} as ${'key' in caller ? 'an admin key' : 'an owner'} of B`;
        if (route.path.includes('{')) expect(res.status, what).toBe(404);
        // An error may name the id the caller sent; nothing else of A may show.
        const sent = path + JSON.stringify(body ?? {});
        for (const secret of secretsOfA.filter((value) => !sent.includes(value))) expect(res.text, what).not.toContain(secret);
      }
    }
    expect(await snapshotOf(f, a)).toEqual(before);
  });
});
