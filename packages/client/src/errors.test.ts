import { delay, http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { isSvcApiError, SvcApiError } from './index.js';
import { meta, SESSION, WIDGET } from './testing/fixtures.js';
import { BASE_URL, testClient, useMockServer } from './testing/mock-server.js';

const { server, requests } = useMockServer();
const session = `${BASE_URL}/widgets/${WIDGET}/conversations/${SESSION}`;
const noRetry = () => testClient({ retry: false });

async function failure(promise: Promise<unknown>): Promise<SvcApiError> {
  const error = await promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (e: unknown) => e,
  );
  if (!isSvcApiError(error)) throw error;
  return error;
}

describe('SvcApiError', () => {
  it('carries status, code, field, requestId and body of a 4xx', async () => {
    const body = { error: { code: 'validation_failed', message: 'visitorContext.email: must be an email address', field: 'visitorContext.email' }, meta: meta(0) };
    server.use(http.post(`${BASE_URL}/widgets/${WIDGET}/conversations`, () => HttpResponse.json(body, { status: 400, headers: { 'X-Request-Id': 'req-42' } })));
    const error = await failure(noRetry().sessions.create(WIDGET, { visitorId: 'v', visitorContext: { email: 'x' } }));
    expect(error).toBeInstanceOf(SvcApiError);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('SvcApiError');
    expect({ ...error, message: error.message }).toEqual({
      name: 'SvcApiError',
      status: 400,
      code: 'validation_failed',
      field: 'visitorContext.email',
      requestId: 'req-42',
      body,
      message: 'visitorContext.email: must be an email address',
    });
  });

  it.each([
    [401, 'invalid_api_key'],
    [402, 'insufficient_credits'],
    [403, 'identity_scope_required'],
    [404, 'session_not_found'],
    [409, 'session_not_active'],
    [422, 'idempotency_key_reused'],
    [429, 'rate_limited'],
  ])('maps %i %s from the error body, without a field when none is named', async (status, code) => {
    server.use(http.get(session, () => HttpResponse.json({ error: { code, message: `it is ${code}` }, meta: meta(0) }, { status })));
    const error = await failure(noRetry().sessions.get(WIDGET, SESSION));
    expect(error).toMatchObject({ status, code, message: `it is ${code}`, field: undefined, requestId: undefined });
  });

  it('reports a 5xx error body as is', async () => {
    server.use(http.get(session, () => HttpResponse.json({ error: { code: 'internal_error', message: 'The server failed.' }, meta: meta(0) }, { status: 500 })));
    const error = await failure(noRetry().sessions.get(WIDGET, SESSION));
    expect(error).toMatchObject({ status: 500, code: 'internal_error' });
  });

  it('reports a 5xx without the service body (a proxy page) as invalid_response with the text', async () => {
    server.use(http.get(session, () => new HttpResponse('<html>Bad gateway</html>', { status: 502, headers: { 'Content-Type': 'text/html' } })));
    const error = await failure(noRetry().sessions.get(WIDGET, SESSION));
    expect(error).toMatchObject({ status: 502, code: 'invalid_response', body: '<html>Bad gateway</html>' });
    expect(error.message).toMatch(/502.*baseUrl/);
  });

  it('reports malformed JSON in a 200 as invalid_response', async () => {
    server.use(http.get(session, () => new HttpResponse('{"data": {', { status: 200, headers: { 'Content-Type': 'application/json' } })));
    const error = await failure(noRetry().sessions.get(WIDGET, SESSION));
    expect(error).toMatchObject({ status: 200, code: 'invalid_response', body: '{"data": {' });
  });

  it('reports JSON without the envelope, and a list without pagination, as invalid_response', async () => {
    server.use(
      http.get(session, () => HttpResponse.json({ sessionId: SESSION })),
      http.get(`${session}/messages`, () => HttpResponse.json({ data: [], meta: meta(1) })),
    );
    expect(await failure(noRetry().sessions.get(WIDGET, SESSION))).toMatchObject({ status: 200, code: 'invalid_response' });
    expect(await failure(noRetry().messages.list(WIDGET, SESSION))).toMatchObject({ status: 200, code: 'invalid_response' });
  });

  it('reports an unreachable server as network_error with status 0 and the cause', async () => {
    server.use(http.get(session, () => HttpResponse.error()));
    const error = await failure(noRetry().sessions.get(WIDGET, SESSION));
    expect(error).toMatchObject({ status: 0, code: 'network_error', requestId: undefined, body: undefined });
    expect(error.message).toMatch(new RegExp(`^GET /widgets/${WIDGET}/conversations/${SESSION}: could not reach the server`));
    expect(error.cause).toBeInstanceOf(Error);
  });

  it('reports a response slower than timeoutMs as timeout with status 0, and does not retry it', async () => {
    server.use(
      http.get(session, async () => {
        await delay(500);
        return HttpResponse.json({ data: {}, meta: meta(1) });
      }),
    );
    const started = Date.now();
    const error = await failure(testClient({ timeoutMs: 50 }).sessions.get(WIDGET, SESSION));
    expect(error).toMatchObject({ status: 0, code: 'timeout' });
    expect(error.message).toMatch(/no response within 50 ms/);
    expect(Date.now() - started).toBeLessThan(400);
    expect(requests).toHaveLength(1);
  });

  it('lets a call override the client timeout', async () => {
    server.use(
      http.get(session, async () => {
        await delay(100);
        return HttpResponse.json({ data: {}, meta: meta(1) });
      }),
    );
    const client = testClient({ timeoutMs: 20 });
    await expect(client.sessions.get(WIDGET, SESSION, { timeoutMs: 2000 })).resolves.toMatchObject({ status: 200 });
  });

  it("rejects with the caller's abort reason, not a SvcApiError, and does not retry", async () => {
    server.use(
      http.get(session, async () => {
        await delay(500);
        return HttpResponse.json({ data: {}, meta: meta(1) });
      }),
    );
    const controller = new AbortController();
    const call = testClient().sessions.get(WIDGET, SESSION, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('user left')), 20);
    await expect(call).rejects.toThrow('user left');
    expect(requests).toHaveLength(1);
    const aborted = AbortSignal.abort(new Error('already gone'));
    await expect(testClient().sessions.get(WIDGET, SESSION, { signal: aborted })).rejects.toThrow('already gone');
  });

  it('isSvcApiError recognises errors by brand, not by class', () => {
    expect(isSvcApiError(new SvcApiError({ status: 0, code: 'timeout', message: 'x' }))).toBe(true);
    expect(isSvcApiError({ name: 'SvcApiError', code: 'timeout', status: 0 })).toBe(true);
    expect(isSvcApiError(new Error('x'))).toBe(false);
    expect(isSvcApiError(null)).toBe(false);
  });
});
