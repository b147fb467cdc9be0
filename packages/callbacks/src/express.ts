import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { CallbackVerificationError, isCallbackVerificationError } from './errors.js';
import type { CallbackVerificationReason } from './errors.js';
import type { VerifiedCallback } from './events.js';
import { resolveOptions } from './options.js';
import type { VerifyCallbackOptions } from './options.js';
import { verifyResolved } from './verify.js';

declare global {
  // Express's own extension point for properties middleware adds to `req` (namespace merging is the only way).
  namespace Express {
    interface Request {
      /** The verified delivery, set by `callbackMiddleware()` from `@svc/callbacks/express` before your handler runs. */
      svcCallback?: VerifiedCallback;
    }
  }
}

export type CallbackMiddlewareOptions = VerifyCallbackOptions & {
  /**
   * Larger bodies are refused with 413 before being buffered: the route is public, so an unauthenticated sender
   * must not be able to make the process hold an arbitrary amount of memory. Default 1 MiB, far above a reply.
   */
  maxBodyBytes?: number;
};

const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** Raised for this server's own set-up, not the delivery: answered 500 so it is not mistaken for a forgery. */
class MiddlewareSetupError extends Error {}

const PARSED_BODY =
  'req.body was already parsed by a body parser (express.json() or similar) mounted before callbackMiddleware(), so ' +
  'the raw bytes the signature covers are gone: mount callbackMiddleware() on the callback route before ' +
  'app.use(express.json()), or put express.raw({ type: "*/*" }) in front of it on that route.';

/**
 * Express middleware that verifies a Svc callback delivery. It reads the raw body itself (no body parser needed, and
 * it must run before any JSON parser), sets `req.svcCallback` and calls `next()`; a rejected delivery is answered
 * `400 { error: { reason, message } }` and your handler does not run. A body already in `req.body` as a Buffer
 * (express.raw) or string (express.text) is used as is. Works with Express 4 and 5.
 *
 * @example
 * import { callbackMiddleware } from '@svc/callbacks/express';
 *
 * app.post('/svc/callbacks', callbackMiddleware({ secret: process.env.SVC_CALLBACK_SECRET! }), (req, res) => {
 *   const { event, deliveryId } = req.svcCallback!;
 *   res.sendStatus(204); // answer first: the server waits 10 s at most, then retries
 *   void inbox.add(deliveryId, event);
 * });
 * app.use(express.json()); // other routes may parse JSON; this one has already read its body
 */
export function callbackMiddleware(options: CallbackMiddlewareOptions): RequestHandler {
  // Resolved once: configuration errors surface at start-up, and the secrets are imported a single time.
  const resolved = resolveOptions(options);
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes <= 0) {
    throw new TypeError(`maxBodyBytes must be a positive integer (got ${String(maxBodyBytes)}); omit it for 1 MiB`);
  }

  return (req: Request, res: Response, next: NextFunction): void => {
    // Express 4 does not catch rejected promises from middleware, so every failure is routed explicitly.
    rawBodyOf(req, maxBodyBytes)
      .then((body) => verifyResolved({ body, headers: req.headers }, resolved))
      .then(
        (callback) => {
          req.svcCallback = callback;
          next();
        },
        (error: unknown) => {
          if (error instanceof MiddlewareSetupError) reject(res, 500, 'invalid_body', error.message);
          else if (error instanceof PayloadTooLarge) reject(res, 413, 'invalid_body', error.message);
          else if (isCallbackVerificationError(error)) reject(res, 400, error.reason, error.message);
          else next(error);
        },
      );
  };
}

function reject(res: Response, status: number, reason: CallbackVerificationReason, message: string): void {
  res.status(status).json({ error: { reason, message } });
}

class PayloadTooLarge extends CallbackVerificationError {}

function rawBodyOf(req: Request, maxBodyBytes: number): Promise<Uint8Array | string> {
  const parsed: unknown = req.body;
  if (parsed instanceof Uint8Array || typeof parsed === 'string') return Promise.resolve(parsed);
  // Express 4's body-parser sets `req.body = {}` even when it skips a request, so only a consumed stream proves
  // the body was parsed away.
  if (req.readableEnded) {
    return Promise.reject(
      new MiddlewareSetupError(
        parsed === undefined
          ? 'The request body was already consumed by another middleware: mount callbackMiddleware() before it.'
          : PARSED_BODY,
      ),
    );
  }
  const declared = Number(req.headers['content-length']);
  if (declared > maxBodyBytes) return Promise.reject(tooLarge(maxBodyBytes));
  return readStream(req, maxBodyBytes);
}

function readStream(req: Request, maxBodyBytes: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    const cleanup = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    const onData = (chunk: Uint8Array | string): void => {
      const bytes = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk;
      size += bytes.length;
      if (size > maxBodyBytes) {
        cleanup();
        // Keep draining without buffering so the 413 can still be written on this connection.
        req.resume();
        reject(tooLarge(maxBodyBytes));
        return;
      }
      chunks.push(bytes);
    };
    const onEnd = (): void => {
      cleanup();
      const body = new Uint8Array(size);
      let offset = 0;
      for (const chunk of chunks) {
        body.set(chunk, offset);
        offset += chunk.length;
      }
      resolve(body);
    };
    const onError = (error: Error): void => {
      cleanup();
      reject(error);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

function tooLarge(maxBodyBytes: number): PayloadTooLarge {
  return new PayloadTooLarge(
    'invalid_body',
    `The callback body is larger than ${maxBodyBytes} bytes: raise callbackMiddleware({ maxBodyBytes }) if your replies are that large.`,
  );
}
