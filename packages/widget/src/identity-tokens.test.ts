import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { testToken } from '../test/jwt.js';
import { createIdentityTokens, REFRESH_LEAD_MS, RETRY_MS } from './identity-tokens.js';
import { readTokenClaims } from './jwt.js';
import type { IdentityTokenProvider } from './types.js';

const NOW = Date.UTC(2026, 10, 21, 10, 0, 0);
const seconds = (ms: number): number => Math.floor(ms / 1000);

describe('identity token holder', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: NOW });
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  function holder(provider: IdentityTokenProvider | null) {
    const onIdentityChange = vi.fn();
    let source = provider;
    const tokens = createIdentityTokens({ source: () => source, onIdentityChange, readClaims: readTokenClaims });
    return { tokens, onIdentityChange, setSource: (next: IdentityTokenProvider | null) => (source = next) };
  }

  it('asks the provider before the first request, then not again while the token is fresh', async () => {
    const token = testToken('user-1', seconds(NOW) + 600);
    const provider = vi.fn(() => token);
    const { tokens } = holder(provider);
    expect(tokens.current()).toBeNull();
    await tokens.ensureFresh();
    expect(tokens.current()).toBe(token);
    await tokens.ensureFresh();
    expect(provider).toHaveBeenCalledTimes(1);
  });

  it('refreshes 60 s before exp, by timer', async () => {
    const exp = seconds(NOW) + 600;
    const second = testToken('user-1', exp + 600);
    const provider = vi.fn<IdentityTokenProvider>().mockReturnValueOnce(testToken('user-1', exp)).mockResolvedValueOnce(second);
    const { tokens, onIdentityChange } = holder(provider);
    await tokens.ensureFresh();
    await vi.advanceTimersByTimeAsync(600_000 - REFRESH_LEAD_MS - 1);
    expect(provider).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(provider).toHaveBeenCalledTimes(2);
    expect(tokens.current()).toBe(second);
    expect(onIdentityChange).not.toHaveBeenCalled();
  });

  it('refreshes before a request when the token is within 60 s of expiry (timers sleep in background tabs)', async () => {
    const provider = vi.fn(() => testToken('user-1', seconds(Date.now()) + 3600));
    const { tokens } = holder(provider);
    await tokens.ensureFresh();
    vi.setSystemTime(NOW + 3600_000 - 30_000); // the clock moved on; no timer ran
    await tokens.ensureFresh();
    expect(provider).toHaveBeenCalledTimes(2);
  });

  it('changes nothing when the provider throws or rejects, and tries again later', async () => {
    const token = testToken('user-1', seconds(NOW) + 120);
    const provider = vi
      .fn<IdentityTokenProvider>()
      .mockReturnValueOnce(token)
      .mockImplementationOnce(() => {
        throw new Error('offline');
      })
      .mockRejectedValueOnce(new Error('still offline'))
      .mockReturnValue(testToken('user-1', seconds(NOW) + 7200));
    const { tokens, onIdentityChange } = holder(provider);
    await tokens.ensureFresh();
    await vi.advanceTimersByTimeAsync(60_000); // exp - 60 s: the refresh throws
    expect(provider).toHaveBeenCalledTimes(2);
    expect(tokens.current()).toBe(token);
    await vi.advanceTimersByTimeAsync(RETRY_MS); // retried: rejects
    expect(provider).toHaveBeenCalledTimes(3);
    expect(tokens.current()).toBe(token);
    await vi.advanceTimersByTimeAsync(RETRY_MS); // retried: works
    expect(provider).toHaveBeenCalledTimes(4);
    expect(tokens.current()).not.toBe(token);
    expect(onIdentityChange).not.toHaveBeenCalled();
  });

  it('treats a null answer after a token, or a token for another sub, as a change of person', async () => {
    const provider = vi
      .fn<IdentityTokenProvider>()
      .mockReturnValueOnce(testToken('user-1'))
      .mockReturnValueOnce(testToken('user-2'))
      .mockReturnValueOnce(null);
    const { tokens, onIdentityChange } = holder(provider);
    await tokens.ensureFresh();
    tokens.sourceChanged();
    await tokens.ensureFresh();
    expect(onIdentityChange).toHaveBeenCalledTimes(1);
    tokens.sourceChanged();
    await tokens.ensureFresh();
    expect(onIdentityChange).toHaveBeenCalledTimes(2);
    expect(tokens.current()).toBeNull();
  });

  it('stays anonymous without a provider, and signs out when the provider is removed', async () => {
    const { tokens, onIdentityChange, setSource } = holder(null);
    await tokens.ensureFresh();
    expect(tokens.current()).toBeNull();
    setSource(() => testToken('user-1'));
    tokens.sourceChanged();
    await tokens.ensureFresh();
    expect(onIdentityChange).not.toHaveBeenCalled(); // signing in keeps the conversation
    setSource(null);
    tokens.sourceChanged();
    await tokens.ensureFresh();
    expect(onIdentityChange).toHaveBeenCalledTimes(1);
  });

  it('ignores answers that are not JWTs, keeping the current token', async () => {
    const token = testToken('user-1');
    const provider = vi.fn<IdentityTokenProvider>().mockReturnValueOnce(token).mockReturnValueOnce('not-a-jwt');
    const { tokens, onIdentityChange } = holder(provider);
    await tokens.ensureFresh();
    tokens.sourceChanged();
    await tokens.ensureFresh();
    expect(tokens.current()).toBe(token);
    expect(onIdentityChange).not.toHaveBeenCalled();
    expect(console.warn).toHaveBeenCalledWith(expect.stringContaining('identity token provider'));
  });

  it('stops its timer when disposed', async () => {
    const provider = vi.fn(() => testToken('user-1', seconds(NOW) + 120));
    const { tokens } = holder(provider);
    await tokens.ensureFresh();
    tokens.dispose();
    await vi.advanceTimersByTimeAsync(3600_000);
    expect(provider).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
  });
});
