import express, { type Express } from 'express';
import type { VerifiedCallback } from '@svc/callbacks';
import { callbackMiddleware } from '@svc/callbacks/express';

export interface ReceiverOptions {
  /** The callback secret shown once when the API key with the callback URL was created. */
  secret: string;
  /** Your work for each delivery, run once per delivery id, after the answer has gone out. */
  onEvent: (callback: VerifiedCallback) => void | Promise<void>;
}

export function createReceiverApp({ secret, onEvent }: ReceiverOptions): Express {
  const app = express();
  // Retries of one delivery share its id (`deliveryId`, read from the signed body, so a replay cannot pose as a new
  // delivery). A Set is enough for a demo; in production use a unique
  // key in your database, so restarts and several instances agree on what was handled.
  const handled = new Set<string>();

  // The callback route comes BEFORE app.use(express.json()): the signature covers the raw bytes of the body, and
  // callbackMiddleware reads them itself. A bad delivery is answered 400 and never reaches the handler.
  app.post('/svc/callbacks', callbackMiddleware({ secret }), (req, res) => {
    const callback = req.svcCallback!;
    // Answer first: the Svc server waits 10 s at most, then retries. Slow work (LLM post-processing, emails)
    // happens after the 204, ideally in your own job queue.
    res.sendStatus(204);
    if (handled.has(callback.deliveryId)) return;
    handled.add(callback.deliveryId);
    Promise.resolve(onEvent(callback)).catch((error: unknown) => console.error('callback handler failed', error));
  });

  // The rest of your app can parse JSON as usual.
  app.use(express.json());
  return app;
}
