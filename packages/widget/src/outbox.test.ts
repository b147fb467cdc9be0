import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeContext } from '../test/context.js';
import { ApiError } from './api.js';
import type { Context, Turn } from './context.js';
import { createOutbox } from './outbox.js';
import { loadOutbox, saveOutbox } from './storage.js';

type Outcome = ApiError | null | 'accepted, then lost';

/**
 * An outbox on a fake context whose turns end as `outcomes` say, one per turn (null: accepted and answered; the
 * last one repeats). Records the turns sent.
 */
function outbox(...outcomes: Outcome[]) {
  const sent: Turn[] = [];
  const c: Context = fakeContext({
    turn: vi.fn(async (turn: Turn, accepted?: () => void) => {
      sent.push(turn);
      const outcome = outcomes.length > 1 ? outcomes.shift()! : outcomes[0]!;
      if (outcome === null || outcome === 'accepted, then lost') accepted?.();
      return outcome === 'accepted, then lost' ? new ApiError(0, 'network_error', '') : outcome;
    }),
  });
  Object.assign(c, createOutbox(c));
  return {
    c,
    sent,
    /** What is sent, in order. */
    contents: () => sent.map((turn) => 'content' in turn && turn.content),
    /** The messages on screen, with their state. */
    shown: () => c.store.get().messages.map((message) => [message.content, message.status]),
    stored: () => loadOutbox(c.apiKey, c.visitorId).map((item) => item.content),
  };
}

const unreachable = new ApiError(0, 'network_error', '');

afterEach(() => {
  localStorage.clear();
  vi.useRealTimers();
});

describe('the outbox', () => {
  it('shows what the previous page left unsent, keeps each new message in storage until the service has it, sends them in order', async () => {
    saveOutbox('pk_live_unit', 'v_unit', [{ content: 'Left', idempotencyKey: 'idem_left' }]);
    const { c, sent, shown, stored } = outbox(null);
    expect(shown()).toEqual([['Left', 'sending']]);
    // The bubble's key is the message's Idempotency-Key: the reply is placed after it, across reloads too.
    expect(c.store.get().messages[0]!.key).toBe('idem_left');

    c.enqueue('New');
    expect(stored()).toEqual(['Left', 'New']);
    expect(shown()).toEqual([
      ['Left', 'sending'],
      ['New', 'sending'],
    ]);
    await c.pump();
    expect(sent).toEqual([
      { content: 'Left', idempotencyKey: 'idem_left' },
      { content: 'New', idempotencyKey: expect.stringMatching(/^idem_[0-9a-f]{32}$/) },
    ]);
    expect(shown()).toEqual([
      ['Left', undefined],
      ['New', undefined],
    ]);
    expect(stored()).toEqual([]);
    expect(c.fail).not.toHaveBeenCalled();
  });

  it('has one sender at a time: a second pump while one runs sends nothing twice', async () => {
    const { c, contents } = outbox(null);
    c.enqueue('One');
    c.enqueue('Two');
    await Promise.all([c.pump(), c.pump()]);
    expect(contents()).toEqual(['One', 'Two']);
  });

  it('service unreachable: every message waits, the banner says so, and they go again by themselves, 1 s later, then 2 s, with the same key', async () => {
    vi.useFakeTimers();
    const { c, sent, shown, stored } = outbox(unreachable, unreachable, null);
    c.enqueue('Hello');
    c.enqueue('Still there?');
    await c.pump();
    expect(shown()).toEqual([
      ['Hello', 'queued'],
      ['Still there?', 'queued'],
    ]);
    expect(c.fail).toHaveBeenCalledWith(unreachable, c.retryNow);
    expect(sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(999);
    expect(sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1999);
    expect(sent).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent.map((turn) => turn.idempotencyKey)).toEqual([sent[0]!.idempotencyKey, sent[0]!.idempotencyKey, sent[0]!.idempotencyKey, sent[3]!.idempotencyKey]);
    expect(stored()).toEqual([]);
  });

  it('429: tries again once Retry-After has passed', async () => {
    vi.useFakeTimers();
    const { c, sent } = outbox(new ApiError(429, 'rate_limited', 'Slow down', undefined, 3), null);
    c.enqueue('Hi');
    await c.pump();
    await vi.advanceTimersByTimeAsync(2999);
    expect(sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toHaveLength(2);
  });

  it('the banner’s retry (or coming back online) sends at once, from a fresh 1 s', async () => {
    vi.useFakeTimers();
    const { c, sent, shown } = outbox(unreachable, unreachable, null);
    c.enqueue('Hi');
    await c.pump();
    c.store.set({ problem: { kind: 'unreachable', retry: c.retryNow } });
    c.retryNow();
    expect(shown()).toEqual([['Hi', 'sending']]);
    expect(c.store.get().problem).toBeNull();
    await vi.advanceTimersByTimeAsync(0);
    expect(sent).toHaveLength(2);
    // The backoff started over: the next try is 1 s away, not 2 s.
    await vi.advanceTimersByTimeAsync(1000);
    expect(sent).toHaveLength(3);
  });

  it('with nothing waiting, the banner’s retry retries what failed instead', () => {
    const { c } = outbox(null);
    const retry = vi.fn();
    c.store.set({ problem: { kind: 'error', retry } });
    c.retryNow();
    expect(retry).toHaveBeenCalledOnce();
  });

  it('a message the service refuses as it is (another 4xx) fails alone; the ones after it still go', async () => {
    const refused = new ApiError(422, 'invalid_request', 'Too long');
    const { c, contents, shown, stored } = outbox(refused, null);
    c.enqueue('Too long');
    c.enqueue('Short');
    await c.pump();
    expect(contents()).toEqual(['Too long', 'Short']);
    expect(shown()).toEqual([
      ['Too long', 'failed'],
      ['Short', undefined],
    ]);
    expect(stored()).toEqual([]);
    expect(c.fail).toHaveBeenCalledWith(refused, c.retryNow);
  });

  it('a key refused or no credits: every message waits, not on a timer, for the banner’s retry', async () => {
    vi.useFakeTimers();
    const noCredits = new ApiError(402, 'insufficient_credits', 'No credits');
    const { c, sent, shown, stored } = outbox(noCredits, null);
    c.enqueue('One');
    c.enqueue('Two');
    await c.pump();
    expect(shown()).toEqual([
      ['One', 'failed'],
      ['Two', 'failed'],
    ]);
    expect(stored()).toEqual(['One', 'Two']);
    expect(c.fail).toHaveBeenCalledWith(noCredits, c.retryNow);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sent).toHaveLength(1);
    c.retryNow();
    await vi.advanceTimersByTimeAsync(0);
    expect(sent).toHaveLength(3);
    expect(stored()).toEqual([]);
  });

  it('the session gone: forgotten, so the banner’s retry opens a new one', async () => {
    const { c, shown } = outbox(new ApiError(404, 'session_not_found', 'Gone'));
    c.enqueue('Hi');
    await c.pump();
    expect(c.remember).toHaveBeenCalledWith(null);
    expect(shown()).toEqual([['Hi', 'failed']]);
  });

  it('the conversation ended meanwhile: the messages cannot go to it, and the conversation shows as ended', async () => {
    const { c, shown, stored } = outbox(new ApiError(409, 'session_not_active', 'Ended'));
    c.enqueue('One');
    c.enqueue('Two');
    await c.pump();
    expect(shown()).toEqual([
      ['One', 'failed'],
      ['Two', 'failed'],
    ]);
    expect(stored()).toEqual([]);
    expect(c.store.get().session).toBe('ended');
    expect(c.fail).not.toHaveBeenCalled();
  });

  it('identity_mismatch: starts over once as a new visitor and sends the messages there; a second refusal in a row is shown', async () => {
    const mismatch = new ApiError(403, 'identity_mismatch', 'Not yours');
    const { c, sent, contents } = outbox(mismatch, null, mismatch, mismatch);
    // A new visitor's conversation is a new generation, with an empty outbox (session.ts).
    vi.mocked(c.newVisitor).mockImplementation(() => {
      c.generation++;
      c.drop();
    });
    c.enqueue('Hi');
    await c.pump();
    await vi.waitFor(() => expect(contents()).toEqual(['Hi', 'Hi']));
    expect(c.newVisitor).toHaveBeenCalledOnce();
    expect(sent[1]!.idempotencyKey).not.toBe(sent[0]!.idempotencyKey);
    expect(c.fail).not.toHaveBeenCalled();

    // Sent since, so the next refusal restarts once more; a refusal right after a restart stands.
    c.enqueue('Again');
    await c.pump();
    await vi.waitFor(() => expect(c.fail).toHaveBeenCalledWith(mismatch, c.retryNow));
    expect(contents()).toEqual(['Hi', 'Hi', 'Again', 'Again']);
    expect(c.newVisitor).toHaveBeenCalledTimes(2);
  });

  it('accepted, but the reply lost: out of the outbox, and the banner’s retry replays the same turn', async () => {
    const { c, sent, stored } = outbox('accepted, then lost', null);
    c.enqueue('Hi');
    await c.pump();
    expect(stored()).toEqual([]);
    const [error, retry] = vi.mocked(c.fail).mock.calls[0]!;
    expect(error).toMatchObject({ code: 'network_error' });
    retry!();
    await vi.waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1]).toBe(sent[0]);
    expect(vi.mocked(c.turn).mock.calls[1]).toEqual([sent[0]]);
  });

  it('dropping it (starting over) empties it and cancels the timer', async () => {
    vi.useFakeTimers();
    const { c, sent, stored } = outbox(unreachable);
    c.enqueue('Hi');
    await c.pump();
    c.drop();
    expect(stored()).toEqual([]);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(sent).toHaveLength(1);
  });

  it('a conversation that started over meanwhile gets nothing more from this pump', async () => {
    const { c, sent } = outbox(null);
    vi.mocked(c.turn).mockImplementationOnce(async () => {
      c.generation++;
      return null;
    });
    c.enqueue('One');
    c.enqueue('Two');
    await c.pump();
    expect(sent).toHaveLength(0);
    expect(c.turn).toHaveBeenCalledOnce();
  });
});
