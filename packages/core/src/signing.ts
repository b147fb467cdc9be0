import { timingSafeEqualBytes } from './cursor.js';

const encoder = new TextEncoder();

function hex(bytes: ArrayBuffer): string {
  return Array.from(new Uint8Array(bytes), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * The callback signature of spec 6: hex HMAC-SHA256, keyed with the UTF-8 bytes of the secret exactly as shown
 * to the user, over `${timestamp}.${rawBody}`.
 *
 * @example
 * const signature = await signCallback('whsec_…', 1767225600, '{"event":"message.completed"}');
 */
export async function signCallback(secret: string, timestamp: number | string, rawBody: string): Promise<string> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  return hex(await crypto.subtle.sign('HMAC', key, encoder.encode(`${timestamp}.${rawBody}`)));
}

/**
 * The Standard Webhooks signature (standardwebhooks.com, the scheme Svix's and the standard-webhooks libraries verify):
 * base64 HMAC-SHA256 over `${id}.${timestamp}.${rawBody}`, keyed with the base64-decoded part of the secret after
 * `whsec_`, sent as `webhook-signature: v1,<signature>`. Null for a secret whose part after `whsec_` is not base64
 * (endpoints created before secrets were base64): those verifiers could not decode it, so it signs only `X-Svc-Signature`.
 */
export async function signStandardWebhook(secret: string, message: { id: string; timestamp: number; rawBody: string }): Promise<string | null> {
  const encoded = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret;
  if (encoded.length === 0 || encoded.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) return null;
  const raw = Uint8Array.from(atob(encoded), (char) => char.charCodeAt(0));
  const key = await crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(`${message.id}.${message.timestamp}.${message.rawBody}`)));
  return `v1,${btoa(String.fromCharCode(...mac))}`;
}

/** Hex SHA-256, used to store API keys: the key itself is never stored. */
export async function sha256Hex(text: string): Promise<string> {
  return hex(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
}

/** Constant-time comparison of two strings (e.g. hex digests). */
export function timingSafeEqualStrings(a: string, b: string): boolean {
  return timingSafeEqualBytes(encoder.encode(a), encoder.encode(b));
}
