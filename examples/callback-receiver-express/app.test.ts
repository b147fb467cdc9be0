import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signCallback } from '@svc/callbacks';
import type { MessageCompletedEvent, VerifiedCallback } from '@svc/callbacks';
import { createReceiverApp } from './app.js';

const SECRET = 'whsec_example_secret';

const reply: Omit<MessageCompletedEvent, 'deliveryId'> = {
  event: 'message.completed',
  messageId: 'msg_01',
  sessionId: 'sess_01',
  widgetId: 'wgt_01',
  data: {
    content: 'Our trail tent weighs 1.2 kg.',
    products: [{ id: 'prod_tent', name: 'Trail tent', price: 199 }],
    actions: [],
    sessionEnded: false,
    credits: { chat: 1, retrieval: 1, orchestration: 0, embedding: 0, rerank: 0, plugin: 0, pluginRerank: 0, crawler: 0 },
    usage: { inputTokens: 40, outputTokens: 12 },
  },
};

/** A delivery as the Svc server sends it, signed with the receiver's secret. */
async function signedPost(options: { deliveryId: string; secondsAgo?: number; body?: string }): Promise<RequestInit> {
  // The delivery id travels in the signed body as well as in X-Svc-Delivery.
  const signed = JSON.stringify({ ...reply, deliveryId: options.deliveryId });
  const body = options.body ?? signed;
  const timestamp = Math.floor(Date.now() / 1000) - (options.secondsAgo ?? 0);
  return {
    method: 'POST',
    body,
    headers: {
      'Content-Type': 'application/json',
      'X-Svc-Signature': await signCallback(SECRET, timestamp, signed),
      'X-Svc-Timestamp': String(timestamp),
      'X-Svc-Event': reply.event,
      'X-Svc-Delivery': options.deliveryId,
    },
  };
}

describe('examples/callback-receiver-express', () => {
  const received: VerifiedCallback[] = [];
  let server: Server;
  let url: string;

  beforeAll(async () => {
    const app = createReceiverApp({ secret: SECRET, onEvent: (callback) => void received.push(callback) });
    server = await new Promise<Server>((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/svc/callbacks`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('accepts a signed delivery with 204 and handles it once, even when it is retried', async () => {
    expect((await fetch(url, await signedPost({ deliveryId: 'dlv_1' }))).status).toBe(204);
    // A retry: same delivery id, fresh timestamp and signature.
    expect((await fetch(url, await signedPost({ deliveryId: 'dlv_1' }))).status).toBe(204);
    await vi.waitFor(() => expect(received).toHaveLength(1));
    expect(received[0]).toMatchObject({ deliveryId: 'dlv_1', event: { ...reply, deliveryId: 'dlv_1' } });
  });

  it('answers 400 to a tampered delivery and does not handle it', async () => {
    const tampered = await signedPost({ deliveryId: 'dlv_2', body: JSON.stringify({ ...reply, sessionId: 'sess_other' }) });
    const response = await fetch(url, tampered);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { reason: 'signature_mismatch' } });
  });

  it('answers 400 to a stale delivery (a replay) and does not handle it', async () => {
    const response = await fetch(url, await signedPost({ deliveryId: 'dlv_3', secondsAgo: 600 }));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { reason: 'timestamp_too_old' } });
    expect(received.map((callback) => callback.deliveryId)).toEqual(['dlv_1']);
  });
});
