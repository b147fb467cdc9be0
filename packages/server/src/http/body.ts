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

function tooLarge(): SvcError {
  return new SvcError('payload_too_large', `The request body exceeds ${MAX_BODY_BYTES / 1024} KiB.`);
}

/** A request body read chunk by chunk: `null` at its end. */
interface BodyChunks {
  next(): Promise<Uint8Array | null>;
  /** Stops reading; what was not read is discarded (the connection then cannot be reused). */
  cancel(): Promise<void>;
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
      cancel: async () => {
        await chunks.return?.();
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
    cancel: () => reader.cancel().catch(() => {}),
  };
}

/** Reads and discards the rest of a body, up to `budget` bytes; true when it ended within it. */
async function drain(body: BodyChunks, budget: number): Promise<boolean> {
  let read = 0;
  for (let chunk = await body.next(); chunk; chunk = await body.next()) {
    read += chunk.byteLength;
    if (read > budget) {
      await body.cancel();
      return false;
    }
  }
  return true;
}

/**
 * Bodies over {@link MAX_BODY_BYTES} answer 413 with the JSON error body. The body is read while it is
 * counted (a missing or lying Content-Length changes nothing), and a refused one is drained rather than left
 * unread: Node would otherwise close the keep-alive connection and lose the client's next request on it.
 */
export function limitBody(): MiddlewareHandler {
  return async (c, next) => {
    const body = bodyChunks(c);
    if (!body) return next();
    const declared = Number(c.req.header('content-length'));
    const chunks: Uint8Array[] = [];
    let size = 0;
    let over = Number.isFinite(declared) && declared > MAX_BODY_BYTES;
    while (!over) {
      const chunk = await body.next();
      if (!chunk) break;
      size += chunk.byteLength;
      chunks.push(chunk);
      over = size > MAX_BODY_BYTES;
    }
    if (over) {
      if (!(await drain(body, MAX_DRAIN_BYTES))) c.header('Connection', 'close');
      throw tooLarge();
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
    cache.text = Promise.resolve(new TextDecoder().decode(bytes));
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
  return parsed as Record<string, unknown>;
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
  return parsed as Record<string, unknown>;
}

/** For endpoints whose body is required: an absent body is validated as `{}` so the error names the first field. */
export async function readRequiredJsonBody(c: Context): Promise<Record<string, unknown>> {
  return (await readJsonBody(c)) ?? {};
}
