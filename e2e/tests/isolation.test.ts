import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { HOSTILE_CSS } from '../support/pages.js';
import { pixelDiff } from '../support/png.js';
import { useE2E } from '../support/setup.js';
import { openBubble, widget } from '../support/widget.js';

const env = useE2E();

// Tall enough that the hostile page's giant heading stays clear of the panel's corners in its screenshot.
const VIEWPORT = { width: 1280, height: 1000 };

/** Shadow elements a visitor sees, by selector inside `<svc-chat-widget>`'s shadow root. */
const ELEMENTS = [
  '[data-testid="svc-launcher"]',
  '[data-testid="svc-panel"]',
  'header h2',
  '[data-testid="svc-close"]',
  '[data-testid="svc-messages"]',
  '.message',
  '[data-testid="svc-input"]',
  '[data-testid="svc-send"]',
] as const;

const PROPERTIES = [
  'display', 'position', 'box-sizing', 'width', 'height', 'right', 'bottom', 'margin-top', 'padding-top', 'padding-left',
  'border-top-width', 'border-top-style', 'border-top-color', 'border-top-left-radius', 'background-color', 'color',
  'font-family', 'font-size', 'font-weight', 'font-style', 'line-height', 'letter-spacing', 'word-spacing',
  'text-transform', 'text-align', 'text-indent', 'text-shadow', 'white-space', 'opacity', 'transform', 'visibility',
  'cursor', 'fill',
];

interface Look {
  styles: Record<string, Record<string, string>>;
  launcher: Buffer;
  panel: Buffer;
}

/** The widget as it renders on `page`: computed styles of its parts, and pictures of the launcher and open panel. */
async function look(page: Page): Promise<Look> {
  const w = widget(page);
  await w.launcher.waitFor();
  const launcher = await w.launcher.screenshot({ animations: 'disabled', caret: 'hide' });
  await openBubble(page);
  await expect.poll(() => w.messages.textContent()).toContain('Ask me about shipping');
  const styles = await page.evaluate(
    ([selectors, properties]) => {
      const root = document.querySelector('svc-chat-widget')!.shadowRoot!;
      return Object.fromEntries(
        selectors.map((selector) => {
          const element = root.querySelector(selector);
          if (!element) return [selector, { missing: 'yes' }];
          const style = getComputedStyle(element);
          return [selector, Object.fromEntries(properties.map((name) => [name, style.getPropertyValue(name)]))];
        }),
      );
    },
    [ELEMENTS, PROPERTIES] as const,
  );
  const panel = await w.panel.screenshot({ animations: 'disabled', caret: 'hide' });
  return { styles, launcher, panel };
}

/** Keeps both pictures of a failed comparison for a person to look at. */
function keep(name: string, plain: Buffer, hostile: Buffer): string {
  const base = join(tmpdir(), `svc-e2e-${name}`);
  writeFileSync(`${base}-plain.png`, plain);
  writeFileSync(`${base}-hostile.png`, hostile);
  return `${base}-{plain,hostile}.png`;
}

describe('the widget embedded by one script tag', () => {
  it('looks the same on a page whose CSS attacks everything it can reach', async () => {
    const plain = await look((await env.visit(env.embed('/plain'), VIEWPORT)).page);
    const hostilePage = (await env.visit(env.embed('/hostile', { css: HOSTILE_CSS }), VIEWPORT)).page;
    // The page's stylesheet did apply to the page itself.
    expect(await hostilePage.evaluate(() => getComputedStyle(document.querySelector('h1')!).textTransform)).toBe('uppercase');
    const hostile = await look(hostilePage);

    // Spec 4.9 defaults: a 56 px round launcher in #6366f1, bottom right; a 14 px panel font.
    const launcher = plain.styles['[data-testid="svc-launcher"]']!;
    expect(launcher).toMatchObject({ width: '56px', height: '56px', position: 'fixed', right: '20px', bottom: '20px' });
    expect(launcher['background-color']).toBe('rgb(99, 102, 241)');
    expect(launcher['border-top-left-radius']).toBe('50%');
    expect(plain.styles['[data-testid="svc-panel"]']).toMatchObject({ 'font-family': 'system-ui, sans-serif', 'font-size': '14px' });
    expect(plain.styles['[data-testid="svc-input"]']).toMatchObject({ 'font-size': '14px', 'border-top-width': '1px' });

    // Soft: a failure reports the styles and the pictures together.
    expect.soft(hostile.styles, 'computed styles on the hostile page').toEqual(plain.styles);
    const launcherDiff = pixelDiff(plain.launcher, hostile.launcher);
    const panelDiff = pixelDiff(plain.panel, hostile.panel);
    const where = launcherDiff.differing + panelDiff.differing > 0 ? keep('isolation', plain.panel, hostile.panel) : '';
    expect.soft(launcherDiff.differing, `launcher pixels that differ (${where})`).toBe(0);
    expect.soft(panelDiff.differing, `open panel pixels that differ of ${panelDiff.width}x${panelDiff.height} (${where})`).toBe(0);
  });
});
