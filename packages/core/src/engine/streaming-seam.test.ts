import { describe, expect, it } from 'vitest';
import type { Agent } from '../agent.js';
import { isSvcError } from '../errors.js';
import { agentReply, createEngineHarness, echoAgent } from '../testing/engine-harness.js';
import type { TurnObserver } from './observer.js';

/** Records what the engine tells a streaming caller, in order. */
function recorder(): TurnObserver & { events: Array<[string, unknown]> } {
  const events: Array<[string, unknown]> = [];
  return {
    events,
    onAccepted: (info) => events.push(['accepted', info]),
    onDelta: (text) => events.push(['delta', text]),
  };
}

const streamingAgent: Agent = {
  async reply(request) {
    const pieces = ['We ship ', 'to **Canada** ', 'in 5 days.'];
    for (const piece of pieces) request.onDelta?.(piece);
    return agentReply(pieces.join(''));
  },
};

describe('streaming seam (TurnObserver)', () => {
  it('reports acceptance with the reply id, then the agent deltas, then resolves with the sync reply', async () => {
    const h = await createEngineHarness({ agent: streamingAgent });
    const sessionId = await h.session();
    const observer = recorder();
    const result = await h.engine.sendMessage(h.principal, h.widget.id, sessionId, { content: 'Canada?', response_type: 'stream' }, observer);

    expect(result.status).toBe(200);
    const data = result.data as { messageId: string; content: string };
    expect(observer.events[0]).toEqual(['accepted', { messageId: data.messageId, sessionId, replayed: false }]);
    const deltas = observer.events.slice(1).map(([kind, text]) => (expect(kind).toBe('delta'), text));
    expect(deltas).toEqual(['We ship ', 'to **Canada** ', 'in 5 days.']);
    expect(deltas.join('')).toBe(data.content);
    expect(result.creditsConsumed).toBeGreaterThan(0);
    const history = await h.store.listMessages({ widgetId: h.widget.id, sessionId, limit: 10 });
    expect(history.map((m) => [m.role, m.id === data.messageId])).toEqual([['user', false], ['assistant', true]]);
  });

  it('gives a non-streaming agent one delta holding the whole content', async () => {
    const h = await createEngineHarness({ agent: echoAgent() });
    const sessionId = await h.session();
    const observer = recorder();
    const result = await h.engine.sendMessage(h.principal, h.widget.id, sessionId, { content: 'Hello', response_type: 'stream' }, observer);
    expect(observer.events.map(([kind]) => kind)).toEqual(['accepted', 'delta']);
    expect(observer.events[1]![1]).toBe((result.data as { content: string }).content);
  });

  it('rejects checks that fail before acceptance without calling the observer', async () => {
    const h = await createEngineHarness({ agent: echoAgent(), balance: 0 });
    const observer = recorder();
    const failure = await h.engine
      .sendMessage(h.principal, h.widget.id, 'sess_unknown', { content: 'Hi', response_type: 'stream' }, observer)
      .catch((e: unknown) => e);
    expect(isSvcError(failure) && failure.code).toBe('session_not_found');
    expect(observer.events).toEqual([]);
  });

  it('rejects with agent_unavailable after acceptance when the agent fails, keeping the visitor message', async () => {
    const h = await createEngineHarness({ agent: echoAgent(() => Promise.reject(new Error('model down'))) });
    const sessionId = await h.session();
    const observer = recorder();
    const failure = await h.engine
      .sendMessage(h.principal, h.widget.id, sessionId, { content: 'Hi', response_type: 'stream' }, observer)
      .catch((e: unknown) => e);
    expect(isSvcError(failure) && failure.code).toBe('agent_unavailable');
    expect(observer.events.map(([kind]) => kind)).toEqual(['accepted']);
    const history = await h.store.listMessages({ widgetId: h.widget.id, sessionId, limit: 10 });
    expect(history.map((m) => m.role)).toEqual(['user']);
  });

  it('waits past the sync wait in stream mode instead of answering 202', async () => {
    const h = await createEngineHarness({ agent: echoAgent(() => new Promise((r) => setTimeout(r, 120))), syncTimeoutMs: 30 });
    const sessionId = await h.session();
    const streamed = await h.engine.sendMessage(h.principal, h.widget.id, sessionId, { content: 'slow', response_type: 'stream' }, recorder());
    expect(streamed.status).toBe(200);
    const synced = await h.engine.sendMessage(h.principal, h.widget.id, sessionId, { content: 'slow' });
    expect(synced.status).toBe(202);
  });

  it('streams a turn that waited behind an earlier one of its session, each to its own caller', async () => {
    const h = await createEngineHarness({
      agent: {
        async reply(request) {
          const pieces = [`re `, request.message];
          for (const piece of pieces) {
            await new Promise((resolve) => setTimeout(resolve, 5));
            request.onDelta?.(piece);
          }
          return agentReply(pieces.join(''));
        },
      },
    });
    const sessionId = await h.session();
    const first = recorder();
    const second = recorder();
    const [a, b] = await Promise.all([
      h.engine.sendMessage(h.principal, h.widget.id, sessionId, { content: 'one', response_type: 'stream' }, first),
      h.engine.sendMessage(h.principal, h.widget.id, sessionId, { content: 'two', response_type: 'stream' }, second),
    ]);
    const deltas = (r: ReturnType<typeof recorder>) => r.events.filter(([kind]) => kind === 'delta').map(([, text]) => text);
    expect(deltas(first)).toEqual(['re ', 'one']);
    expect(deltas(second)).toEqual(['re ', 'two']);
    expect([(a.data as { content: string }).content, (b.data as { content: string }).content]).toEqual(['re one', 're two']);
  });

  it('finishes the turn when the observer throws (a caller that went away)', async () => {
    const h = await createEngineHarness({ agent: streamingAgent });
    const sessionId = await h.session();
    const broken: TurnObserver = {
      onAccepted: () => undefined,
      onDelta: () => {
        throw new Error('socket closed');
      },
    };
    const result = await h.engine.sendMessage(h.principal, h.widget.id, sessionId, { content: 'Canada?', response_type: 'stream' }, broken);
    expect(result.status).toBe(200);
    expect(await h.store.getMessage(h.widget.id, sessionId, (result.data as { messageId: string }).messageId)).not.toBeNull();
  });
});
