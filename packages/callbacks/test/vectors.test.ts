import { describe, expect, it } from 'vitest';
import { signCallback, verifyCallback } from '@svc/callbacks';
import { CALLBACK_SIGNATURE_VECTORS } from '@svc/core/testing';

/** The same vectors test the server's signer in @svc/core: signer and verifier cannot drift apart unnoticed. */
describe('known-answer vectors shared with the server’s signer', () => {
  const cases = CALLBACK_SIGNATURE_VECTORS.map((vector) => [vector.name, vector] as const);

  it.each(cases)('signCallback reproduces the signature: %s', async (_name, vector) => {
    expect(await signCallback(vector.secret, vector.timestamp, vector.body)).toBe(vector.signature);
    expect(await signCallback(vector.secret, vector.timestamp, new TextEncoder().encode(vector.body))).toBe(vector.signature);
  });

  it.each(cases)('the verifier accepts the signature, and only it: %s', async (_name, vector) => {
    const now = new Date(vector.timestamp * 1000);
    const headers = {
      'X-Svc-Signature': vector.signature,
      'X-Svc-Timestamp': String(vector.timestamp),
      'X-Svc-Event': 'message.completed',
      'X-Svc-Delivery': 'dlv_vector',
    };
    // Most vector bodies are not full events, so a genuine one fails only at the body check, after the signature.
    const accepted = await verifyCallback({ body: vector.body, headers }, { secret: vector.secret, now }).catch((error: unknown) => error);
    expect(accepted).not.toMatchObject({ reason: 'signature_mismatch' });
    const flipped = `${vector.signature.slice(0, -1)}${vector.signature.endsWith('0') ? '1' : '0'}`;
    const rejected = await verifyCallback({ body: vector.body, headers: { ...headers, 'X-Svc-Signature': flipped } }, { secret: vector.secret, now }).catch(
      (error: unknown) => error,
    );
    expect(rejected).toMatchObject({ reason: 'signature_mismatch' });
  });
});
