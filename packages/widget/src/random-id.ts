/**
 * A random id of `bytes` bytes from the platform CSPRNG, hex encoded. Used for the generated visitorId (which must
 * be unguessable: spec 4.9) and for Idempotency-Key headers. Hex keeps it inside the visitorId alphabet.
 */
export function randomId(prefix: string, bytes = 16): string {
  const buffer = new Uint8Array(bytes);
  crypto.getRandomValues(buffer);
  let hex = '';
  for (const byte of buffer) hex += byte.toString(16).padStart(2, '0');
  return prefix + hex;
}
