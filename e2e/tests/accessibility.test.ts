import { operatorAdmin } from '@svc/server';
import { afterEach, describe, expect, it } from 'vitest';
import { VIEWPORTS } from '../support/browser.js';
import { audit } from '../support/axe.js';
import { useE2E } from '../support/setup.js';
import { openBubble, reply, sendMessage, widget } from '../support/widget.js';
import { ANY_ACCOUNT } from '@svc/core';

const env = useE2E();

const CASES = [
  { name: 'light, desktop', darkMode: 'light', viewport: VIEWPORTS.desktop },
  { name: 'dark, desktop', darkMode: 'dark', viewport: VIEWPORTS.desktop },
  { name: 'dark, phone', darkMode: 'dark', viewport: VIEWPORTS.phone },
] as const;

describe.each(CASES)('accessibility (axe-core, shadow DOM included): $name', ({ darkMode, viewport }) => {
  afterEach(() => operatorAdmin(env.service.store).setWidgetTheme(ANY_ACCOUNT, env.service.widget.id, {}));

  it('has no violations closed, open with replies, products and a form with a problem, and once ended', async () => {
    await operatorAdmin(env.service.store).setWidgetTheme(ANY_ACCOUNT, env.service.widget.id, { darkMode });
    const { page } = await env.visit(env.embed('/shop'), viewport);
    const w = widget(page);
    await w.launcher.waitFor();
    // The theme is applied (dark or not) before anything is judged.
    await expect.poll(() => page.locator('svc-chat-widget .root').evaluate((root) => root.classList.contains('dark'))).toBe(darkMode === 'dark');
    const closed = await audit(page);

    await openBubble(page);
    await sendMessage(page, 'Do you sell tents?');
    await reply(page, 1);
    await expect.poll(() => page.getByTestId('svc-product').count()).toBeGreaterThan(0);
    await sendMessage(page, 'talk to sales');
    await reply(page, 2);
    await w.id('svc-input-email').fill('nope');
    await w.id('svc-form-submit').click();
    await w.id('svc-error-email').waitFor();
    const open = await audit(page);

    await w.end.click();
    await w.rating.waitFor();
    const ended = await audit(page);

    expect({ closed, open, ended }, [...closed, ...open, ...ended].join('\n')).toEqual({ closed: [], open: [], ended: [] });
  });
});
