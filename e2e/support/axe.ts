import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

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
export async function audit(page: Page): Promise<string[]> {
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
