import type { Context } from 'hono';
import { SvcError } from '@svc/core';

/** DESIGN.md section 4: bodies over 64 KiB are refused. */
export const MAX_BODY_BYTES = 64 * 1024;

function isJsonMediaType(header: string | undefined): boolean {
  if (!header) return false;
  const type = header.split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

/**
 * Reads a JSON object body. An empty body is `undefined` (the endpoint decides whether that is allowed);
 * anything else must be declared `application/json` (415), parse (400 `invalid_json`) and be an object.
 */
export async function readJsonBody(c: Context): Promise<Record<string, unknown> | undefined> {
  const text = await c.req.text();
  if (text.trim() === '') return undefined;
  if (!isJsonMediaType(c.req.header('content-type'))) {
    throw new SvcError('unsupported_media_type', 'Send the body as JSON with the header "Content-Type: application/json".');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new SvcError('invalid_json', `The request body is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new SvcError('validation_failed', 'The request body must be a JSON object.', { field: 'body' });
  }
  return parsed as Record<string, unknown>;
}

/** For endpoints whose body is required: an absent body is validated as `{}` so the error names the first field. */
export async function readRequiredJsonBody(c: Context): Promise<Record<string, unknown>> {
  return (await readJsonBody(c)) ?? {};
}
