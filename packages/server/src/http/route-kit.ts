import type { ErrorCode, Scope } from '@svc/core';

/** What the public API's route groups share: the refusals each kind of endpoint can answer, and the scopes. */

// Failures shared by groups of endpoints (DESIGN.md section 4). Every key goes through the same checks, so a
// public (widget) key is refused from an origin it does not allow on any endpoint.
export const KEYED: ErrorCode[] = ['missing_api_key', 'invalid_api_key', 'insufficient_scope', 'origin_not_allowed', 'rate_limited', 'internal_error'];
/** Path ids are checked before anything else. */
export const PATH_IDS: ErrorCode[] = ['validation_failed'];
// A JSON body (PUT, POST); POSTs also take `Idempotency-Key`.
export const JSON_BODY: ErrorCode[] = ['invalid_json', 'validation_failed', 'payload_too_large', 'unsupported_media_type'];
export const JSON_POST: ErrorCode[] = [...JSON_BODY, 'idempotency_key_reused'];
// A public key's identity token that does not verify; a server key sending one is a 400 naming the header.
export const IDENTITY_TOKEN: ErrorCode[] = ['invalid_identity_token', 'validation_failed'];
// A public key is also refused on a session bound to another identity.
export const SESSION: ErrorCode[] = [...IDENTITY_TOKEN, 'widget_not_found', 'session_not_found', 'identity_mismatch', 'insufficient_credits'];
export const TURN: ErrorCode[] = ['identity_scope_required', 'invalid_identity', 'callback_not_configured', 'session_not_active', 'agent_unavailable'];
export const PAGE: ErrorCode[] = ['validation_failed', 'invalid_cursor', 'insufficient_credits'];

export const CHAT: readonly Scope[] = ['conversations:chat'];
export const KNOWLEDGE_READ: readonly Scope[] = ['knowledge:read', 'knowledge:write'];
export const KNOWLEDGE_WRITE: readonly Scope[] = ['knowledge:write'];
