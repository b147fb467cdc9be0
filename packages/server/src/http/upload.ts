import type { Context } from 'hono';
import { SvcError } from '@svc/core';

/**
 * File uploads (`multipart/form-data`, DESIGN.md section 11 "Sources"): the body is counted and capped by
 * `limitBody` before it is parsed (a larger one is a 413 without being read whole), then parsed once here.
 */

/** The largest file an upload may carry: 20 MB. */
export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;
/** What the multipart framing around the file may add (boundaries, part headers, a few small fields). */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

export interface UploadSpec {
  /** The form field that carries the file. */
  field: string;
  maxBytes: number;
}

/** A file as the request carried it. */
export interface UploadedPart {
  /** The file name the client gave (its last path segment), or the field name when it gave none. */
  name: string;
  /** The type the client declared; the bytes decide, never this. */
  declaredType: string;
  bytes: Uint8Array;
}

const forms = new WeakMap<Request, Promise<FormData>>();

function isMultipart(c: Context): boolean {
  return /^multipart\/form-data\s*;/i.test(c.req.header('content-type') ?? '') && /boundary=/i.test(c.req.header('content-type') ?? '');
}

/** The parsed form, once per request (the idempotency check and the route both read it). */
function form(c: Context): Promise<FormData> {
  let parsed = forms.get(c.req.raw);
  if (!parsed) {
    parsed = c.req.formData().catch((error: unknown) => {
      throw new SvcError('validation_failed', `The body is not valid multipart/form-data: ${(error as Error).message}`, { field: 'body' });
    });
    forms.set(c.req.raw, parsed);
  }
  return parsed;
}

/**
 * The one file of an upload: 415 for a body that is not `multipart/form-data`, 400 naming the field when it is
 * missing (or is text rather than a file), 413 when the file alone is over the limit.
 */
export async function readUpload(c: Context, spec: UploadSpec): Promise<UploadedPart> {
  if (!isMultipart(c)) {
    throw new SvcError('unsupported_media_type', `Send the file as multipart/form-data with the file in the field "${spec.field}".`);
  }
  const value = (await form(c)).get(spec.field);
  if (value === null || typeof value === 'string') {
    throw new SvcError('validation_failed', `${spec.field} is required: a file in the multipart field "${spec.field}".`, { field: spec.field });
  }
  if (value.size > spec.maxBytes) {
    throw new SvcError('payload_too_large', `The file exceeds ${Math.floor(spec.maxBytes / (1024 * 1024))} MB.`);
  }
  const name = value.name.split(/[\\/]/).at(-1)?.trim() || spec.field;
  return { name: name.slice(0, 255), declaredType: value.type, bytes: new Uint8Array(await value.arrayBuffer()) };
}

/**
 * What identifies a multipart body for `Idempotency-Key`: its fields and files, not its bytes, since a client that
 * retries builds a new boundary each time. Undefined for any other body.
 */
export async function multipartDigest(c: Context): Promise<string | undefined> {
  if (!isMultipart(c)) return undefined;
  const parts: string[] = [];
  let entries: [string, FormDataEntryValue][];
  try {
    entries = [...(await form(c)).entries()];
  } catch {
    // Unparsable: the route refuses it; the raw bytes stand for it meanwhile.
    return hex(await crypto.subtle.digest('SHA-256', await c.req.arrayBuffer()));
  }
  for (const [name, value] of entries) {
    parts.push(typeof value === 'string' ? `${name}=${value}` : `${name}@${value.name}:${hex(await crypto.subtle.digest('SHA-256', await value.arrayBuffer()))}`);
  }
  return hex(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(JSON.stringify(parts))));
}

const hex = (buffer: ArrayBuffer): string => [...new Uint8Array(buffer)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
