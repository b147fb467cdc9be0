import { describe, expect, it } from 'vitest';
import { createScriptedAgent } from '@svc/agents';
import { sha256Hex } from '@svc/core';
import { createHarness } from '../testing/harness.js';
import { PENDING_ABANDONED_MS } from './idempotency.js';

describe('Idempotency-Key (DESIGN.md section 4)', () => {
  it('replays the first response: nothing runs twice, billed once', async () => {
    let runs = 0;
    const h = await createHarness({ agent: createScriptedAgent(() => ({ content: `reply ${++runs}` })) });
    const id = await h.session();
    const send = () => h.post(`${h.base}/${id}/messages`, { content: 'hi' }, { headers: { 'Idempotency-Key': 'turn-1' } });
    const answers = await Promise.all([send(), send()]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    // Either request may reach the accept transaction first: the other is the repeat. It waited for the first
    // turn's job and answers with its reply, billing nothing.
    const [first, second] = [...answers].sort((a, b) => b.body.meta.creditsConsumed - a.body.meta.creditsConsumed);
    expect(first!.body.meta.creditsConsumed).toBeGreaterThan(0);
    expect(second!.body).toEqual({ ...first!.body, meta: { creditsConsumed: 0 } });
    expect(runs).toBe(1);
    expect((await h.store.getSession(h.widget.id, id))!.messageCount).toBe(2);
    const ledger = await h.store.listLedgerEntries(h.account.id, 10);
    expect(ledger.filter((e) => e.operation === 'message.turn')).toHaveLength(1);
  });

  it('creates one session for repeated creates without a sessionId', async () => {
    const h = await createHarness();
    const opts = { headers: { 'Idempotency-Key': 'create-1' } };
    const a = await h.post(h.base, { visitorId: 'v' }, opts);
    const b = await h.post(h.base, { visitorId: 'v' }, opts);
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    expect(b.body.data).toEqual(a.body.data);
  });

  it('regression (issue 10): a replay reports creditsConsumed 0, and the balance is debited once', async () => {
    const h = await createHarness();
    const before = (await h.store.getAccount(h.account.id))!.balance;
    const opts = { headers: { 'Idempotency-Key': 'create-credits' } };
    const a = await h.post(h.base, { visitorId: 'v' }, opts);
    const b = await h.post(h.base, { visitorId: 'v' }, opts);
    expect(a.body.meta.creditsConsumed).toBe(1);
    expect(b.body.meta.creditsConsumed).toBe(0);
    expect((await h.store.getAccount(h.account.id))!.balance).toBe(before - 1);

    const id = await h.session();
    const turn = { headers: { 'Idempotency-Key': 'turn-credits' } };
    const first = await h.post(`${h.base}/${id}/messages`, { content: 'hi' }, turn);
    const afterFirst = (await h.store.getAccount(h.account.id))!.balance;
    const repeat = await h.post(`${h.base}/${id}/messages`, { content: 'hi' }, turn);
    expect(first.body.meta.creditsConsumed).toBeGreaterThan(0);
    expect(repeat.body).toEqual({ ...first.body, meta: { creditsConsumed: 0 } });
    expect(repeat.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect((await h.store.getAccount(h.account.id))!.balance).toBe(afterFirst);
  });

  it('refuses a turn key reused with a different body: 422, nothing stored', async () => {
    const h = await createHarness();
    const id = await h.session();
    const opts = { headers: { 'Idempotency-Key': 'turn-422' } };
    expect((await h.post(`${h.base}/${id}/messages`, { content: 'first' }, opts)).status).toBe(200);
    const res = await h.post(`${h.base}/${id}/messages`, { content: 'second' }, opts);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ error: { code: 'idempotency_key_reused', field: 'Idempotency-Key' }, meta: { creditsConsumed: 0 } });
    expect((await h.store.getSession(h.widget.id, id))!.messageCount).toBe(2);
  });

  it('replays an answered turn even after the agent ended the session', async () => {
    const h = await createHarness({ agent: createScriptedAgent(() => ({ content: 'Goodbye!', sessionEnded: true })) });
    const id = await h.session();
    const opts = { headers: { 'Idempotency-Key': 'bye' } };
    const first = await h.post(`${h.base}/${id}/messages`, { content: 'bye' }, opts);
    expect(first.body.data.sessionEnded).toBe(true);
    const again = await h.post(`${h.base}/${id}/messages`, { content: 'bye' }, opts);
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(first.body.data);
  });

  it('creates one session for concurrent repeats of a create: the repeats wait for the first and replay it', async () => {
    const h = await createHarness();
    const opts = { headers: { 'Idempotency-Key': 'create-concurrent' } };
    const responses = await Promise.all(Array.from({ length: 5 }, () => h.post(h.base, { visitorId: 'v' }, opts)));
    expect(responses.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    expect(new Set(responses.map((r) => r.body.data.sessionId)).size).toBe(1);
    expect(responses.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(4);
    const ledger = await h.store.listLedgerEntries(h.account.id, 20);
    expect(ledger.filter((e) => e.operation === 'session.create')).toHaveLength(1);
  });

  it('takes over a key left pending by a request that died mid-way, once it is old enough', async () => {
    const h = await createHarness();
    const body = JSON.stringify({ visitorId: 'v' });
    const scope = `${(await h.store.listApiKeys(h.account.id))[0]!.id} POST ${h.base}`;
    await h.store.putIdempotencyRecord({
      scope,
      key: 'orphan',
      requestHash: await sha256Hex(body),
      status: 0,
      body: '',
      jobId: null,
      createdAt: new Date(Date.now() - PENDING_ABANDONED_MS - 1),
    });
    const res = await h.post(h.base, { visitorId: 'v' }, { headers: { 'Idempotency-Key': 'orphan' } });
    expect(res.status).toBe(201);
    expect(res.headers.get('idempotent-replayed')).toBeNull();
    expect((await h.store.getIdempotencyRecord(scope, 'orphan'))?.status).toBe(201);
  });

  it('refuses the same key with a different body: 422', async () => {
    const h = await createHarness();
    const opts = { headers: { 'Idempotency-Key': 'k' } };
    await h.post(h.base, { visitorId: 'v' }, opts);
    const res = await h.post(h.base, { visitorId: 'w' }, opts);
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'idempotency_key_reused', field: 'Idempotency-Key' });
  });

  it('does not record failures, so a corrected retry succeeds', async () => {
    const h = await createHarness();
    const opts = { headers: { 'Idempotency-Key': 'k2' } };
    expect((await h.post(`${h.base}/missing/end`, undefined, opts)).status).toBe(404);
    const id = await h.session();
    expect((await h.post(`${h.base}/${id}/end`, undefined, { headers: { 'Idempotency-Key': 'k3' } })).status).toBe(200);
  });
});
