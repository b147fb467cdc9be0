import { describe, expect, it } from 'vitest';
import { identitySchema } from './schemas/common.js';
import {
  IdentityTokenError,
  isIdentityTokenError,
  isValidIdentitySub,
  verifyIdentityToken,
  type IdentityTokenFailure,
} from './identity-token.js';
import { craftToken, KNOWN_ANSWER } from './testing/identity-vectors.js';

/** The widget identity-token verifier the server uses (moved here from @svc/client, now over Web Crypto). */

const SECRET = 'idsec_current_secret_0123456789abcdefghij';
const OLD_SECRET = 'idsec_previous_secret_0123456789abcdefghi';
const NOW = new Date('2026-11-21T12:00:00Z');
const now = NOW.getTime() / 1000;

async function refusal(token: string, options: Partial<Parameters<typeof verifyIdentityToken>[1]> = {}): Promise<IdentityTokenError> {
  const error = await verifyIdentityToken(token, { secrets: [SECRET], now: NOW, ...options }).then(
    () => {
      throw new Error('expected the token to be refused');
    },
    (e: unknown) => e,
  );
  if (!isIdentityTokenError(error)) throw error;
  return error;
}

describe('verifyIdentityToken', () => {
  it('accepts the known-answer token and returns its claims', async () => {
    const claims = await verifyIdentityToken(KNOWN_ANSWER.token, { secrets: [KNOWN_ANSWER.secret], now: KNOWN_ANSWER.now });
    expect(claims).toEqual(KNOWN_ANSWER.claims);
  });

  it('accepts a token signed with any of the secrets (rotation) and returns only the known claims', async () => {
    const token = craftToken({ secret: OLD_SECRET, payload: { sub: 'u', exp: now + 60, role: 'admin' } });
    expect(await verifyIdentityToken(token, { secrets: [SECRET, OLD_SECRET], now: NOW })).toEqual({ sub: 'u', exp: now + 60 });
  });

  it('needs at least one secret of 32 bytes', async () => {
    await expect(verifyIdentityToken(KNOWN_ANSWER.token, { secrets: [] })).rejects.toThrow(TypeError);
    await expect(verifyIdentityToken(KNOWN_ANSWER.token, { secrets: ['short'] })).rejects.toThrow(/at least 32 bytes/);
  });

  const valid = { sub: 'u', iat: now, exp: now + 600 };
  const cases: Array<[string, () => string, IdentityTokenFailure, string | undefined]> = [
    ['not a JWT', () => 'not-a-token', 'malformed', undefined],
    ['a header that is not JSON', () => 'bm90IGpzb24.e30.c2ln', 'malformed', undefined],
    ['a signed payload that is not JSON', () => craftToken({ secret: SECRET, payload: 'not json' }), 'malformed', undefined],
    ['a signed payload that is a JSON array', () => craftToken({ secret: SECRET, payload: [1, 2] }), 'malformed', undefined],
    ['alg "none"', () => `${craftToken({ secret: SECRET, header: { alg: 'none' }, payload: valid }).split('.').slice(0, 2).join('.')}.`, 'algorithm_not_allowed', undefined],
    ['alg HS512', () => craftToken({ secret: SECRET, header: { alg: 'HS512' }, payload: valid, hash: 'sha512' }), 'algorithm_not_allowed', undefined],
    ['RS256 in the header', () => craftToken({ secret: SECRET, header: { alg: 'RS256' }, payload: valid }), 'algorithm_not_allowed', undefined],
    ['another secret', () => craftToken({ secret: 'idsec_someone_else_0123456789abcdefghijkl', payload: valid }), 'signature_invalid', undefined],
    ['a tampered payload', () => {
      const [header, , signature] = craftToken({ secret: SECRET, payload: valid }).split('.');
      return `${header}.${Buffer.from(JSON.stringify({ ...valid, sub: 'admin' })).toString('base64url')}.${signature}`;
    }, 'signature_invalid', undefined],
    ['an expired token', () => craftToken({ secret: SECRET, payload: { sub: 'u', iat: now - 600, exp: now - 31 } }), 'expired', 'exp'],
    ['nbf in the future', () => craftToken({ secret: SECRET, payload: { ...valid, nbf: now + 60 } }), 'not_yet_valid', 'nbf'],
    ['iat in the future', () => craftToken({ secret: SECRET, payload: { sub: 'u', iat: now + 60, exp: now + 600 } }), 'not_yet_valid', 'iat'],
    ['no exp', () => craftToken({ secret: SECRET, payload: { sub: 'u', iat: now } }), 'claim_missing', 'exp'],
    ['no sub', () => craftToken({ secret: SECRET, payload: { iat: now, exp: now + 60 } }), 'claim_missing', 'sub'],
    ['exp as a string', () => craftToken({ secret: SECRET, payload: { sub: 'u', exp: String(now + 60) } }), 'claim_invalid', 'exp'],
    ['a numeric sub', () => craftToken({ secret: SECRET, payload: { sub: 42, exp: now + 60 } }), 'claim_invalid', 'sub'],
    ['a sub with a control character', () => craftToken({ secret: SECRET, payload: { sub: 'a\u0000b', exp: now + 60 } }), 'claim_invalid', 'sub'],
    ['email_verified as a string', () => craftToken({ secret: SECRET, payload: { ...valid, email_verified: 'true' } }), 'claim_invalid', 'email_verified'],
    ['an email that is not a string', () => craftToken({ secret: SECRET, payload: { ...valid, email: ['a@b.c'] } }), 'claim_invalid', 'email'],
    ['25 hours between iat and exp', () => craftToken({ secret: SECRET, payload: { sub: 'u', iat: now, exp: now + 90_000 } }), 'lifetime_too_long', 'exp'],
    ['no iat and exp 2 days away', () => craftToken({ secret: SECRET, payload: { sub: 'u', exp: now + 172_800 } }), 'lifetime_too_long', 'exp'],
  ];

  it.each(cases)('refuses %s as %s', async (_name, token, reason, claim) => {
    const error = await refusal(token());
    expect(error).toBeInstanceOf(IdentityTokenError);
    expect({ reason: error.reason, claim: error.claim }).toEqual({ reason, claim });
    expect(error.message).toMatch(/identity token/);
  });

  it('allows 30 s of clock difference by default, and no more when told so', async () => {
    const lateToken = craftToken({ secret: SECRET, payload: { sub: 'u', iat: now - 600, exp: now - 10 } });
    await expect(verifyIdentityToken(lateToken, { secrets: [SECRET], now: NOW })).resolves.toMatchObject({ sub: 'u' });
    expect((await refusal(lateToken, { clockToleranceSeconds: 0 })).reason).toBe('expired');
    const earlyToken = craftToken({ secret: SECRET, payload: { sub: 'u', iat: now + 10, exp: now + 600 } });
    await expect(verifyIdentityToken(earlyToken, { secrets: [SECRET], now: NOW })).resolves.toMatchObject({ iat: now + 10 });
  });

  it('checks a signature before the claims, so a forged token learns nothing about them', async () => {
    const forged = craftToken({ secret: 'idsec_someone_else_0123456789abcdefghijkl', payload: { sub: 'u', exp: now - 3600 } });
    expect((await refusal(forged)).reason).toBe('signature_invalid');
  });

  it('isIdentityTokenError recognises the error by brand', () => {
    expect(isIdentityTokenError(new IdentityTokenError('expired', 'x'))).toBe(true);
    expect(isIdentityTokenError({ name: 'IdentityTokenError', reason: 'expired' })).toBe(true);
    expect(isIdentityTokenError(new Error('x'))).toBe(false);
  });
});

describe('the sub rule', () => {
  it("is core's identitySchema rule (spec 2.3: 1-255 printable characters), so a token's sub is a valid identity", () => {
    const samples = ['user-42', 'ada@example.com', 'ü 漢字 😀', '', 'x'.repeat(255), 'x'.repeat(256), 'a\u0000b', 'tab\there', 'zero\u200bwidth', '\ud800'];
    for (const sub of samples) expect(isValidIdentitySub(sub), JSON.stringify(sub)).toBe(identitySchema.safeParse({ sub }).success);
  });
});
