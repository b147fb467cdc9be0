/** The delivery headers of spec 6 and DESIGN.md section 5. */
export const CALLBACK_HEADERS = {
  signature: 'X-Svc-Signature',
  timestamp: 'X-Svc-Timestamp',
  event: 'X-Svc-Event',
  /** Stable across retries of one delivery (the timestamp and so the signature are fresh per attempt). */
  delivery: 'X-Svc-Delivery',
} as const;

/**
 * Request headers as frameworks hand them over: a web `Headers` (fetch, Next.js, Hono, workers) or a plain record
 * (Node's `req.headers`, lambdas), whose values may be arrays.
 */
export type CallbackHeaders =
  | Pick<Headers, 'get'>
  | Readonly<Record<string, string | readonly string[] | undefined>>;

function isHeadersLike(headers: CallbackHeaders): headers is Pick<Headers, 'get'> {
  // Duck-typed: `instanceof Headers` fails for undici's or a polyfill's class in another realm.
  return typeof (headers as { get?: unknown }).get === 'function';
}

/** A header's value, matched case-insensitively; the first of repeated values; `undefined` when absent or blank. */
export function readHeader(headers: CallbackHeaders, name: string): string | undefined {
  let value: string | readonly string[] | undefined | null;
  if (isHeadersLike(headers)) {
    value = headers.get(name);
  } else {
    const wanted = name.toLowerCase();
    const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === wanted);
    value = key === undefined ? undefined : headers[key];
  }
  const first = typeof value === 'string' ? value : value?.[0];
  const trimmed = first?.trim();
  return trimmed ? trimmed : undefined;
}
