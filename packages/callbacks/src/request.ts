import { CallbackVerificationError } from './errors.js';
import type { VerifiedCallback } from './events.js';
import type { VerifyCallbackOptions } from './options.js';
import { resolveOptions } from './options.js';
import { verifyResolved } from './verify.js';

/**
 * Verifies a delivery arriving as a web `Request` (Next.js route handlers, Hono's `c.req.raw`, Cloudflare Workers,
 * Deno, Bun): reads the raw body itself, so call it before anything else reads the body.
 *
 * @example
 * // app/api/svc-callback/route.ts (Next.js)
 * export async function POST(request: Request) {
 *   try {
 *     const { event, deliveryId } = await verifyRequest(request, { secret: process.env.SVC_CALLBACK_SECRET! });
 *     await inbox.add(deliveryId, event);
 *     return new Response(null, { status: 204 });
 *   } catch (error) {
 *     if (isCallbackVerificationError(error)) return Response.json({ error: { reason: error.reason, message: error.message } }, { status: 400 });
 *     throw error;
 *   }
 * }
 */
export async function verifyRequest(request: Request, options: VerifyCallbackOptions): Promise<VerifiedCallback> {
  const resolved = resolveOptions(options);
  if (request.bodyUsed) {
    throw new CallbackVerificationError(
      'invalid_body',
      'The request body was already read (request.json() or text() ran first): call verifyRequest(request) before ' +
        'reading the body, or pass request.clone().',
    );
  }
  // Bytes, not text(): the signature covers the body's exact bytes, whatever their encoding.
  const body = new Uint8Array(await request.arrayBuffer());
  return verifyResolved({ body, headers: request.headers }, resolved);
}
