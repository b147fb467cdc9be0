import { describe, expect, it } from 'vitest';
import { createScriptedAgent } from '@svc/agents';
import { createHarness } from '../testing/harness.js';
import { startReceiver } from '../testing/receiver.js';
import { operatorAdmin } from '../cli/operator-admin.js';

/** A harness whose agent answers only when the test says so, with a callback key and workers running. */
async function setUp() {
  let answer: (() => void) | null = null;
  let calls = 0;
  const agent = createScriptedAgent(async () => {
    calls++;
    await new Promise<void>((resolve) => (answer = resolve));
    return { content: 'Here you go.' };
  });
  const h = await createHarness({ agent, config: { allowPrivateCallbacks: true } });
  const receiver = await startReceiver();
  const { key } = await operatorAdmin(h.store, { allowPrivateCallbacks: true }).createApiKey({
    accountId: h.account.id,
    scopes: ['conversations:chat'],
    callbackUrl: receiver.url,
  });
  const workers = h.runtime.startWorkers({ allowPrivateCallbacks: true, pollMs: 20 });
  const id = await h.session();
  const res = await h.post(`${h.base}/${id}/messages`, { content: 'Hello', response_type: 'callback' }, { key });
  expect(res.status).toBe(202);
  await expect.poll(() => calls, { timeout: 5_000 }).toBe(1);
    // The shutdown sequence of `svc start`: the engine's turns first, then the deliveries they queued.
  const drain = async (deadlineMs: number) => {
    const drained = await h.runtime.core.work.drainTurns(deadlineMs);
    await workers.drain(1_000);
    return drained;
  };
  return { h, receiver, drain, answer: () => answer?.() };
}

describe('draining turns and workers (graceful shutdown)', () => {
  it('lets a claimed turn finish and deliver within the deadline', async () => {
    const { receiver, drain, answer } = await setUp();
    try {
      setTimeout(answer, 200);
      const started = performance.now();
      expect(await drain(5_000)).toEqual({ released: 0 });
      expect(performance.now() - started).toBeLessThan(4_000);
      const [delivery] = await receiver.waitFor(1);
      expect(JSON.parse(delivery!.body)).toMatchObject({ event: 'message.completed', data: { content: 'Here you go.' } });
    } finally {
      await receiver.close();
    }
  });

  it('hands a turn still running at the deadline back, so another worker takes it at once instead of after its 15 s lease', async () => {
    const { h, receiver, drain, answer } = await setUp();
    try {
      const started = performance.now();
      expect(await drain(150)).toEqual({ released: 1 });
      expect(performance.now() - started).toBeLessThan(2_500);
      const [taken] = await h.store.claimTurnJobs({ owner: 'wrk_other', now: new Date(), leaseMs: 15_000, limit: 1 });
      expect(taken).toMatchObject({ status: 'running', leaseOwner: 'wrk_other', attempts: 2 });
    } finally {
      answer();
      await receiver.close();
    }
  });
});
