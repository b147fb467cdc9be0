import { describe, expect, it } from 'vitest';
import { VIEWPORTS } from '../support/browser.js';
import { useE2E } from '../support/setup.js';
import { openBubble, widget } from '../support/widget.js';

// Issue 12, defect 4: the full-screen panel on a 390×844 touch phone.
const env = useE2E();
const TALL_PAGE = 'body { margin: 0; font-family: sans-serif; } main { height: 4000px; }';

describe('on a 390×844 touch phone', () => {
  it('the panel fills the screen, the page behind stays put, no keyboard pops up, fields use 16 px text', async () => {
    const { page } = await env.visit(env.embed('/phone', { css: TALL_PAGE, script: "addEventListener('DOMContentLoaded', () => document.body.append(Object.assign(document.createElement('main'))));" }), VIEWPORTS.phone);
    const w = widget(page);
    await page.evaluate(() => window.scrollTo(0, 300));
    await w.launcher.tap();
    await w.panel.waitFor({ state: 'visible' });
    expect(await w.panel.boundingBox()).toEqual({ x: 0, y: 0, width: 390, height: 844 });

    // Swiping over the panel's header scrolls nothing behind it.
    await page.mouse.move(195, 30);
    await page.mouse.wheel(0, 800);
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => window.scrollY)).toBe(300);
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).toBe('hidden');

    // Focus went to the panel, not the input: no on-screen keyboard over the conversation.
    const focused = await page.evaluate(() => document.querySelector('svc-chat-widget')!.shadowRoot!.activeElement?.getAttribute('data-testid'));
    expect(focused).toBe('svc-panel');
    expect(await w.input.evaluate((input) => getComputedStyle(input).fontSize)).toBe('16px');

    // The keyboard opens (the visual viewport shrinks to 500 px): the panel follows, the composer stays in sight.
    await page.evaluate(() => {
      Object.defineProperty(window.visualViewport!, 'height', { configurable: true, get: () => 500 });
      window.visualViewport!.dispatchEvent(new Event('resize'));
    });
    await expect.poll(async () => (await w.panel.boundingBox())?.height).toBe(500);
    const composer = await page.getByTestId('svc-input').boundingBox();
    expect(composer!.y + composer!.height).toBeLessThanOrEqual(500);

    await w.id('svc-close').tap();
    await w.panel.waitFor({ state: 'hidden' });
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).toBe('visible');
    expect(await page.evaluate(() => window.scrollY)).toBe(300);
  });
});

describe('on a desktop', () => {
  it('the panel is a floating window: the page still scrolls, the input takes focus', async () => {
    const { page } = await env.visit(env.embed('/desk', { css: TALL_PAGE }), VIEWPORTS.desktop);
    await openBubble(page);
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).toBe('visible');
    const focused = await page.evaluate(() => document.querySelector('svc-chat-widget')!.shadowRoot!.activeElement?.getAttribute('data-testid'));
    expect(focused).toBe('svc-input');
  });
});
