import type { z } from 'zod';
import { SvcError } from '../errors.js';

function fieldPath(path: readonly PropertyKey[]): string {
  return path.map((part) => String(part)).join('.');
}

/** A lone UTF-16 surrogate, or NUL: text PostgreSQL refuses to store (`text` has no NUL; UTF-8 has no surrogates). */
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when PostgreSQL can store the string as text: no NUL byte, no unpaired surrogate. */
export function isStorableText(value: string): boolean {
  return !UNSTORABLE.test(value);
}

/**
 * The path of the first string in `value` (object keys included) that PostgreSQL cannot store, or undefined.
 * One walk over the whole input instead of a refinement on every string schema: no field can be forgotten,
 * and members that schemas leave open (identity claims, answers) are covered too.
 */
export function findUnstorableText(value: unknown, path: PropertyKey[] = []): PropertyKey[] | undefined {
  if (typeof value === 'string') return isStorableText(value) ? undefined : path;
  if (typeof value !== 'object' || value === null) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnstorableText(value[i], [...path, i]);
      if (found) return found;
    }
    return undefined;
  }
  for (const [key, member] of Object.entries(value)) {
    if (!isStorableText(key)) return [...path, key];
    const found = findUnstorableText(member, [...path, key]);
    if (found) return found;
  }
  return undefined;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const part of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[part];
  }
  return value;
}

function refuse(field: string | undefined, message: string): never {
  const isIdentity = field === 'identity' || field?.startsWith('identity.') === true;
  const detail = field && !message.includes(field.split('.').at(-1)!) ? `${field}: ${message}` : message;
  throw new SvcError(isIdentity ? 'invalid_identity' : 'validation_failed', detail, field === undefined ? {} : { field });
}

/**
 * Parses `input` with `schema` or throws a 400 naming the first offending field. Problems inside `identity`
 * are `invalid_identity` (spec 5.3.3: the error names the identity field); the rest `validation_failed`.
 * Text PostgreSQL cannot store (NUL, unpaired surrogates) is refused here, before any schema or store sees it.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, prefix = ''): z.output<S> {
  const join = (path: readonly PropertyKey[]): string | undefined => [prefix, fieldPath(path)].filter(Boolean).join('.') || undefined;
  const unstorable = findUnstorableText(input);
  if (unstorable) {
    const field = join(unstorable);
    refuse(field, `${field ?? 'the input'} contains a NUL character or an unpaired UTF-16 surrogate, which cannot be stored`);
  }
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  if (issue.code === 'unrecognized_keys') {
    // Strict request bodies: a typo such as `responseType` must not silently do something else.
    const field = join([...issue.path, issue.keys[0]!])!;
    refuse(field, `${field} is not a field of this request${issue.keys.length > 1 ? ` (nor are ${issue.keys.slice(1).join(', ')})` : ''}`);
  }
  const field = join(issue.path);
  // zod 4 leaves `issue.input` out unless asked, so whether the field is absent is read from the input itself:
  // only an absent one is "required"; one of the wrong type keeps the schema's own message ("must be a string").
  const missing = issue.code === 'invalid_type' && field !== undefined && valueAt(input, issue.path) === undefined;
  refuse(field, missing ? `${field} is required` : issue.message);
}
