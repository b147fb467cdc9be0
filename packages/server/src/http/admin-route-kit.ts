import type { EngineResult, ErrorCode, OperatorRole } from '@svc/core';
import type { Route } from './routes.js';

/**
 * What every admin route shares (DESIGN.md section 10): the path prefix, the refusals every route can answer, the
 * roles, and the envelope of an answer. Admin answers are free: `meta.creditsConsumed` is 0.
 */

export const V1 = '/admin/v1';

// Every admin route can refuse the caller (no or bad credentials, a key without `admin`, a cookie write without
// its CSRF token, a role that may not) and is counted by the per-address request limit.
export const ADMIN: ErrorCode[] = ['authentication_required', 'invalid_api_key', 'insufficient_scope', 'csrf_failed', 'insufficient_role', 'rate_limited', 'internal_error'];
export const BODY: ErrorCode[] = ['invalid_json', 'validation_failed', 'payload_too_large', 'unsupported_media_type'];

export const OWNER: readonly OperatorRole[] = ['owner'];
/** Conversations and handoff: every operator's work. */
export const ANY_OPERATOR: readonly OperatorRole[] = ['owner', 'agent'];

export const ok = <T>(data: T, status: 200 | 201 = 200): EngineResult<T> => ({ status, data, creditsConsumed: 0 });

/** Optional fields a body or query left out, dropped (core's inputs take absent, not undefined). */
export const definedOnly = <T extends object>(input: T): { [K in keyof T]?: Exclude<T[K], undefined> } =>
  Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };

export const noContent: Route['responses'] = { 204: { description: 'Done; no body.' } };
