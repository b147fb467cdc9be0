import type { z } from 'zod';
import { SvcError } from '../errors.js';

function fieldPath(path: readonly PropertyKey[]): string {
  return path.map((part) => String(part)).join('.');
}

/**
 * Parses `input` with `schema` or throws a 400 naming the first offending field. Problems inside `identity`
 * are `invalid_identity` (spec 5.3.3: the error names the identity field); the rest `validation_failed`.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, prefix = ''): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = [prefix, fieldPath(issue.path)].filter(Boolean).join('.') || undefined;
  const isIdentity = field === 'identity' || field?.startsWith('identity.') === true;
  const message = issue.code === 'invalid_type' && issue.input === undefined && field
    ? `${field} is required`
    : issue.message;
  const detail = field && !message.includes(field.split('.').at(-1)!) ? `${field}: ${message}` : message;
  throw new SvcError(isIdentity ? 'invalid_identity' : 'validation_failed', detail, field === undefined ? {} : { field });
}
