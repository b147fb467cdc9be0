import { describe, expect, it } from 'vitest';
import { isSvcError, type SvcError } from '../errors.js';
import { createSessionRequestSchema } from './session.js';
import { sendMessageRequestSchema } from './message.js';
import { findUnstorableText, isStorableText, parseInput } from './validate.js';

function refusal(run: () => unknown): SvcError {
  try {
    run();
  } catch (error) {
    if (isSvcError(error)) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('parseInput', () => {
  it('reports a wrong type as a type error naming the field, not as "is required" (language: 42 read as missing)', () => {
    const error = refusal(() => parseInput(createSessionRequestSchema, { visitorId: 'v1', language: 42 }));
    expect(error.code).toBe('validation_failed');
    expect(error.field).toBe('language');
    expect(error.message).toBe('language must be a string');
  });

  it('still reports an absent required field as required', () => {
    const error = refusal(() => parseInput(createSessionRequestSchema, {}));
    expect(error.field).toBe('visitorId');
    expect(error.message).toBe('visitorId is required');
  });

  it('refuses an unknown top-level field by name (responseType was silently dropped and the call answered sync)', () => {
    const error = refusal(() => parseInput(sendMessageRequestSchema, { content: 'hi', responseType: 'callback' }));
    expect(error.code).toBe('validation_failed');
    expect(error.field).toBe('responseType');
    expect(error.message).toMatch(/responseType is not a field of this request/);
  });

  it('keeps accepting extra identity claims: the open object of the spec', () => {
    const parsed = parseInput(sendMessageRequestSchema, { content: 'hi', identity: { sub: 'u1', plan: 'pro', seats: 3 } });
    expect(parsed.identity).toEqual({ sub: 'u1', plan: 'pro', seats: 3 });
  });

  it.each([
    ['a NUL in content', { content: 'a\u0000b' }, 'content'],
    ['a NUL in visitorContext.name', { content: 'hi', visitorContext: { name: 'x\u0000' } }, 'visitorContext.name'],
    ['an unpaired high surrogate in visitorContext.company', { content: 'hi', visitorContext: { company: 'a\uD800' } }, 'visitorContext.company'],
    ['an unpaired low surrogate in an identity claim', { content: 'hi', identity: { sub: 'u', team: '\uDC00' } }, 'identity.team'],
    ['a NUL in an identity claim name', { content: 'hi', identity: { sub: 'u', ['k\u0000']: 1 } }, 'identity.k\u0000'],
  ])('refuses text PostgreSQL cannot store (it answered 500): %s', (_name, body, field) => {
    const error = refusal(() => parseInput(sendMessageRequestSchema, body));
    expect(error.status).toBe(400);
    expect(error.field).toBe(field);
    expect(error.message).toMatch(/NUL character or an unpaired UTF-16 surrogate/);
  });

  it('accepts paired surrogates (emoji) and ordinary text', () => {
    expect(isStorableText('ok 👍 é')).toBe(true);
    expect(findUnstorableText({ a: ['x', { b: '🎉' }] })).toBeUndefined();
    expect(findUnstorableText({ a: ['x', { b: '\uD83C' }] })).toEqual(['a', 1, 'b']);
  });
});
