import { createHmac } from 'node:crypto';

/**
 * Known-answer vectors shared by the signer's and the verifier's tests: the token `createIdentityToken` must
 * produce for these inputs, byte for byte, and that `verifyIdentityToken` must accept.
 */
export const KNOWN_ANSWER = {
  secret: 'idsec_known_answer_vector_0123456789abcdef',
  now: new Date('2026-11-21T10:00:00Z'),
  options: { sub: 'user-42', email: 'ada@example.com', emailVerified: true, name: 'Ada Lovelace', ttlSeconds: 3600 },
  claims: { sub: 'user-42', email: 'ada@example.com', email_verified: true, name: 'Ada Lovelace', iat: 1795255200, exp: 1795258800 },
  token:
    'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9' +
    '.eyJzdWIiOiJ1c2VyLTQyIiwiZW1haWwiOiJhZGFAZXhhbXBsZS5jb20iLCJlbWFpbF92ZXJpZmllZCI6dHJ1ZSwibmFtZSI6IkFkYSBMb3ZlbGFjZSIsImlhdCI6MTc5NTI1NTIwMCwiZXhwIjoxNzk1MjU4ODAwfQ' +
    '.kweNf3yO0AeqwCh74mZDa8CK0Cqgx4kdUgmHm2CNc9M',
} as const;

const b64url = (value: unknown): string => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

/**
 * A JWT built without jose (node:crypto HMAC), so tests can craft what a careless or hostile signer sends:
 * other algorithms, missing or mistyped claims.
 */
export function craftToken(options: { secret: string; header?: Record<string, unknown>; payload: unknown; hash?: 'sha256' | 'sha512' }): string {
  const signingInput = `${b64url(options.header ?? { alg: 'HS256', typ: 'JWT' })}.${b64url(options.payload)}`;
  return `${signingInput}.${createHmac(options.hash ?? 'sha256', options.secret).update(signingInput).digest('base64url')}`;
}
