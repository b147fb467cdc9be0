import { SvcError } from './errors.js';

/**
 * Opaque pagination cursors (DESIGN.md section 3): a versioned keyset position, bound to the collection it
 * pages, authenticated with HMAC-SHA256 so clients cannot forge positions or replay a cursor on another list.
 */
export interface CursorCodec {
  encode(collection: string, position: string | number): Promise<string>;
  /** Returns the position, or throws 400 `invalid_cursor`. */
  decode(collection: string, cursor: string): Promise<string | number>;
}

const VERSION = 1;
const MAC_BYTES = 16;
const encoder = new TextEncoder();

export function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function fromBase64url(text: string): Uint8Array {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new Error('not base64url');
  const padded = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function invalid(): SvcError {
  return new SvcError('invalid_cursor', 'cursor is not a cursor this server issued for this list; omit it to start from the first page', {
    field: 'cursor',
  });
}

export function createCursorCodec(secret: string): CursorCodec {
  if (secret.length < 16) throw new Error('The cursor secret must be at least 16 characters');
  const key = crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
    'verify',
  ]);

  const mac = async (collection: string, payload: string): Promise<Uint8Array> => {
    const signature = await crypto.subtle.sign('HMAC', await key, encoder.encode(`${collection}\n${payload}`));
    return new Uint8Array(signature).slice(0, MAC_BYTES);
  };

  return {
    async encode(collection, position) {
      const payload = base64url(encoder.encode(JSON.stringify({ v: VERSION, p: position })));
      return `${payload}.${base64url(await mac(collection, payload))}`;
    },
    async decode(collection, cursor) {
      const [payload, tag, extra] = cursor.split('.');
      if (!payload || !tag || extra !== undefined) throw invalid();
      let given: Uint8Array;
      try {
        given = fromBase64url(tag);
      } catch {
        throw invalid();
      }
      const expected = await mac(collection, payload);
      if (!timingSafeEqualBytes(given, expected)) throw invalid();
      try {
        const parsed = JSON.parse(new TextDecoder().decode(fromBase64url(payload))) as { v?: unknown; p?: unknown };
        if (parsed.v !== VERSION || (typeof parsed.p !== 'string' && typeof parsed.p !== 'number')) throw invalid();
        return parsed.p;
      } catch {
        throw invalid();
      }
    },
  };
}

/** Constant-time equality for byte strings: the time taken does not depend on where they differ. */
export function timingSafeEqualBytes(a: Uint8Array, b: Uint8Array): boolean {
  let diff = a.length ^ b.length;
  const length = Math.max(a.length, b.length);
  for (let i = 0; i < length; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}
