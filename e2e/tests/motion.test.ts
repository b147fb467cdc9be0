import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { VIEWPORTS } from '../support/browser.js';
import { useE2E } from '../support/setup.js';
import { widget } from '../support/widget.js';

// Issue 12: the bubble's panel opens and closes with a fade that respects `prefers-reduced-motion`, in real Chromium.
const env = useE2E();

/** Clicks the launcher and reads the panel in the same task: what the first frame after the click shows. */
const toggle = (page: Page) =>
  page.evaluate(() => {
    const root = document.querySelector('svc-chat-widget')!.shadowRoot!;
    (root.querySelector('[data-testid="svc-launcher"]') as HTMLElement).click();
    const panel = root.querySelector('[data-testid="svc-panel"]')!;
    return { opacity: getComputedStyle(panel).opacity, animations: panel.getAnimations().length };
  });

describe('the panel opening and closing', () => {
  it('fades in and out, unless the visitor asked for less motion: then it is simply there', async () => {
    const { page } = await env.visit(env.embed('/motion'), VIEWPORTS.desktop);
    const w = widget(page);
    await w.launcher.waitFor();
    await page.waitForFunction(() => document.querySelector('svc-chat-widget')?.shadowRoot?.querySelector('[data-testid="svc-panel"]'));

    // Reduced motion (what the test browser asks for by default): fully visible at once, nothing animating.
    expect(await toggle(page)).toEqual({ opacity: '1', animations: 0 });
    await w.id('svc-close').click();
    await w.panel.waitFor({ state: 'hidden' });

    await page.emulateMedia({ reducedMotion: 'no-preference' });
    const opening = await toggle(page);
    expect(opening.animations).toBeGreaterThan(0);
    expect(Number(opening.opacity)).toBeLessThan(1);
    await expect.poll(() => w.panel.evaluate((panel) => getComputedStyle(panel).opacity)).toBe('1');
    // Closing fades out too: the panel stays on screen while it does, then is gone.
    expect((await toggle(page)).animations).toBeGreaterThan(0);
    await w.panel.waitFor({ state: 'hidden' });
  });
});
