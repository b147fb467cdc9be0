import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha256Hex, signCallback, timingSafeEqualStrings } from './signing.js';

describe('callback signing (spec 6)', () => {
  it('is hex HMAC-SHA256 over "<timestamp>.<raw body>" keyed with the secret string', async () => {
    const body = '{"event":"message.completed","messageId":"msg_1"}';
    const expected = createHmac('sha256', 'whsec_test').update(`1767225600.${body}`).digest('hex');
    expect(await signCallback('whsec_test', 1767225600, body)).toBe(expected);
    expect(await signCallback('whsec_test', '1767225600', body)).toBe(expected);
  });

  it('hashes keys with SHA-256 and compares strings in constant time', async () => {
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(timingSafeEqualStrings('abc', 'abc')).toBe(true);
    expect(timingSafeEqualStrings('abc', 'abd')).toBe(false);
    expect(timingSafeEqualStrings('abc', 'abcd')).toBe(false);
  });
});
