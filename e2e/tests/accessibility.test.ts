import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { setWidgetTheme } from '@svc/server';
import { afterEach, describe, expect, it } from 'vitest';
import { VIEWPORTS } from '../support/browser.js';
import { useE2E } from '../support/setup.js';
import { openBubble, reply, sendMessage, widget } from '../support/widget.js';

const env = useE2E();

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
/** WCAG 2.2 A and AA, and axe's best practices. */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown; failureSummary: string }[];
}

/** Runs axe-core on the widget (its shadow tree included) and returns the violations, readable. */
async function audit(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: AXE_SOURCE });
  const violations: Violation[] = await page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: Violation[] }> } }).axe;
    const result = await axe.run({ include: [['svc-chat-widget']] }, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return result.violations.map(({ id, impact, help, nodes }) => ({
      id,
      impact: impact ?? null,
      help,
      nodes: nodes.map(({ target, failureSummary }) => ({ target, failureSummary: failureSummary ?? '' })),
    }));
  }, TAGS);
  return violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `  at ${JSON.stringify(n.target)}: ${n.failureSummary.replace(/\n/g, ' ')}`).join('\n')}`,
  );
}

const CASES = [
  { name: 'light, desktop', darkMode: 'light', viewport: VIEWPORTS.desktop },
  { name: 'dark, desktop', darkMode: 'dark', viewport: VIEWPORTS.desktop },
  { name: 'dark, phone', darkMode: 'dark', viewport: VIEWPORTS.phone },
] as const;

describe.each(CASES)('accessibility (axe-core, shadow DOM included): $name', ({ darkMode, viewport }) => {
  afterEach(() => setWidgetTheme(env.service.store, env.service.widget.id, {}));

  it('has no violations closed, open with replies, products and a form with a problem, and once ended', async () => {
    await setWidgetTheme(env.service.store, env.service.widget.id, { darkMode });
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
