import { describe, expect, it } from 'vitest';
import type { Agent } from '../../agent.js';
import { isSvcError } from '../../errors.js';
import type { Principal } from '../../domain.js';
import { createEngine } from '../engine.js';
import { createMemoryStore } from '../../store/memory-store.js';
import { agentReply, createEngineHarness, echoAgent } from '../../testing/engine-harness.js';
import { makeTurnJob } from '../../testing/fixtures.js';
import { manualClock } from '../../clock.js';
import type { MessageReply } from '../../schemas/message.js';

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Answers after a pause that varies by message, so concurrent turns would finish out of order if they overlapped. */
function jitteryAgent(): Agent & { overlaps: number } {
  let running = 0;
  const agent = {
    overlaps: 0,
    async reply(request: Parameters<Agent['reply']>[0]) {
      running++;
      if (running > 1) agent.overlaps++;
      await pause((request.message.length * 7) % 11);
      running--;
      return agentReply(`re ${request.message}`);
    },
  };
  return agent;
}

function agentThat(content: string): Agent {
  return { reply: async () => agentReply(content) };
}

async function history(h: Awaited<ReturnType<typeof createEngineHarness>>, sessionId: string) {
  return h.store.listMessages({ widgetId: h.widget.id, sessionId, limit: 100 });
}

describe('turn pipeline (DESIGN.md section 3a) on the memory store, without HTTP', () => {
  it("runs one session's concurrent turns one at a time, each reply right after its message, all billed", async () => {
    const agent = jitteryAgent();
    const h = await createEngineHarness({ agent });
    const sessionId = await h.session();
    const before = (await h.store.getAccount(h.accountId))!.balance;
    const results = await Promise.all(
      Array.from({ length: 25 }, (_, i) => h.engine.sendMessage(h.principal, h.widget.id, sessionId, { content: `q${i}` })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(25).fill(200));
    expect(agent.overlaps).toBe(0);
    const items = await history(h, sessionId);
    expect(items).toHaveLength(50);
    for (let i = 0; i < items.length; i += 2) {
      expect([items[i]!.role, items[i + 1]!.role]).toEqual(['user', 'assistant']);
      expect(items[i + 1]!.content).toBe(`re ${items[i]!.content}`);
      expect(items[i]!.seq).toBe(i + 1);
    }
    const consumed = results.reduce((sum, r) => sum + r.creditsConsumed, 0);
    expect(consumed).toBeGreaterThan(0);
    expect((await h.store.getAccount(h.accountId))!.balance).toBe(before - consumed);
    expect(await h.store.hasUnfinishedTurnJob(h.widget.id, sessionId)).toBe(false);
  });

  it('answers 202 with the reply id once the sync wait runs out; the reply lands under that id', async () => {
    const h = await createEngineHarness({ agent: echoAgent(() => pause(80)), syncTimeoutMs: 20 });
    const sessionId = await h.session();
    const result = await h.engine.sendMessage(h.principal, h.widget.id, sessionId, { content: 'slow' });
    expect(result).toMatchObject({ status: 202, data: { status: 'processing' }, creditsConsumed: 0 });
    const messageId = (result.data as { messageId: string }).messageId;
    await pause(150);
    expect(await h.store.getMessage(h.widget.id, sessionId, messageId)).toMatchObject({ role: 'assistant', content: 'echo: slow' });
  });

  it('sends a reply that outlived the sync wait to the key callback URL, and one answered inline nowhere', async () => {
    const store = createMemoryStore();
    const h = await createEngineHarness({ agent: echoAgent((r) => pause(r.message === 'slow' ? 80 : 0)), syncTimeoutMs: 30, store });
    const principal: Principal = { ...h.principal, callbackUrl: 'https://example.com/hook' };
    const sessionId = await h.session();
    expect((await h.engine.sendMessage(principal, h.widget.id, sessionId, { content: 'fast' })).status).toBe(200);
    expect((await h.engine.sendMessage(principal, h.widget.id, sessionId, { content: 'slow' })).status).toBe(202);
    await pause(150);
    const deliveries = await store.listDeliveries({ limit: 10 });
    expect(deliveries.map((d) => [d.event, JSON.parse(d.payload).data.content])).toEqual([['message.completed', 'echo: slow']]);
  });

  it('answers callback turns 202 at once and queues the delivery with the reply', async () => {
    const h = await createEngineHarness({ agent: echoAgent() });
    const principal: Principal = { ...h.principal, callbackUrl: 'https://example.com/hook' };
    const sessionId = await h.session();
    const result = await h.engine.sendMessage(principal, h.widget.id, sessionId, { content: 'cb', response_type: 'callback' });
    expect(result).toEqual({ status: 202, data: { messageId: null, status: 'processing' }, creditsConsumed: 0 });
    for (let i = 0; i < 50 && (await h.store.listDeliveries({ limit: 5 })).length === 0; i++) await pause(5);
    const [delivery] = await h.store.listDeliveries({ limit: 5 });
    expect(JSON.parse(delivery!.payload)).toMatchObject({ event: 'message.completed', data: { content: 'echo: cb' } });
  });

  it('reports an agent failure as agent_unavailable, keeps the message, bills nothing, and the next turn runs', async () => {
    let fail = true;
    const h = await createEngineHarness({ agent: echoAgent(() => (fail ? Promise.reject(new Error('model down')) : undefined)) });
    const sessionId = await h.session();
    const before = (await h.store.getAccount(h.accountId))!.balance;
    const error = await h.engine.sendMessage(h.principal, h.widget.id, sessionId, { content: 'one' }).catch((e: unknown) => e);
    expect(isSvcError(error) && error.code).toBe('agent_unavailable');
    expect((await h.store.getAccount(h.accountId))!.balance).toBe(before);
    fail = false;
    await h.engine.sendMessage(h.principal, h.widget.id, sessionId, { content: 'two' });
    expect((await history(h, sessionId)).map((m) => m.content)).toEqual(['one', 'two', 'echo: two']);
  });

  it('recovers a turn whose process crashed: another worker runs it once its lease ran out, and answers it once', async () => {
    const h = await createEngineHarness({ agent: echoAgent() });
    const sessionId = await h.session();
    // As a process killed mid-run leaves it: claimed, lease expired, visitor message already in the history.
    const job = makeTurnJob({
      accountId: h.accountId,
      keyId: h.principal.keyId,
      widgetId: h.widget.id,
      sessionId,
      mode: 'sync',
      content: 'lost?',
      identity: null,
      status: 'running',
      attempts: 1,
      leaseOwner: 'wrk_dead',
      leaseExpiresAt: new Date(Date.now() - 1),
      createdAt: new Date(),
    });
    await h.store.insertTurnJob(job);
    await h.store.transaction(async (tx) => {
      await tx.insertMessage({
        id: job.userMessageId,
        widgetId: h.widget.id,
        sessionId,
        seq: 1,
        role: 'user',
        content: 'lost?',
        products: [],
        actions: [],
        forms: [],
        sessionEnded: false,
        credits: null,
        usage: null,
        createdAt: new Date(),
      });
      await tx.updateSession(h.widget.id, sessionId, { messageCount: 1 });
    });
    // A turn accepted meanwhile waits behind it.
    const later = h.engine.sendMessage(h.principal, h.widget.id, sessionId, { content: 'later' });
    expect(await h.engine.runQueuedTurns(10)).toBe(1);
    expect((await later).status).toBe(200);
    expect((await history(h, sessionId)).map((m) => [m.role, m.content])).toEqual([
      ['user', 'lost?'],
      ['assistant', 'echo: lost?'],
      ['user', 'later'],
      ['assistant', 'echo: later'],
    ]);
    expect(await h.store.getTurnJob(job.id)).toMatchObject({ status: 'done', attempts: 2 });
    expect(await h.engine.runQueuedTurns(10)).toBe(0);
  });

  it('lets a run whose lease was taken over commit nothing: the turn is answered once, by the process that took it', async () => {
    const store = createMemoryStore();
    let release = (): void => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const h = await createEngineHarness({ store, agent: echoAgent(() => gate), turnLeaseMs: 60_000 });
    const sessionId = await h.session();
    const pending = h.engine.sendMessage(h.principal, h.widget.id, sessionId, { content: 'contested' });
    await pause(20);
    // Another process whose clock is past our lease (as when our heartbeats stopped) retakes the job and answers it.
    const later = manualClock(new Date(Date.now() + 120_000));
    const other = createEngine({ store, agent: agentThat('from the other process'), cursorSecret: 'x'.repeat(32), owner: 'wrk_other', clock: later });
    expect(await other.runQueuedTurns(5)).toBe(1);
    release();
    const result = await pending;
    expect(result.status).toBe(200);
    expect((result.data as MessageReply).content).toBe('from the other process');
    const replies = (await history(h, sessionId)).filter((m) => m.role === 'assistant');
    expect(replies.map((m) => m.content)).toEqual(['from the other process']);
    const ledger = await store.listLedgerEntries(h.accountId, 10);
    expect(ledger.filter((e) => e.operation === 'message.turn')).toHaveLength(1);
    await other.close();
  });

  it('replays an idempotent turn without running or billing it again, and waits for a concurrent first one', async () => {
    let runs = 0;
    const h = await createEngineHarness({ agent: echoAgent(() => pause(++runs && 30)) });
    const sessionId = await h.session();
    const idempotency = { key: 'k1', requestHash: 'hash-1' };
    const send = () => h.engine.sendMessage(h.principal, h.widget.id, sessionId, { content: 'once' }, undefined, { idempotency });
    const [a, b] = await Promise.all([send(), send()]);
    const c = await send();
    expect(runs).toBe(1);
    expect(a.creditsConsumed).toBeGreaterThan(0);
    expect([b.creditsConsumed, c.creditsConsumed]).toEqual([0, 0]);
    expect((b.data as MessageReply).messageId).toBe((a.data as MessageReply).messageId);
    expect(c.data).toEqual(a.data);
    const refused = await h.engine
      .sendMessage(h.principal, h.widget.id, sessionId, { content: 'other' }, undefined, { idempotency: { key: 'k1', requestHash: 'hash-2' } })
      .catch((e: unknown) => e);
    expect(isSvcError(refused) && refused.code).toBe('idempotency_key_reused');
  });

  it("scopes idempotency to the caller's identity: another visitor replaying the key gets no reply of a bound session", async () => {
    const h = await createEngineHarness({ agent: echoAgent() });
    const ada: Principal = { ...h.principal, kind: 'public', widgetId: h.widget.id, identity: { sub: 'ada' } };
    const created = await h.engine.createSession(ada, h.widget.id, { visitorId: 'ada-browser' });
    const sessionId = created.data.sessionId;
    const idempotency = { key: 'shared-key', requestHash: 'same-body' };
    const first = await h.engine.sendMessage(ada, h.widget.id, sessionId, { content: 'my order?' }, undefined, { idempotency });
    expect(first.status).toBe(200);
    for (const stranger of [{ ...ada, identity: null }, { ...ada, identity: { sub: 'mallory' } }]) {
      const replayed = await h.engine.sendMessage(stranger, h.widget.id, sessionId, { content: 'my order?' }, undefined, { idempotency }).catch((e: unknown) => e);
      expect(isSvcError(replayed) && replayed.code).toBe('identity_mismatch');
    }
  });
});
