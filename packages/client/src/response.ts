import { SvcApiError } from './errors.js';

/** A checked response: the envelope of spec 2.7 with the status and request id beside it. */
export interface RawResult {
  status: number;
  requestId: string | undefined;
  data: unknown;
  meta: unknown;
  pagination?: unknown;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Spec 2.7: `{ data, meta }`, plus an array `data` and `pagination` for lists. */
function isEnvelope(value: unknown, page: boolean): value is Record<string, unknown> {
  return isObject(value) && 'data' in value && isObject(value.meta) && (!page || (Array.isArray(value.data) && isObject(value.pagination)));
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Turns a received response into a result or a {@link SvcApiError}. The server's types are trusted once the
 * envelope is there: the client carries no schemas (they would put zod in every browser bundle).
 */
export function readResponse(response: { status: number; headers: Headers }, text: string, page: boolean): RawResult {
  const { status } = response;
  const requestId = response.headers.get('x-request-id') ?? undefined;
  const json = parse(text);
  const body = json === undefined ? text : json;
  if (status >= 200 && status < 300 && isEnvelope(json, page)) return { ...json, status, requestId } as RawResult;
  // The service's error body (DESIGN.md section 4): `{ error: { code, message, field? }, meta }`.
  const error = isObject(json) && isObject(json.error) ? json.error : {};
  const { code, message, field } = error;
  if (status >= 400 && typeof code === 'string' && typeof message === 'string') {
    throw new SvcApiError({ status, code, message, field: typeof field === 'string' ? field : undefined, requestId, body });
  }
  throw new SvcApiError({
    status,
    code: 'invalid_response',
    message: `Got ${status} without the service's JSON body; check baseUrl and any proxy in between.`,
    requestId,
    body,
  });
}
