import type { Context, MiddlewareHandler } from 'hono';
import type { IncomingMessage } from 'node:http';
import { SvcError } from '@svc/core';
import { parse as parseYaml } from 'yaml';

/** DESIGN.md section 4: bodies over 64 KiB are refused. */
export const MAX_BODY_BYTES = 64 * 1024;

/**
 * How much of a refused body is still read (and discarded) so the keep-alive connection stays usable; a
 * sender of more gets its 413 with `Connection: close` instead of tying the server up.
 */
export const MAX_DRAIN_BYTES = 8 * 1024 * 1024;

function tooLarge(maxBytes: number): SvcError {
  const size = maxBytes >= 1024 * 1024 ? `${Math.floor(maxBytes / (1024 * 1024))} MB` : `${maxBytes / 1024} KiB`;
  return new SvcError('payload_too_large', `The request body exceeds ${size}.`);
}

export interface BodyLimit {
  /** Default {@link MAX_BODY_BYTES}. */
  maxBytes?: number;
  /** Keep the body as bytes only (uploads): it is decoded as text only if something asks for it. Default false. */
  binary?: boolean;
}

/** A request body read chunk by chunk: `null` at its end. */
interface BodyChunks {
  next(): Promise<Uint8Array | null>;
}

/**
 * On Node (@hono/node-server puts the `IncomingMessage` in `c.env.incoming`) the body is read off Node's stream
 * itself: asking the `Request` for its body wraps that stream in a web stream, which costs a small request more
 * than everything else it goes through. Elsewhere (Bun, Deno, workers, `app.request` in tests) the `Request`'s body.
 */
function bodyChunks(c: Context): BodyChunks | null {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (incoming && !incoming.readableDidRead && !incoming.destroyed) {
    const chunks = incoming[Symbol.asyncIterator]();
    return {
      next: async () => {
        const { done, value } = (await chunks.next()) as IteratorResult<Buffer>;
        return done ? null : value;
      },
    };
  }
  const stream = c.req.raw.body;
  if (!stream) return null;
  const reader = stream.getReader();
  return {
    next: async () => {
      const { done, value } = await reader.read();
      return done ? null : value;
    },
  };
}

/** Reads and discards the rest of a body, up to `budget` bytes; true when it ended within it. */
async function drain(body: BodyChunks, budget: number): Promise<boolean> {
  let read = 0;
  for (let chunk = await body.next(); chunk; chunk = await body.next()) {
    read += chunk.byteLength;
    // Left unread rather than cancelled: cancelling would destroy the socket before the 413 is written; the HTTP
    // server closes the connection after the answer.
    if (read > budget) return false;
  }
  return true;
}

/**
 * Bodies over {@link MAX_BODY_BYTES} (or the route's own limit) answer 413 with the JSON error body. The body is read while it is
 * counted (a missing or lying Content-Length changes nothing), and a refused one is drained rather than left
 * unread: Node would otherwise close the keep-alive connection and lose the client's next request on it.
 */
export function limitBody(limit: BodyLimit = {}): MiddlewareHandler {
  const maxBytes = limit.maxBytes ?? MAX_BODY_BYTES;
  return async (c, next) => {
    const body = bodyChunks(c);
    if (!body) return next();
    const declared = Number(c.req.header('content-length'));
    const chunks: Uint8Array[] = [];
    let size = 0;
    let over = Number.isFinite(declared) && declared > maxBytes;
    while (!over) {
      const chunk = await body.next();
      if (!chunk) break;
      size += chunk.byteLength;
      chunks.push(chunk);
      over = size > maxBytes;
    }
    if (over) {
      // A body declared far larger than the limit is not waited for: the answer goes out at once and the connection
      // closes after it (the client may still be sending; the rest is never read).
      const farOver = Number.isFinite(declared) && declared - size > MAX_DRAIN_BYTES;
      if (farOver || !(await drain(body, MAX_DRAIN_BYTES))) c.header('Connection', 'close');
      throw tooLarge(maxBytes);
    }
    const bytes = new Uint8Array(size);
    let offset = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, offset);
      offset += chunk.byteLength;
    }
    // Every later reader (JSON parsing, the idempotency hash) reads these bytes through Hono's body cache.
    const cache = c.req.bodyCache as { arrayBuffer?: Promise<ArrayBuffer>; text?: Promise<string> };
    cache.arrayBuffer = Promise.resolve(bytes.buffer);
    if (!limit.binary) cache.text = Promise.resolve(new TextDecoder().decode(bytes));
    await next();
  };
}

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
  const tooDeep = firstTooDeep(parsed);
  if (tooDeep !== null) {
    throw new SvcError('validation_failed', `${tooDeep} is nested more than ${MAX_JSON_DEPTH} levels deep.`, { field: tooDeep });
  }
  return parsed as Record<string, unknown>;
}

/**
 * How deep a body's objects and arrays may nest. No field of the API needs more than a few levels; validating a value
 * nested thousands deep recursed until the stack ran out (a 500 after up to a second of CPU), so it is refused first.
 */
export const MAX_JSON_DEPTH = 32;

/** The path (`visitorContext.a.b`) of the first value nested deeper than {@link MAX_JSON_DEPTH}, or null. Iterative. */
function firstTooDeep(root: object): string | null {
  const stack: { value: unknown; path: string[] }[] = [{ value: root, path: [] }];
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    // Named like validation errors name a field: `visitorContext.a.0.b`.
    if (path.length > MAX_JSON_DEPTH) return path.slice(0, MAX_JSON_DEPTH + 1).join('.');
    for (const [key, child] of Object.entries(value)) {
      if (typeof child === 'object' && child !== null) stack.push({ value: child, path: [...path, key] });
    }
  }
  return null;
}

function isYamlMediaType(header: string | undefined): boolean {
  const type = header?.split(';')[0]!.trim().toLowerCase();
  return type === 'application/yaml' || type === 'application/x-yaml' || type === 'text/yaml' || type === 'text/x-yaml';
}

/**
 * A required body sent as JSON, or as YAML (`Content-Type: application/yaml`: an eval suite as its file is written),
 * parsed by the `yaml` package into the same object; aliases are bounded so a small body cannot expand into a huge one.
 */
export async function readJsonOrYamlBody(c: Context): Promise<Record<string, unknown>> {
  if (!isYamlMediaType(c.req.header('content-type'))) return readRequiredJsonBody(c);
  const text = await c.req.text();
  let parsed: unknown;
  try {
    parsed = parseYaml(text, { maxAliasCount: 100 });
  } catch (error) {
    throw new SvcError('validation_failed', `The request body is not valid YAML: ${(error as Error).message}`, { field: 'body' });
  }
  if (parsed === null || parsed === undefined) return {};
  if (typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new SvcError('validation_failed', 'The request body must be a YAML mapping (an object).', { field: 'body' });
  }
  const tooDeep = firstTooDeep(parsed);
  if (tooDeep !== null) {
    throw new SvcError('validation_failed', `${tooDeep} is nested more than ${MAX_JSON_DEPTH} levels deep.`, { field: tooDeep });
  }
  return parsed as Record<string, unknown>;
}

/** For endpoints whose body is required: an absent body is validated as `{}` so the error names the first field. */
export async function readRequiredJsonBody(c: Context): Promise<Record<string, unknown>> {
  return (await readJsonBody(c)) ?? {};
}
