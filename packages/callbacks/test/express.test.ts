import { afterEach, describe, expect, it } from 'vitest';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import type { Express } from 'express';
import { callbackMiddleware } from '@svc/callbacks/express';
import type { VerifiedCallback } from '@svc/callbacks';
import { NOW, NOW_SECONDS, SECRET, completedEvent, signedDelivery } from './deliveries.js';
import type { SignedDelivery } from './deliveries.js';

const options = { secret: SECRET, now: NOW };
const servers: Server[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** Listens on a real socket, so the middleware reads a real IncomingMessage stream. */
async function listen(app: Express): Promise<string> {
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** An app that records what its handler saw: the handler must not run for a rejected delivery. */
function receiver(setup: (app: Express, handler: express.RequestHandler) => void): { app: Express; received: VerifiedCallback[] } {
  const app = express();
  const received: VerifiedCallback[] = [];
  setup(app, (req, res) => {
    if (req.svcCallback) received.push(req.svcCallback);
    res.status(204).end();
  });
  return { app, received };
}

function deliver(base: string, delivery: SignedDelivery, contentType = 'application/json'): Promise<Response> {
  return fetch(`${base}/svc/callbacks`, { method: 'POST', body: delivery.body, headers: { ...delivery.headers, 'Content-Type': contentType } });
}

describe('callbackMiddleware over a real Express server', () => {
  it('verifies a real signed POST, sets req.svcCallback and calls the handler, with express.json() mounted after it', async () => {
    const { app, received } = receiver((app, handler) => {
      app.post('/svc/callbacks', callbackMiddleware(options), handler);
      app.use(express.json());
      app.post('/other', (req, res) => {
        res.json({ parsed: req.body as unknown });
      });
    });
    const base = await listen(app);
    const response = await deliver(base, await signedDelivery({ deliveryId: 'dlv_express' }));
    expect(response.status).toBe(204);
    expect(received).toEqual([{ event: { ...completedEvent, deliveryId: 'dlv_express' }, deliveryId: 'dlv_express', timestamp: NOW_SECONDS }]);
    // The rest of the app keeps its JSON parsing.
    const other = await fetch(`${base}/other`, { method: 'POST', body: '{"a":1}', headers: { 'Content-Type': 'application/json' } });
    expect(await other.json()).toEqual({ parsed: { a: 1 } });
  });

  it('answers 400 { error: { reason, message } } for a tampered delivery, and the handler does not run', async () => {
    const { app, received } = receiver((app, handler) => app.post('/svc/callbacks', callbackMiddleware(options), handler));
    const base = await listen(app);
    const delivery = await signedDelivery();
    const response = await deliver(base, { ...delivery, body: delivery.body.replace('Trail tent', 'Free tent') });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: { reason: 'signature_mismatch', message: expect.stringMatching(/pass the raw request body exactly as received/) as unknown },
    });
    expect(received).toEqual([]);
  });

  it('answers 400 timestamp_too_old for a stale delivery', async () => {
    const { app, received } = receiver((app, handler) => app.post('/svc/callbacks', callbackMiddleware(options), handler));
    const base = await listen(app);
    const response = await deliver(base, await signedDelivery({ timestamp: NOW_SECONDS - 301 }));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { reason: 'timestamp_too_old', message: expect.stringMatching(/301 s old/) as unknown } });
    expect(received).toEqual([]);
  });

  it('answers 400 missing_header for a request without the Svc headers', async () => {
    const { app } = receiver((app, handler) => app.post('/svc/callbacks', callbackMiddleware(options), handler));
    const base = await listen(app);
    const response = await fetch(`${base}/svc/callbacks`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { reason: 'missing_header', message: expect.stringMatching(/X-Svc-Signature header is missing/) as unknown } });
  });

  it('explains the fix when express.json() was mounted first and parsed the body away', async () => {
    const { app, received } = receiver((app, handler) => {
      app.use(express.json());
      app.post('/svc/callbacks', callbackMiddleware(options), handler);
    });
    const base = await listen(app);
    const response = await deliver(base, await signedDelivery());
    // 500, not 400: the receiver's set-up is at fault, not the delivery, so it must not look like a forgery.
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({
      error: {
        reason: 'invalid_body',
        message: expect.stringMatching(/already parsed by a body parser \(express\.json\(\).*mount callbackMiddleware\(\) on the callback route before app\.use\(express\.json\(\)\), or put express\.raw/) as unknown,
      },
    });
    expect(received).toEqual([]);
  });

  it('reads the body itself when express.json() is mounted first but skipped the request (another content type)', async () => {
    const { app, received } = receiver((app, handler) => {
      app.use(express.json());
      app.post('/svc/callbacks', callbackMiddleware(options), handler);
    });
    const base = await listen(app);
    expect((await deliver(base, await signedDelivery(), 'text/plain')).status).toBe(204);
    expect(received).toHaveLength(1);
  });

  it('uses a Buffer left by express.raw() as the raw body', async () => {
    const { app, received } = receiver((app, handler) => {
      app.post('/svc/callbacks', express.raw({ type: '*/*' }), callbackMiddleware(options), handler);
    });
    const base = await listen(app);
    expect((await deliver(base, await signedDelivery())).status).toBe(204);
    expect(received[0]?.event).toEqual(completedEvent);
  });

  it('refuses a body over maxBodyBytes with 413 before buffering it', async () => {
    const { app, received } = receiver((app, handler) => {
      app.post('/svc/callbacks', callbackMiddleware({ ...options, maxBodyBytes: 64 }), handler);
    });
    const base = await listen(app);
    const response = await deliver(base, await signedDelivery());
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: { reason: 'invalid_body', message: expect.stringMatching(/larger than 64 bytes: raise callbackMiddleware\(\{ maxBodyBytes \}\)/) as unknown } });
    expect(received).toEqual([]);
  });

  it('refuses a chunked body that grows past maxBodyBytes (no Content-Length to trust)', async () => {
    const { app } = receiver((app, handler) => {
      app.post('/svc/callbacks', callbackMiddleware({ ...options, maxBodyBytes: 64 }), handler);
    });
    const base = await listen(app);
    const delivery = await signedDelivery();
    const stream = new Blob([delivery.body]).stream();
    const response = await fetch(`${base}/svc/callbacks`, { method: 'POST', body: stream, headers: delivery.headers, duplex: 'half' } as RequestInit);
    expect(response.status).toBe(413);
  });

  it('fails at start-up, not per delivery, when misconfigured', () => {
    expect(() => callbackMiddleware({ secret: '' })).toThrow(TypeError);
    expect(() => callbackMiddleware({ ...options, toleranceSeconds: -5 })).toThrow(/toleranceSeconds must be a finite number/);
    expect(() => callbackMiddleware({ ...options, maxBodyBytes: 0 })).toThrow(/maxBodyBytes must be a positive integer/);
  });
});
