import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Store } from '@svc/core';
import { operatorAdmin } from '@svc/server';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

export const OWNER = { email: 'owner@shop.example', name: 'Ada', password: 'correct horse battery staple' };

/** An owner of `accountId`, as `svc operators create` makes one. */
export async function createOwner(store: Store, accountId: string): Promise<void> {
  await operatorAdmin(store).createOperator(accountId, { ...OWNER, role: 'owner' });
}

/**
 * axe-core over the whole console page. Evaluated through the DevTools protocol rather than added as a `<script>`:
 * the console's CSP refuses inline scripts, which is the point. The preview frame holds the widget, audited by the
 * widget's own tests; it is left out here.
 */
export async function auditConsole(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const violations: { id: string; help: string; nodes: { target: unknown; failureSummary?: string }[] }[] = await page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: never[] }> } }).axe;
    const result = await axe.run({ exclude: [['iframe']] }, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'], iframes: false });
    return result.violations;
  }, TAGS);
  return violations.map((v) => `${v.id}: ${v.help}\n${v.nodes.map((n) => `  at ${JSON.stringify(n.target)}: ${(n.failureSummary ?? '').replace(/\n/g, ' ')}`).join('\n')}`);
}

/** Messages the browser logs when the page's CSP refused something. */
export function cspViolations(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) seen.push(message.text());
  });
  return seen;
}

/** Whether the page scrolls sideways (nothing may, on a phone). */
export function overflowsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
}
