import { ApiError } from './api.js';

/** Automatic retries while the service is unreachable: 1 s, doubling, at most this far apart. */
export const RETRY_MAX_MS = 8000;

/** A pause, never cancelled: whoever waits checks afterwards whether it should still go on. */
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The wait before the next try: 1 s, doubling up to `RETRY_MAX_MS` (the outbox and the event stream). */
export const later = (ms: number): number => Math.min(ms * 2 || 1000, RETRY_MAX_MS);

/** Whether asking again may help: no answer, a timeout, rate limited, a 5xx. Another 4xx will not change. */
export const transient = (status: number): boolean => !(status > 399 && status < 500) || status === 408 || status === 429;

/** Anything thrown, as an ApiError: a bug in the widget counts as a server-side failure (retry may help). */
export const toApiError = (error: unknown): ApiError => (error instanceof ApiError ? error : new ApiError(500, 'client_error', String(error)));
