import { rawBodyBytes } from './body.js';
import type { CallbackBody } from './body.js';
import { CallbackVerificationError, isCallbackVerificationError } from './errors.js';
import { parseCallbackEvent } from './event-shape.js';
import type { VerifiedCallback } from './events.js';
import { CALLBACK_HEADERS, readHeader } from './headers.js';
import type { CallbackHeaders } from './headers.js';
import { fromHex, hmacSha256, signedPayload } from './hmac.js';
import { resolveOptions } from './options.js';
import type { ResolvedOptions, VerifyCallbackOptions } from './options.js';
import { timingSafeEqual } from './timing-safe-equal.js';

/** A delivery as received: the raw body and the request headers. */
export interface CallbackDelivery {
  body: CallbackBody;
  headers: CallbackHeaders;
}

export type SafeVerifyResult = ({ ok: true } & VerifiedCallback) | { ok: false; error: CallbackVerificationError };

const SIGNATURE = /^[0-9a-f]{64}$/i;
const TIMESTAMP = /^\d{1,12}$/;
const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Verifies a callback delivery and returns its typed event, or throws `CallbackVerificationError` with a `reason`.
 *
 * Checks, in order: the body is raw (not parsed JSON), the four headers are present and well-formed, the
 * signature matches one of the secrets (constant-time), the timestamp is within `toleranceSeconds` of now in
 * both directions, and the body is a known event matching `X-Svc-Event`. The signature is checked before the
 * timestamp so that `timestamp_too_old` / `timestamp_too_new` always describe a genuine delivery (a replay or a
 * skewed clock), never a forgery.
 *
 * `X-Svc-Signature` may carry several hex signatures separated by commas or spaces (e.g. one per secret while
 * the server rotates); one matching signature is enough.
 *
 * @example
 * const { event, deliveryId } = await verifyCallback(
 *   { body: rawBodyString, headers: request.headers },
 *   { secret: process.env.SVC_CALLBACK_SECRET! },
 * );
 * if (event.event === 'message.completed') console.log(event.data.content);
 */
export async function verifyCallback(delivery: CallbackDelivery, options: VerifyCallbackOptions): Promise<VerifiedCallback> {
  return verifyResolved(delivery, resolveOptions(options));
}

/**
 * Like `verifyCallback`, but returns `{ ok: false, error }` for a rejected delivery instead of throwing.
 * Misconfiguration (no secret, a negative tolerance) still throws a `TypeError`: it is a bug, not a delivery.
 *
 * @example
 * const result = await safeVerifyCallback({ body, headers }, { secrets: [newSecret, oldSecret] });
 * if (!result.ok) return Response.json({ error: { reason: result.error.reason } }, { status: 400 });
 * await inbox.add(result.deliveryId, result.event);
 */
export async function safeVerifyCallback(delivery: CallbackDelivery, options: VerifyCallbackOptions): Promise<SafeVerifyResult> {
  const resolved = resolveOptions(options);
  try {
    return { ok: true, ...(await verifyResolved(delivery, resolved)) };
  } catch (error) {
    if (isCallbackVerificationError(error)) return { ok: false, error };
    throw error;
  }
}

/** The pipeline behind every entry point, with options already resolved (the middleware resolves them once). */
export async function verifyResolved(delivery: CallbackDelivery, options: ResolvedOptions): Promise<VerifiedCallback> {
  const body = rawBodyBytes(delivery.body);
  const headers = readDeliveryHeaders(delivery.headers);
  const signatures = parseSignatures(headers.signature);
  const timestamp = parseTimestamp(headers.timestamp);
  await assertSignature(options, headers.timestamp, body, signatures);
  assertFresh(options, timestamp);
  const event = parseCallbackEvent(decodeBody(body), headers.event);
  if (event.deliveryId !== headers.delivery) {
    // The header is not signed; the body is. A different header id is a replay dressed up as a new delivery.
    throw new CallbackVerificationError(
      'invalid_body',
      `The X-Svc-Delivery header says "${truncate(headers.delivery)}" but the signed body says "${truncate(event.deliveryId)}": ` +
        'a captured delivery was replayed under a new id, or something rewrote the headers. Reject it.',
    );
  }
  return { event, deliveryId: event.deliveryId, timestamp };
}

function readDeliveryHeaders(headers: CallbackHeaders): Record<keyof typeof CALLBACK_HEADERS, string> {
  if (typeof headers !== 'object' || headers === null) {
    throw new CallbackVerificationError('missing_header', 'No request headers were passed: pass the request\'s headers (a Headers object or req.headers).');
  }
  const read = (key: keyof typeof CALLBACK_HEADERS): string => {
    const value = readHeader(headers, CALLBACK_HEADERS[key]);
    if (value !== undefined) return value;
    throw new CallbackVerificationError(
      'missing_header',
      `The ${CALLBACK_HEADERS[key]} header is missing: the request did not come from the Svc server, or a proxy ` +
        'strips X-Svc-* headers; pass the request headers unmodified.',
    );
  };
  return { signature: read('signature'), timestamp: read('timestamp'), event: read('event'), delivery: read('delivery') };
}

function parseSignatures(header: string): string[] {
  const signatures = header.split(/[\s,]+/).filter(Boolean);
  const malformed = signatures.find((signature) => !SIGNATURE.test(signature));
  if (signatures.length === 0 || malformed !== undefined) {
    throw new CallbackVerificationError(
      'malformed_signature',
      `The X-Svc-Signature header is not a 64-character hex HMAC-SHA256 digest (or a comma/space-separated list of them): ` +
        `got "${truncate(malformed ?? header)}". Pass the header value unmodified.`,
    );
  }
  return signatures;
}

function parseTimestamp(header: string): number {
  if (!TIMESTAMP.test(header)) {
    throw new CallbackVerificationError(
      'malformed_timestamp',
      `The X-Svc-Timestamp header "${truncate(header)}" is not a Unix timestamp in whole seconds. Pass the header ` +
        'value unmodified; when signing test deliveries, use Math.floor(Date.now() / 1000), not milliseconds.',
    );
  }
  return Number(header);
}

async function assertSignature(options: ResolvedOptions, timestamp: string, body: Uint8Array, signatures: string[]): Promise<void> {
  // The exact header text is signed, as the server did: never a re-formatted number.
  const payload = signedPayload(timestamp, body);
  const received = signatures.map((signature) => fromHex(signature.toLowerCase()));
  for (const key of await options.keys) {
    const expected = await hmacSha256(key, payload);
    if (received.some((candidate) => timingSafeEqual(candidate, expected))) return;
  }
  throw new CallbackVerificationError(
    'signature_mismatch',
    'The X-Svc-Signature does not match the body and timestamp: pass the raw request body exactly as received, not ' +
      'parsed and re-serialised JSON; check the secret (the callback secret of the API key that sent the message, or the ' +
      'webhook endpoint\'s secret for session.* events, ' +
      'also kept in secrets: [...] while rotating).',
  );
}

function assertFresh(options: ResolvedOptions, timestamp: number): void {
  const nowMs = options.now().getTime();
  // A NaN clock would make every comparison false, i.e. accept everything: refuse it loudly instead.
  if (!Number.isFinite(nowMs)) throw new TypeError('options.now returned an invalid Date');
  const age = Math.floor(nowMs / 1000) - timestamp;
  const tolerance = options.toleranceSeconds;
  if (age > tolerance) {
    throw new CallbackVerificationError(
      'timestamp_too_old',
      `The delivery is signed correctly but its X-Svc-Timestamp is ${age} s old, beyond the ${tolerance} s tolerance: ` +
        "it is a replay or was held up on the way, or this machine's clock is ahead; sync the clock (NTP). " +
        'Missed replies stay readable through get-messages.',
    );
  }
  if (-age > tolerance) {
    throw new CallbackVerificationError(
      'timestamp_too_new',
      `The delivery is signed correctly but its X-Svc-Timestamp is ${-age} s in the future, beyond the ${tolerance} s ` +
        "tolerance: this machine's clock (or the Svc server's) is behind; sync the clock (NTP).",
    );
  }
}

function decodeBody(body: Uint8Array): string {
  try {
    return decoder.decode(body);
  } catch {
    throw new CallbackVerificationError(
      'invalid_body',
      'The callback body is not valid UTF-8 although its signature matched: pass the raw bytes as received, without ' +
        'converting their character set.',
    );
  }
}

function truncate(text: string): string {
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
