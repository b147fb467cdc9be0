import { afterAll, describe, expect, it, vi } from 'vitest';

// PGlite and PostgreSQL on a shared 2-core machine: generous per-test time, the assertions stay exact.
vi.setConfig({ testTimeout: 60_000 });
import { ANY_ACCOUNT, type Store } from '@svc/core';
import { operatorAdmin } from '../cli/operator-admin.js';
import { createHarness, type Harness } from '../testing/harness.js';
import { PRODUCTION_STORES } from '../testing/production-stores.js';

/**
 * The answer-quality loop through HTTP (DESIGN.md section 12): thumbs on a reply, the questions the assistant failed
 * grouped on the questions page, and the answer written there used by the very next turn.
 */
const ORIGIN = 'https://shop.example';

const disposers: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const dispose of disposers) await dispose();
});

describe.each(PRODUCTION_STORES)('message feedback and the questions page (%s)', (_name, open) => {
  // One store per kind (PGlite takes seconds to create); each test gets an account, widget and knowledge base of its own.
  let shared: Promise<Store> | undefined;
  async function setup() {
    shared ??= open().then((opened) => {
      disposers.push(opened.dispose);
      return opened.store;
    });
    const h = await createHarness({ store: await shared });
    const adminKey = await h.newKey(['admin']);
    const asAdmin = { key: null, headers: { Authorization: `Bearer ${adminKey}` } };
    return { h, adminKey, asAdmin };
  }

  async function ask(h: Harness, content: string, sessionId?: string) {
    const id = sessionId ?? (await h.session({ visitorId: `visitor-${Math.random().toString(36).slice(2)}` }));
    const res = await h.post(`${h.base}/${id}/messages`, { content });
    expect(res.status).toBe(200);
    return { sessionId: id, reply: res.body.data as { messageId: string; sources: Array<{ documentId: string }> } };
  }

  it('rates a reply up, then down with a reason and a comment: free, replaced, shown in the history and stored', async () => {
    const { h, asAdmin } = await setup();
    const { sessionId, reply } = await ask(h, 'How do I return an item?');
    const path = `${h.base}/${sessionId}/messages/${reply.messageId}/feedback`;
    const balance = (await h.store.getAccount(h.account.id))!.balance;

    const up = await h.post(path, { rating: 'up' });
    expect(up.status).toBe(200);
    expect(up.body).toEqual({
      data: { messageId: reply.messageId, feedback: { rating: 'up', reason: null, comment: null, updatedAt: expect.any(String) } },
      meta: { creditsConsumed: 0 },
    });
    const down = await h.post(path, { rating: 'down', reason: 'incomplete', comment: '  It does not say how long a refund takes.  ' });
    expect(down.status).toBe(200);
    const feedback = { rating: 'down', reason: 'incomplete', comment: 'It does not say how long a refund takes.', updatedAt: expect.any(String) };
    expect(down.body.data.feedback).toEqual(feedback);

    const history = (await h.get(`${h.base}/${sessionId}/messages`)).body.data;
    expect(history[0]).not.toHaveProperty('feedback');
    expect(history[1]).toMatchObject({ messageId: reply.messageId, feedback });
    expect((await h.store.getMessage(h.widget.id, sessionId, reply.messageId))!.feedback).toMatchObject({ rating: 'down', reason: 'incomplete' });
    expect((await h.store.getAccount(h.account.id))!.balance).toBe(balance - 1); // the history page only
    // The console's conversation view shows it too.
    const seen = (await h.get(`/admin/v1/conversations/${h.widget.id}/${sessionId}`, asAdmin)).body.data.messages;
    expect(seen[0]).not.toHaveProperty('feedback');
    expect(seen[1].feedback).toEqual(feedback);
    // Analytics count the reply's thumbs once, as it stands now (the up was replaced by the down).
    const analytics = (await h.get(`/admin/v1/analytics?widgetId=${h.widget.id}`, asAdmin)).body.data;
    expect(analytics.turns).toMatchObject({ turns: 1, feedbackUp: 0, feedbackDown: 1 });
  });

  it('refuses what cannot be rated, naming the field or the message', async () => {
    const { h } = await setup();
    const { sessionId, reply } = await ask(h, 'How do I return an item?');
    const at = (messageId: string) => `${h.base}/${sessionId}/messages/${messageId}/feedback`;
    const visitorMessage = (await h.get(`${h.base}/${sessionId}/messages`)).body.data[0].messageId as string;

    const cases: Array<[string, unknown, number, string, string?]> = [
      [visitorMessage, { rating: 'up' }, 409, 'message_not_rateable'],
      ['msg_missing', { rating: 'up' }, 404, 'message_not_found'],
      [reply.messageId, { rating: 'meh' }, 400, 'validation_failed', 'rating'],
      [reply.messageId, { rating: 'down', reason: 'rude' }, 400, 'validation_failed', 'reason'],
      [reply.messageId, { rating: 'down', comment: 'x'.repeat(1001) }, 400, 'validation_failed', 'comment'],
      [reply.messageId, { rating: 'up', stars: 5 }, 400, 'validation_failed', 'stars'],
      [reply.messageId, {}, 400, 'validation_failed', 'rating'],
    ];
    for (const [messageId, body, status, code, field] of cases) {
      const res = await h.post(at(messageId), body);
      expect([res.status, res.body.error.code, res.body.error.field]).toEqual([status, code, field]);
    }
    expect((await h.post(at(reply.messageId), { rating: 'down', comment: 'é'.repeat(1000) })).status).toBe(200);
    const unknownSession = await h.post(`${h.base}/sess_missing/messages/${reply.messageId}/feedback`, { rating: 'up' });
    expect([unknownSession.status, unknownSession.body.error.code]).toEqual([404, 'session_not_found']);
  });

  it('a public key rates replies of the sessions the widget created, never those of a server key (DESIGN.md section 4)', async () => {
    const { h } = await setup();
    const { key: publicKey } = await operatorAdmin(h.store).createPublicKey(ANY_ACCOUNT, { widgetId: h.widget.id, origins: [ORIGIN] });
    const asWidget = { key: publicKey, headers: { Origin: ORIGIN } };

    const server = await ask(h, 'How do I return an item?');
    const refused = await h.post(`${h.base}/${server.sessionId}/messages/${server.reply.messageId}/feedback`, { rating: 'down' }, asWidget);
    expect([refused.status, refused.body.error.code]).toEqual([404, 'session_not_found']);
    expect((await h.store.getMessage(h.widget.id, server.sessionId, server.reply.messageId))!.feedback).toBeUndefined();

    const created = await h.post(h.base, { visitorId: 'visitor-7' }, asWidget);
    const sessionId = created.body.data.sessionId as string;
    const reply = (await h.post(`${h.base}/${sessionId}/messages`, { content: 'How do I return an item?' }, asWidget)).body.data.messageId as string;
    const rated = await h.post(`${h.base}/${sessionId}/messages/${reply}/feedback`, { rating: 'up' }, asWidget);
    expect(rated.status).toBe(200);
    expect(rated.headers.get('access-control-allow-origin')).toBe(ORIGIN);
  });

  it('groups unanswered and thumbs-down questions as they come; the written answer resolves the group and the next turn cites it', async () => {
    const { h, asAdmin } = await setup();
    const list = async (query = '') => {
      const res = await h.get(`/admin/v1/questions?widgetId=${h.widget.id}${query}`, asAdmin);
      expect(res.status).toBe(200);
      return res.body as { data: Array<Record<string, unknown> & { id: string }>; meta: { nextCursor: string | null } };
    };
    const first = await ask(h, 'Can I bring my dog on a cruise?');
    expect(first.reply.sources).toEqual([]);
    const second = await ask(h, 'Can I take my dog on the cruise?');
    const answered = await ask(h, 'How do I return an item?');
    await h.post(`${h.base}/${answered.sessionId}/messages/${answered.reply.messageId}/feedback`, { rating: 'down', reason: 'wrong' });
    // Rated down again: still one question.
    await h.post(`${h.base}/${answered.sessionId}/messages/${answered.reply.messageId}/feedback`, { rating: 'down', reason: 'unhelpful' });

    const open = await list();
    const today = new Date().toISOString().slice(0, 10);
    expect(open.data).toEqual([
      {
        id: expect.stringMatching(/^qgr_/),
        widgetId: h.widget.id,
        kind: 'thumbs_down',
        sample: 'How do I return an item?',
        count: 1,
        firstAskedAt: expect.any(String),
        lastAskedAt: expect.any(String),
        status: 'open',
        sessions: [answered.sessionId],
        trend: expect.arrayContaining([{ date: today, count: 1 }]),
        documentId: null,
      },
      expect.objectContaining({ kind: 'unanswered', sample: 'Can I bring my dog on a cruise?', count: 2, sessions: [first.sessionId, second.sessionId] }),
    ]);
    expect(open.data[1]!.trend).toHaveLength(14);
    const [thumbsDown, unanswered] = open.data as [{ id: string }, { id: string }];
    const paged = await list('&limit=1');
    expect(paged.data.map((group) => group.id)).toEqual([thumbsDown.id]);
    expect((await list(`&limit=1&cursor=${paged.meta.nextCursor}`)).data.map((group) => group.id)).toEqual([unanswered.id]);

    const missingContent = await h.post(`/admin/v1/questions/${unanswered.id}/answer`, { title: 'Dogs' }, asAdmin);
    expect([missingContent.status, missingContent.body.error.field]).toEqual([400, 'content']);
    const written = await h.post(
      `/admin/v1/questions/${unanswered.id}/answer`,
      { content: 'Yes: dogs are welcome on every cruise we sell, on a leash, with their vaccination record. Bring your dog on board for free.' },
      asAdmin,
    );
    expect(written.status).toBe(201);
    expect(written.body.data).toEqual({ id: expect.stringMatching(/^doc_/), knowledgeBaseId: h.knowledgeBase.id, sourceId: expect.stringMatching(/^src_/), title: 'Can I bring my dog on a cruise?', url: null, createdAt: expect.any(String) });
    expect((await list()).data.map((group) => group.id)).toEqual([thumbsDown.id]);
    expect((await list('&status=resolved')).data).toEqual([expect.objectContaining({ id: unanswered.id, status: 'resolved', documentId: written.body.data.id })]);
    const again = await h.post(`/admin/v1/questions/${unanswered.id}/answer`, { content: 'Again.' }, asAdmin);
    expect([again.status, again.body.error.code]).toEqual([409, 'question_group_closed']);

    // The very next turn answers from the new document.
    const asked = await ask(h, 'Can I bring my dog on a cruise?');
    expect(asked.reply.sources).toEqual([expect.objectContaining({ documentId: written.body.data.id })]);
    const stored = await h.store.getMessage(h.widget.id, asked.sessionId, asked.reply.messageId);
    expect(stored?.outcome).toBe('answered');
    expect((await list()).data.map((group) => group.id)).toEqual([thumbsDown.id]);

    const dismissed = await h.post(`/admin/v1/questions/${thumbsDown.id}/dismiss`, undefined, asAdmin);
    expect([dismissed.status, dismissed.body.data.status]).toEqual([200, 'dismissed']);
    expect((await h.post(`/admin/v1/questions/${thumbsDown.id}/dismiss`, undefined, asAdmin)).body.error.code).toBe('question_group_closed');
    expect((await list()).data).toEqual([]);
    expect((await list('&status=dismissed')).data.map((group) => group.id)).toEqual([thumbsDown.id]);
  });

  it("keeps each account's questions its own, and the questions page for admins", async () => {
    const { h, asAdmin } = await setup();
    await ask(h, 'Can I bring my dog on a cruise?');
    const [group] = (await h.get('/admin/v1/questions', asAdmin)).body.data as Array<{ id: string }>;
    const other = await operatorAdmin(h.store).createAccount({ name: 'Other', credits: 10 });
    const otherKey = (await operatorAdmin(h.store).createApiKey({ accountId: other.id, scopes: ['admin'] })).key;
    const asOther = { key: null, headers: { Authorization: `Bearer ${otherKey}` } };
    expect((await h.get('/admin/v1/questions', asOther)).body.data).toEqual([]);
    for (const res of [
      await h.post(`/admin/v1/questions/${group!.id}/dismiss`, undefined, asOther),
      await h.post(`/admin/v1/questions/${group!.id}/answer`, { content: 'No.' }, asOther),
      await h.post('/admin/v1/questions/qgr_missing/dismiss', undefined, asAdmin),
    ]) {
      expect([res.status, res.body.error.code]).toEqual([404, 'question_group_not_found']);
    }
    const chat = await h.get('/admin/v1/questions', { key: null, headers: { Authorization: `Bearer ${h.key}` } });
    expect(chat.status).toBe(403);
    const badStatus = await h.get('/admin/v1/questions?status=maybe', asAdmin);
    expect([badStatus.status, badStatus.body.error.field]).toEqual([400, 'status']);
  });
});

describe('evaluation sessions and the questions page (memory store)', () => {
  it('files neither the unanswered questions nor the thumbs-down of a session marked as evaluation', async () => {
    const h = await createHarness();
    const adminKey = await h.newKey(['admin']);
    const asAdmin = { key: null, headers: { Authorization: `Bearer ${adminKey}` } };
    const id = await h.session();
    // The evals' mark (`purpose`), set as an eval run sets it.
    await h.store.updateSession(h.widget.id, id, { purpose: 'evaluation' } as never);
    expect((await h.post(`${h.base}/${id}/messages`, { content: 'Can I bring my dog on a cruise?' })).body.data.sources).toEqual([]);
    const answered = (await h.post(`${h.base}/${id}/messages`, { content: 'How do I return an item?' })).body.data.messageId as string;
    expect((await h.post(`${h.base}/${id}/messages/${answered}/feedback`, { rating: 'down' })).status).toBe(200);
    expect((await h.get('/admin/v1/questions', asAdmin)).body.data).toEqual([]);
    // A visitor's session asking the same is filed.
    const visitor = await h.session({ visitorId: 'visitor-2' });
    await h.post(`${h.base}/${visitor}/messages`, { content: 'Can I bring my dog on a cruise?' });
    expect((await h.get('/admin/v1/questions', asAdmin)).body.data).toHaveLength(1);
  });
});
