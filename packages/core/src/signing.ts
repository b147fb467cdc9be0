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

/** Hex SHA-256, used to store API keys: the key itself is never stored. */
export async function sha256Hex(text: string): Promise<string> {
  return hex(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
}

/** Constant-time comparison of two strings (e.g. hex digests). */
export function timingSafeEqualStrings(a: string, b: string): boolean {
  return timingSafeEqualBytes(encoder.encode(a), encoder.encode(b));
}
