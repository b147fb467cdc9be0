import { setTimeout as sleep } from 'node:timers/promises';
import { countTokens, createInstantAgent, createScriptedAgent, INSTANT_REPLY } from '@svc/agents';
import { zeroMeters } from '@svc/core/store-kit';
import { describe, expect, it } from 'vitest';
import { demoRequest } from './test-support.js';

describe('createScriptedAgent', () => {
  it('fills what the handler leaves out, counting tokens', async () => {
    const agent = createScriptedAgent(() => ({ content: 'Scripted answer.' }));
    const reply = await agent.reply(demoRequest('Question?'));
    expect(reply).toEqual({
      content: 'Scripted answer.',
      products: [],
      actions: [],
      forms: [],
      sessionEnded: false,
      usage: { inputTokens: countTokens('Question?'), outputTokens: countTokens('Scripted answer.') },
      meters: zeroMeters(),
    });
  });

  it('keeps what the handler gives', async () => {
    const usage = { inputTokens: 7, outputTokens: 3 };
    const meters = { ...zeroMeters(), retrievals: 2 };
    const agent = createScriptedAgent(async () => ({ content: 'Bye.', sessionEnded: true, usage, meters }));
    expect(await agent.reply(demoRequest('bye'))).toMatchObject({ sessionEnded: true, usage, meters });
    // A request for a person survives (the e2e harness routes visitors through the local agent this way).
    const handing = createScriptedAgent(() => ({ content: 'A person will answer.', handoff: true }));
    expect(await handing.reply(demoRequest('a person please'))).toMatchObject({ handoff: true });
  });

  it('keeps a handoff request (regression: a scripted agent wrapping the local one lost it, so no session was handed over)', async () => {
    const agent = createScriptedAgent(() => ({ content: 'Passing you to a person.', handoff: true }));
    expect(await agent.reply(demoRequest('a human please'))).toMatchObject({ handoff: true });
  });

  it('rejects when the handler throws, even synchronously', async () => {
    const agent = createScriptedAgent(() => {
      throw new Error('model unavailable');
    });
    await expect(agent.reply(demoRequest('hi'))).rejects.toThrow('model unavailable');
  });

  it('rejects with the signal reason when aborted, even if the handler ignores the signal', async () => {
    const controller = new AbortController();
    const agent = createScriptedAgent(async () => {
      await sleep(10_000);
      return { content: 'too late' };
    });
    const reply = agent.reply(demoRequest('hi', { signal: controller.signal }));
    controller.abort();
    await expect(reply).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('does not call the handler for an already aborted request', async () => {
    let called = false;
    const agent = createScriptedAgent(() => {
      called = true;
      return {};
    });
    await expect(agent.reply(demoRequest('hi', { signal: AbortSignal.abort() }))).rejects.toMatchObject({ name: 'AbortError' });
    expect(called).toBe(false);
  });
});

describe('createInstantAgent', () => {
  it('answers a fixed reply with fixed usage', async () => {
    const reply = await createInstantAgent().reply(demoRequest('anything'));
    expect(reply.content).toBe(INSTANT_REPLY.content);
    expect(reply.usage).toEqual({ inputTokens: 12, outputTokens: 5 });
    expect(reply.usage.outputTokens).toBe(countTokens(INSTANT_REPLY.content));
    expect(reply.meters).toEqual(zeroMeters());
  });

  it('honours an aborted signal', async () => {
    await expect(createInstantAgent().reply(demoRequest('x', { signal: AbortSignal.abort() }))).rejects.toMatchObject({
      name: 'AbortError',
    });
  });
});
