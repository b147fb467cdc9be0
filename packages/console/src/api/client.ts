/**
 * The console's one way to the admin API (`/admin/v1`, DESIGN.md section 10). The operator's session is the HttpOnly
 * cookie the browser sends by itself; the CSRF token from the sign-in (or `/me`) answer lives in this module's
 * memory only, never in storage, and goes with every write as `X-CSRF-Token`.
 */

export const ADMIN = '/admin/v1';

/** An error answer (`{ error: { code, message, field? } }`), or status 0 when the service could not be reached. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

let csrfToken: string | null = null;
let onSignedOut: () => void = () => undefined;

export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

/** Called when an answer says the session is gone (401 on anything but the sign-in itself). */
export function whenSignedOut(listener: () => void): void {
  onSignedOut = listener;
}

export interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each caller reads its own view of the admin API's JSON (types.ts)
async function send(method: Method, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  // A form (a file upload) sets its own multipart type and boundary.
  const form = body instanceof FormData;
  if (body !== undefined && !form) headers['Content-Type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['X-CSRF-Token'] = csrfToken;
  let response: Response;
  try {
    response = await fetch(ADMIN + path, {
      method,
      headers,
      credentials: 'same-origin',
      ...(body === undefined ? {} : { body: form ? body : JSON.stringify(body) }),
    });
  } catch {
    throw new ApiError(0, 'unreachable', 'The service cannot be reached. Check your connection and try again.');
  }
  const json = response.status === 204 ? null : await response.json().catch(() => null);
  if (!response.ok) {
    const error = json?.error ?? {};
    if (response.status === 401 && path !== '/sessions') onSignedOut();
    throw new ApiError(response.status, error.code ?? 'error', error.message ?? `The service answered ${response.status}.`, error.field);
  }
  return { status: response.status, json };
}

/** The `data` of an answer. */
export async function call<T>(method: Method, path: string, body?: unknown): Promise<T> {
  return (await send(method, path, body)).json?.data as T;
}

/** Uploads one file as the multipart field `file`; the `data` of the answer. */
export async function upload<T>(path: string, file: File): Promise<T> {
  const form = new FormData();
  form.append('file', file, file.name);
  return (await send('POST', path, form)).json?.data as T;
}

/** One page of a list and the cursor of the next (`meta.nextCursor`, or the public API's `pagination.cursor`). */
export async function list<T>(path: string): Promise<Page<T>> {
  const { json } = await send('GET', path);
  const next = json?.meta?.nextCursor ?? (json?.pagination?.hasMore ? json.pagination.cursor : null) ?? null;
  return { data: (json?.data ?? []) as T[], nextCursor: next };
}

/** A query string of the set values only. */
export function query(params: Record<string, string | number | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined && value !== null && value !== '') search.set(name, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}

export const enc = encodeURIComponent;
