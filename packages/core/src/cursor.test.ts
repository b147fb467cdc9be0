import { describe, expect, it } from 'vitest';
import { createCursorCodec } from './cursor.js';
import { isSvcError } from './errors.js';

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
  } catch (error) {
    return isSvcError(error) ? `${error.code}:${error.field}` : 'other';
  }
  return undefined;
}

describe('pagination cursors', () => {
  const codec = createCursorCodec('0123456789abcdef-secret');

  it('round-trips numeric and string positions, opaque and URL-safe', async () => {
    const a = await codec.encode('messages:w:s', 42);
    expect(a).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(a).not.toContain('42');
    expect(await codec.decode('messages:w:s', a)).toBe(42);
    expect(await codec.decode('products:kb', await codec.encode('products:kb', 'prod_9'))).toBe('prod_9');
  });

  it('rejects cursors for another collection, tampered, truncated or from another secret', async () => {
    const cursor = await codec.encode('messages:w:s1', 10);
    const [payload, tag] = cursor.split('.') as [string, string];
    const forged = `${Buffer.from(JSON.stringify({ v: 1, p: 0 })).toString('base64url')}.${tag}`;
    const other = createCursorCodec('another-secret-of-16+chars');
    for (const bad of [
      () => codec.decode('messages:w:s2', cursor),
      () => codec.decode('messages:w:s1', forged),
      () => codec.decode('messages:w:s1', payload),
      () => codec.decode('messages:w:s1', `${cursor}.x`),
      () => codec.decode('messages:w:s1', '!!!.???'),
      () => other.decode('messages:w:s1', cursor),
    ]) {
      expect(await codeOf(bad())).toBe('invalid_cursor:cursor');
    }
  });

  it('refuses short secrets', () => {
    expect(() => createCursorCodec('short')).toThrow(/16/);
  });
});
