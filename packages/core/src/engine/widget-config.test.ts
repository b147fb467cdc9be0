import { describe, expect, it } from 'vitest';
import type { Principal } from '../domain.js';
import { createEngineHarness, echoAgent } from '../testing/engine-harness.js';
import { makeAccount, makeWidget } from '../testing/fixtures.js';

describe('engine.getWidgetConfig', () => {
  it("answers a public key with its widget's name, greeting, language and theme, for free", async () => {
    const h = await createEngineHarness({ agent: echoAgent() });
    await h.store.updateWidget(h.widget.id, { theme: { primaryColor: '#0f766e' } });
    const publicKey: Principal = { ...h.principal, kind: 'public', widgetId: h.widget.id };
    expect(await h.engine.getWidgetConfig(publicKey)).toEqual({
      status: 200,
      data: { widgetId: h.widget.id, name: h.widget.name, greeting: h.widget.greeting, language: h.widget.language, theme: { primaryColor: '#0f766e' } },
      creditsConsumed: 0,
    });
  });

  it("refuses a server key (403) and reports a widget gone or of another account as missing (404)", async () => {
    const h = await createEngineHarness({ agent: echoAgent() });
    await expect(h.engine.getWidgetConfig(h.principal)).rejects.toMatchObject({ code: 'insufficient_scope', status: 403 });
    const other = makeAccount();
    const foreign = makeWidget({ accountId: other.id });
    await h.store.insertAccount(other);
    await h.store.insertWidget(foreign);
    await expect(h.engine.getWidgetConfig({ ...h.principal, kind: 'public', widgetId: foreign.id })).rejects.toMatchObject({ code: 'widget_not_found', status: 404 });
    await expect(h.engine.getWidgetConfig({ ...h.principal, kind: 'public', widgetId: 'wgt_gone' })).rejects.toMatchObject({ code: 'widget_not_found' });
  });
});
