import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signCallback } from './signing.js';
import { CALLBACK_SIGNATURE_VECTORS } from './signing.vectors.js';

describe('callback signature known-answer vectors (spec 6)', () => {
  it('covers the cases the verifier relies on', () => {
    expect(CALLBACK_SIGNATURE_VECTORS.length).toBeGreaterThanOrEqual(6);
    for (const vector of CALLBACK_SIGNATURE_VECTORS) expect(vector.signature).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each(CALLBACK_SIGNATURE_VECTORS.map((vector) => [vector.name, vector] as const))(
    'signCallback matches the hard-coded signature: %s',
    async (_name, vector) => {
      expect(await signCallback(vector.secret, vector.timestamp, vector.body)).toBe(vector.signature);
      expect(await signCallback(vector.secret, String(vector.timestamp), vector.body)).toBe(vector.signature);
    },
  );

  // Guards the vectors themselves: an edit to a body or secret without a new signature fails here, independently
  // of the Web Crypto signer under test.
  it.each(CALLBACK_SIGNATURE_VECTORS.map((vector) => [vector.name, vector] as const))(
    'node:crypto agrees with the hard-coded signature: %s',
    (_name, vector) => {
      const expected = createHmac('sha256', Buffer.from(vector.secret, 'utf8'))
        .update(`${vector.timestamp}.${vector.body}`, 'utf8')
        .digest('hex');
      expect(expected).toBe(vector.signature);
    },
  );
});
