import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { toSvcError, type EngineResult, type PageResult, type SvcError } from '@svc/core';

/** The envelopes of spec 2.7. Every response carries `meta.creditsConsumed`, errors included (0). */

export function sendResult<T>(c: Context, result: EngineResult<T>): Response {
  return c.json({ data: result.data, meta: { creditsConsumed: result.creditsConsumed } }, result.status);
}

export function sendPage<T>(c: Context, result: PageResult<T>): Response {
  return c.json(
    { data: result.data, pagination: result.pagination, meta: { creditsConsumed: result.creditsConsumed } },
    result.status,
  );
}

/** An error response's body (spec 2.7). Typed, so the failed turn event written from it is checked against its schema. */
export interface ErrorBody {
  error: ReturnType<SvcError['toJSON']>;
  meta: { creditsConsumed: number };
}

export function errorBody(error: unknown): { status: ContentfulStatusCode; body: ErrorBody; retryAfterSeconds?: number } {
  const svc = toSvcError(error);
  return {
    status: svc.status as ContentfulStatusCode,
    body: { error: svc.toJSON(), meta: { creditsConsumed: 0 } },
    ...(svc.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: svc.retryAfterSeconds }),
  };
}
