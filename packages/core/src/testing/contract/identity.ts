import { expect, it } from 'vitest';
import type { IdentitySecret } from '../../domain.js';
import type { Store } from '../../store/store.js';
import { at, makeSession, makeWidget } from '../fixtures.js';

export function identityContract(store: () => Store): void {
  const current: IdentitySecret = { secret: 'idsec_current_2f9c', createdAt: at(100), retiresAt: null };
  const retiring: IdentitySecret = { secret: 'idsec_previous_81ab', createdAt: at(0), retiresAt: at(86_500) };

  it("round-trips a widget's identity secrets, newest first, with their instants", async () => {
    const widget = makeWidget({ identitySecrets: [current, retiring] });
    await store().insertWidget(widget);
    const stored = await store().getWidget(widget.id);
    expect(stored).toEqual(widget);
    expect(stored?.identitySecrets[0]?.createdAt).toBeInstanceOf(Date);
    expect(stored?.identitySecrets[1]?.retiresAt).toBeInstanceOf(Date);
    expect(await store().listWidgets(widget.accountId)).toEqual([widget]);
  });

  it('patches identity secrets: the first, a rotation, then none; other patches leave them alone', async () => {
    const widget = makeWidget();
    await store().insertWidget(widget);
    expect((await store().getWidget(widget.id))?.identitySecrets).toEqual([]);

    const first: IdentitySecret = { ...retiring, retiresAt: null };
    expect(await store().updateWidget(widget.id, { identitySecrets: [first] })).toBe(true);
    expect(await store().getWidget(widget.id)).toEqual({ ...widget, identitySecrets: [first] });

    expect(await store().updateWidget(widget.id, { identitySecrets: [current, retiring] })).toBe(true);
    expect(await store().updateWidget(widget.id, { name: 'Renamed', identitySecrets: undefined })).toBe(true);
    expect(await store().getWidget(widget.id)).toEqual({ ...widget, name: 'Renamed', identitySecrets: [current, retiring] });

    expect(await store().updateWidget(widget.id, { identitySecrets: [] })).toBe(true);
    expect((await store().getWidget(widget.id))?.identitySecrets).toEqual([]);
  });

  it('round-trips the verified sub a session is bound to', async () => {
    const bound = makeSession({ identitySub: 'auth0|65f1c2e4' });
    const anonymous = makeSession();
    for (const session of [bound, anonymous]) await store().insertSession(session);
    expect(await store().getSession(bound.widgetId, bound.id)).toEqual(bound);
    expect(await store().getSession(anonymous.widgetId, anonymous.id)).toEqual({ ...anonymous, identitySub: null });
  });

  it("binds, keeps and unbinds a session's sub through patches", async () => {
    const session = makeSession();
    await store().insertSession(session);
    expect(await store().updateSession(session.widgetId, session.id, { identitySub: 'user-7' })).toEqual({ ...session, identitySub: 'user-7' });
    expect(await store().updateSession(session.widgetId, session.id, { messageCount: 2, identitySub: undefined })).toEqual({
      ...session,
      messageCount: 2,
      identitySub: 'user-7',
    });
    expect(await store().updateSession(session.widgetId, session.id, { identitySub: null })).toEqual({ ...session, messageCount: 2 });
    expect(await store().getSession(session.widgetId, session.id)).toEqual({ ...session, messageCount: 2, identitySub: null });
  });
}
