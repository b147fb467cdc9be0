import type { MiddlewareHandler } from 'hono';
import { SvcError, type Store } from '@svc/core';
import { widgetIdSchema } from '@svc/core/schemas';
import type { AppEnv } from './auth.js';

// Last-Event-ID: a widget resuming its session event stream (fetch, not EventSource, since it sends X-API-Key).
const ALLOWED_HEADERS = 'Content-Type, X-API-Key, X-Identity-Token, Idempotency-Key, Last-Event-ID';
const EXPOSED_HEADERS = 'X-Request-Id, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Idempotent-Replayed';

/** The widget id in a `/widgets/{id}/…` path: undefined when there is none, null when it cannot be decoded. */
function pathWidgetId(path: string): string | undefined | null {
  const raw = /^\/widgets\/([^/]+)/.exec(path)?.[1];
  if (raw === undefined) return undefined;
  try {
    const id = decodeURIComponent(raw);
    // An id that breaks the id rules (NUL, lone surrogates, wrong shape) names no widget, and never reaches a query.
    return widgetIdSchema.safeParse(id).success ? id : null;
  } catch {
    return null; // malformed escapes name no widget
  }
}

/**
 * CORS for the widget's public keys (DESIGN.md section 4): only the origins a key allows may read responses.
 * A preflight carries no key, so it is answered from the origins of the public keys of the widget in the path
 * (any public key for paths without a widget); the real request is then checked against its own key.
 */
export function cors(store: Store): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const origin = c.req.header('origin');
    if (c.req.method === 'OPTIONS' && origin && c.req.header('access-control-request-method')) {
      const widgetId = pathWidgetId(c.req.path);
      // One indexed lookup, whatever the number of keys and tenants (the first version loaded every key).
      if (widgetId === null || !(await store.publicKeyAllowsOrigin(origin, widgetId))) {
        throw new SvcError('origin_not_allowed', `Origin ${origin} is not allowed to call this API.`);
      }
      return c.body(null, 204, {
        'Access-Control-Allow-Origin': origin,
        'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
        'Access-Control-Allow-Headers': ALLOWED_HEADERS,
        'Access-Control-Max-Age': '600',
        Vary: 'Origin',
      });
    }
    await next();
    // A 401 (a mistyped or revoked pk_live_ key) or 429 refused before any key was resolved carries no account's
    // data; when a live public key allows the origin (one indexed lookup), the widget may read why instead of
    // seeing a network error. Other origins learn nothing.
    const refusedEarly = (c.res.status === 401 || c.res.status === 429) && !c.get('principal');
    const allowed = c.get('corsOrigin') ?? (origin && refusedEarly && (await store.publicKeyAllowsOrigin(origin)) ? origin : undefined);
    if (allowed) {
      c.res.headers.set('Access-Control-Allow-Origin', allowed);
      c.res.headers.set('Access-Control-Expose-Headers', EXPOSED_HEADERS);
      c.res.headers.append('Vary', 'Origin');
    }
  };
}
