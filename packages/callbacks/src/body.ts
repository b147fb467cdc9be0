import { CallbackVerificationError } from './errors.js';

/** The raw request body exactly as received. Parsed JSON is deliberately not accepted (see `rawBodyBytes`). */
export type CallbackBody = string | Uint8Array | ArrayBuffer;

const encoder = new TextEncoder();

const PARSED_BODY_REMEDY =
  'pass the raw request body exactly as received (a string, Uint8Array or ArrayBuffer), not parsed JSON: ' +
  're-serialising changes the bytes the signature covers. Express: use express.raw({ type: "*/*" }) on this route ' +
  'or callbackMiddleware() from @svc/callbacks/express; web Request: verifyRequest(request) or await request.text()';

export function isArrayBuffer(value: unknown): value is ArrayBuffer {
  // `instanceof ArrayBuffer` is false for buffers made in another realm (vm contexts, some test environments).
  return Object.prototype.toString.call(value) === '[object ArrayBuffer]';
}

/**
 * The body's bytes, untouched: a `Uint8Array` (Node's `Buffer` included) is hashed as is, never decoded and
 * re-encoded, so a body that is not valid UTF-8 still verifies (and is rejected later, as a body).
 */
export function rawBodyBytes(body: unknown): Uint8Array {
  if (typeof body === 'string') return encoder.encode(body);
  if (body instanceof Uint8Array) return body;
  if (isArrayBuffer(body)) return new Uint8Array(body);
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  if (body === undefined || body === null) {
    throw new CallbackVerificationError('invalid_body', `The callback body is ${String(body)}: ${PARSED_BODY_REMEDY}.`);
  }
  throw new CallbackVerificationError(
    'invalid_body',
    `The callback body is ${Array.isArray(body) ? 'an array' : typeof body === 'object' ? 'an object' : `a ${typeof body}`}, probably already parsed by a body parser: ${PARSED_BODY_REMEDY}.`,
  );
}
