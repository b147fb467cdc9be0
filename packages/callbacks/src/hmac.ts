import { isArrayBuffer, rawBodyBytes } from './body.js';
import type { CallbackBody } from './body.js';

const encoder = new TextEncoder();

/** Web Crypto only (no `node:crypto`), so the same code runs in Node 20+, Deno, Bun, workers and browsers. */
export function importSecret(secret: string): Promise<CryptoKey> {
  // The UTF-8 bytes of the secret exactly as shown to the user: no trimming, no base64 decoding (DESIGN.md 3).
  return crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
}

/** The signed message: `${timestamp}.` followed by the body's raw bytes, concatenated without decoding the body. */
export function signedPayload(timestamp: string, body: Uint8Array): Uint8Array<ArrayBuffer> {
  const prefix = encoder.encode(`${timestamp}.`);
  const payload = new Uint8Array(prefix.length + body.length);
  payload.set(prefix, 0);
  payload.set(body, prefix.length);
  return payload;
}

export async function hmacSha256(key: CryptoKey, payload: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.sign('HMAC', key, payload));
}

export function toHex(bytes: Uint8Array): string {
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/** Bytes of a hex string already checked to be even-length hex. */
export function fromHex(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

/**
 * Signs a body the way the Svc server does (spec 6): hex HMAC-SHA256 keyed with the secret's UTF-8 bytes over
 * `${timestamp}.${body}`. For receivers' tests: build a genuine delivery without running the server.
 *
 * @example
 * const body = JSON.stringify({ event: 'message.completed', ... });
 * const timestamp = Math.floor(Date.now() / 1000);
 * const signature = await signCallback(process.env.SVC_CALLBACK_SECRET!, timestamp, body);
 * await fetch(url, { method: 'POST', body, headers: { 'X-Svc-Signature': signature, 'X-Svc-Timestamp': String(timestamp),
 *   'X-Svc-Event': 'message.completed', 'X-Svc-Delivery': 'dlv_test_1' } });
 */
export async function signCallback(secret: string, timestamp: number | string, body: CallbackBody): Promise<string> {
  if (typeof body === 'object' && !(body instanceof Uint8Array) && !ArrayBuffer.isView(body) && !isArrayBuffer(body)) {
    // A signer given an object would have to serialise it, and the receiver could never know how: refuse.
    throw new TypeError('signCallback signs the exact bytes you send: pass the body string (e.g. JSON.stringify(event)), not an object');
  }
  const key = await importSecret(secret);
  return toHex(await hmacSha256(key, signedPayload(String(timestamp), rawBodyBytes(body))));
}
