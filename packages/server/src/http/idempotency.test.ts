import { describe, expect, it } from 'vitest';
import { createScriptedAgent } from '@svc/agents';
import { createHarness } from '../testing/harness.js';

describe('Idempotency-Key (DESIGN.md section 4)', () => {
  it('replays the first response: nothing runs twice, billed once', async () => {
    let runs = 0;
    const h = await createHarness({ agent: createScriptedAgent(() => ({ content: `reply ${++runs}` })) });
    const id = await h.session();
    const send = () => h.post(`${h.base}/${id}/messages`, { content: 'hi' }, { headers: { 'Idempotency-Key': 'turn-1' } });
    const [first, second] = await Promise.all([send(), send()]);
    expect(first.status).toBe(200);
    expect(second.body).toEqual(first.body);
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
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    expect(b.body.data.sessionId).toBe(a.body.data.sessionId);
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
