import { describe, expect, it, vi } from 'vitest';
import { failure, http, ok, useService, admin as url } from '../test-service.js';
import { admin } from './admin.js';
import { ApiError, setCsrfToken, whenSignedOut } from './client.js';

const service = useService();

describe('the admin API client', () => {
  it('sends the CSRF token from the sign-in answer on every write, and never on a read', async () => {
    service.use(
      http.post(url('/sessions'), () => ok({ operator: { id: 'op_1', email: 'a@b.c', name: 'A', role: 'owner', accountId: 'acc' }, csrfToken: 'tok-1' })),
      http.get(url('/widgets'), () => ok([])),
      http.put(url('/widgets/w1/theme'), () => ok({ id: 'w1' })),
      http.delete(url('/keys/key_1'), () => new Response(null, { status: 204 })),
    );
    setCsrfToken(null);
    const me = await admin.signIn('a@b.c', 'correct horse battery');
    setCsrfToken(me.csrfToken);
    await admin.widgets();
    await admin.setTheme('w1', { primaryColor: '#123456' });
    await admin.revokeKey('key_1');
    const [signIn, read, theme, revoke] = service.requests;
    expect(signIn!.headers.get('X-CSRF-Token')).toBeNull();
    expect(read!.headers.get('X-CSRF-Token')).toBeNull();
    expect(theme!.headers.get('X-CSRF-Token')).toBe('tok-1');
    expect(theme!.body).toEqual({ primaryColor: '#123456' });
    expect(revoke!.headers.get('X-CSRF-Token')).toBe('tok-1');
    // Nothing of the session is kept where a script could read it later.
    expect(localStorage.length).toBe(0);
    expect(sessionStorage.length).toBe(0);
  });

  it("turns an error answer into an ApiError with the service's code, message and field", async () => {
    service.use(http.post(url('/widgets'), () => failure(400, 'validation_failed', 'name must not be empty', 'name')));
    const error = await admin.createWidget({ name: '' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, code: 'validation_failed', message: 'name must not be empty', field: 'name' });
  });

  it('reports a lost session (401) so the console shows the sign-in, but not a failed sign-in itself', async () => {
    const signedOut = vi.fn();
    whenSignedOut(signedOut);
    service.use(
      http.get(url('/keys'), () => failure(401, 'unauthorized', 'Sign in again.')),
      http.post(url('/sessions'), () => failure(401, 'invalid_credentials', 'Wrong email or password.')),
    );
    await expect(admin.signIn('a@b.c', 'nope')).rejects.toMatchObject({ code: 'invalid_credentials' });
    expect(signedOut).not.toHaveBeenCalled();
    await expect(admin.keys()).rejects.toMatchObject({ status: 401 });
    expect(signedOut).toHaveBeenCalledOnce();
  });

  it('reads the next cursor of a list and sends the filters that are set, only', async () => {
    service.use(http.get(url('/conversations'), () => Response.json({ data: [{ sessionId: 's1' }], meta: { nextCursor: 'c2' } })));
    const first = await admin.conversations({ status: 'active', handoff: '', widgetId: undefined });
    expect(first).toEqual({ data: [{ sessionId: 's1' }], nextCursor: 'c2' });
    expect(service.requests[0]!.path).toBe('/admin/v1/conversations?status=active&limit=50');
  });
});
