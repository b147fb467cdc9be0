import { Hono } from 'hono';
import { isCallbackVerificationError, verifyRequest } from '@svc/callbacks';
import type { VerifiedCallback } from '@svc/callbacks';

export interface ReceiverOptions {
  /** The callback secret shown once when the API key with the callback URL was created. */
  secret: string;
  /** Your work for each delivery, run once per delivery id, without holding up the answer. */
  onEvent: (callback: VerifiedCallback) => void | Promise<void>;
}

export function createReceiverApp({ secret, onEvent }: ReceiverOptions): Hono {
  const app = new Hono();
  // Retries of one delivery share its id (`deliveryId`, read from the signed body, so a replay cannot pose as a new
  // delivery). A Set is enough for a demo; in production use a unique
  // key in your database, so restarts and several instances agree on what was handled.
  const handled = new Set<string>();

  app.post('/svc/callbacks', async (c) => {
    let callback: VerifiedCallback;
    try {
      // c.req.raw is the web Request: verifyRequest reads its raw bytes. Do not call c.req.json() before it.
      callback = await verifyRequest(c.req.raw, { secret });
    } catch (error) {
      // A forged, tampered or replayed delivery: 400, and nothing is acted on.
      if (isCallbackVerificationError(error)) return c.json({ error: { reason: error.reason, message: error.message } }, 400);
      throw error;
    }
    if (!handled.has(callback.deliveryId)) {
      handled.add(callback.deliveryId);
      // Not awaited: the Svc server waits 10 s at most before retrying, so answer now and work afterwards.
      // On Cloudflare Workers wrap it in c.executionCtx.waitUntil(...) so the runtime lets it finish.
      Promise.resolve(onEvent(callback)).catch((failure: unknown) => console.error('callback handler failed', failure));
    }
    return c.body(null, 204);
  });

  return app;
}
