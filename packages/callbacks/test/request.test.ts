import { describe, expect, it } from 'vitest';
import { verifyRequest } from '@svc/callbacks';
import { NOW, NOW_SECONDS, SECRET, completedEvent, signedDelivery } from './deliveries.js';

const options = { secret: SECRET, now: NOW };

function post(delivery: { body: string; headers: Record<string, string> }): Request {
  return new Request('https://shop.example/svc/callbacks', { method: 'POST', body: delivery.body, headers: delivery.headers });
}

describe('verifyRequest (web Request: Next.js, Hono, workers, Deno, Bun)', () => {
  it('reads the raw body and headers of a real Request', async () => {
    const verified = await verifyRequest(post(await signedDelivery()), options);
    expect(verified).toEqual({ event: completedEvent, deliveryId: 'dlv_01', timestamp: NOW_SECONDS });
  });

  it('rejects a tampered body with signature_mismatch', async () => {
    const delivery = await signedDelivery();
    const request = post({ ...delivery, body: delivery.body.replace('Canada', 'Mars') });
    await expect(verifyRequest(request, options)).rejects.toMatchObject({ reason: 'signature_mismatch', message: expect.stringMatching(/raw request body/) });
  });

  it('explains what to do when the body was already read', async () => {
    const request = post(await signedDelivery());
    await request.json();
    await expect(verifyRequest(request, options)).rejects.toMatchObject({
      reason: 'invalid_body',
      message: expect.stringMatching(/already read .*call verifyRequest\(request\) before reading the body, or pass request.clone\(\)/),
    });
  });

  it('works on a clone when the application also needs the body', async () => {
    const request = post(await signedDelivery());
    await expect(verifyRequest(request.clone(), options)).resolves.toMatchObject({ deliveryId: 'dlv_01' });
    expect(await request.json()).toEqual(completedEvent);
  });
});
