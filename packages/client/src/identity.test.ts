import { describe, expect, it } from 'vitest';
import { craftToken, KNOWN_ANSWER } from '@svc/core/testing';
import { createIdentityToken, verifyIdentityToken } from './identity.js';

/** Signing; the verifier's own tests live with it in @svc/core (identity-token.test.ts). */

const SECRET = 'idsec_current_secret_0123456789abcdefghij';
const NOW = new Date('2026-11-21T12:00:00Z');
const now = NOW.getTime() / 1000;

describe('createIdentityToken', () => {
  it('produces the known-answer token, byte for byte', async () => {
    const token = await createIdentityToken({ secret: KNOWN_ANSWER.secret, now: KNOWN_ANSWER.now, ...KNOWN_ANSWER.options });
    expect(token).toBe(KNOWN_ANSWER.token);
    // The same bytes as an independent HMAC-SHA256 over the same header and claims.
    expect(craftToken({ secret: KNOWN_ANSWER.secret, payload: KNOWN_ANSWER.claims })).toBe(KNOWN_ANSWER.token);
  });

  it('leaves out the optional claims that are not given', async () => {
    const token = await createIdentityToken({ secret: SECRET, sub: 'user-1', ttlSeconds: 60, now: NOW });
    const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as unknown;
    expect(payload).toEqual({ sub: 'user-1', iat: now, exp: now + 60 });
  });

  it.each([0, -1, 1.5, 86_401, Number.NaN])('refuses ttlSeconds %s: 1 to 86400 whole seconds', async (ttlSeconds) => {
    await expect(createIdentityToken({ secret: SECRET, sub: 'u', ttlSeconds })).rejects.toThrow(RangeError);
  });

  it('accepts the full 24 hours', async () => {
    const token = await createIdentityToken({ secret: SECRET, sub: 'u', ttlSeconds: 86_400, now: NOW });
    await expect(verifyIdentityToken(token, { secrets: [SECRET], now: NOW })).resolves.toMatchObject({ exp: now + 86_400 });
  });

  it('refuses a secret shorter than 32 bytes and an invalid sub', async () => {
    await expect(createIdentityToken({ secret: 'short', sub: 'u', ttlSeconds: 60 })).rejects.toThrow(/at least 32 bytes/);
    for (const sub of ['', 'x'.repeat(256), 'tab\there']) {
      await expect(createIdentityToken({ secret: SECRET, sub, ttlSeconds: 60 })).rejects.toThrow(/sub must be 1-255 printable/);
    }
  });
});

describe('createIdentityToken with the verifier', () => {
  it('accepts the known-answer token and returns its claims', async () => {
    const claims = await verifyIdentityToken(KNOWN_ANSWER.token, { secrets: [KNOWN_ANSWER.secret], now: KNOWN_ANSWER.now });
    expect(claims).toEqual(KNOWN_ANSWER.claims);
  });

  it('round-trips every claim createIdentityToken signs', async () => {
    const token = await createIdentityToken({ secret: SECRET, sub: 'user-7', email: 'a@example.com', emailVerified: false, name: 'A', ttlSeconds: 600, now: NOW });
    expect(await verifyIdentityToken(token, { secrets: [SECRET], now: NOW })).toEqual({
      sub: 'user-7',
      email: 'a@example.com',
      email_verified: false,
      name: 'A',
      iat: now,
      exp: now + 600,
    });
  });

});
