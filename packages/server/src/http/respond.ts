import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { toSvcError, type EngineResult, type PageResult } from '@svc/core';

/** The envelopes of spec 2.7. Every response carries `meta.creditsConsumed`, errors included (0). */

export function sendResult<T>(c: Context, result: EngineResult<T>): Response {
  return sendJson(c, { data: result.data, meta: { creditsConsumed: result.creditsConsumed } }, result.status);
}

export function sendPage<T>(c: Context, result: PageResult<T>): Response {
  return sendJson(c, { data: result.data, pagination: result.pagination, meta: { creditsConsumed: result.creditsConsumed } }, result.status);
}

/**
 * JSON with its length stated, so the compression middleware can leave a small body as it is without reading it
 * back (reading a response turns the adapter's string body into a web stream, per response).
 */
function sendJson(c: Context, value: unknown, status: EngineResult<unknown>['status']): Response {
  const body = JSON.stringify(value);
  return c.body(body, status as ContentfulStatusCode, { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) });
}

export function errorBody(error: unknown): { status: ContentfulStatusCode; body: unknown } {
  const svc = toSvcError(error);
  return { status: svc.status as ContentfulStatusCode, body: { error: svc.toJSON(), meta: { creditsConsumed: 0 } } };
}
