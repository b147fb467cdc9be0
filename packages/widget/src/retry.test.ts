import { describe, expect, it } from 'vitest';
import { ApiError } from './api.js';
import { later, RETRY_MAX_MS, toApiError, transient } from './retry.js';

describe('asking again', () => {
  it('waits 1 s, then twice as long each time, never more than 8 s', () => {
    const waits: number[] = [];
    for (let wait = 0, i = 0; i < 6; i++) waits.push((wait = later(wait)));
    expect(waits).toEqual([1000, 2000, 4000, 8000, 8000, 8000]);
    expect(RETRY_MAX_MS).toBe(8000);
  });

  it('asks again after no answer, a timeout, rate limiting or a server failure, never after another refusal', () => {
    for (const status of [0, 408, 429, 500, 502, 503]) expect(transient(status), String(status)).toBe(true);
    for (const status of [400, 401, 402, 403, 404, 409, 422]) expect(transient(status), String(status)).toBe(false);
  });

  it('treats a bug in the widget as a failure worth another try, and keeps the service’s own errors as they are', () => {
    const refused = new ApiError(409, 'session_not_active', 'Ended');
    expect(toApiError(refused)).toBe(refused);
    const bug = toApiError(new TypeError('x is undefined'));
    expect(bug).toMatchObject({ status: 500, code: 'client_error', message: 'TypeError: x is undefined' });
    expect(transient(bug.status)).toBe(true);
  });
});
