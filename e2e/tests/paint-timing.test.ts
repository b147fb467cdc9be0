import { describe, expect, it } from 'vitest';
import { useE2E } from '../support/setup.js';

// Issue 12: the time from the page's first paint to the bubble's, median of 15 cold loads (a new visitor each).
const env = useE2E();
const LOADS = 15;

describe('the bubble appears soon after the page', () => {
  it(`paints the launcher within 1 s of the page's first paint (median of ${LOADS} loads)`, async () => {
    const url = env.embed('/timing');
    const deltas: number[] = [];
    for (let i = 0; i < LOADS; i++) {
      const { page, context } = await env.visit('about:blank');
      await context.addInitScript(() => {
        // The frame after the widget's host enters the page is the one that paints the launcher (drawn with it).
        const seen = new MutationObserver(() => {
          if (!document.querySelector('svc-chat-widget')) return;
          seen.disconnect();
          requestAnimationFrame(() => ((window as unknown as { bubbleAt: number }).bubbleAt = performance.now()));
        });
        seen.observe(document, { childList: true, subtree: true });
      });
      await page.goto(url);
      await page.waitForFunction(() => 'bubbleAt' in window && performance.getEntriesByName('first-paint').length > 0);
      const delta = await page.evaluate(() => (window as unknown as { bubbleAt: number }).bubbleAt - performance.getEntriesByName('first-paint')[0]!.startTime);
      // Below zero: the launcher was drawn before the page's first paint, so it is in that very paint.
      deltas.push(Math.max(0, delta));
      await context.close();
    }
    const sorted = [...deltas].sort((a, b) => a - b);
    const median = sorted[Math.floor(LOADS / 2)]!;
    console.log(`first paint → bubble paint over ${LOADS} cold loads: median ${median.toFixed(1)} ms, min ${sorted[0]!.toFixed(1)}, max ${sorted[LOADS - 1]!.toFixed(1)}`);
    expect(median).toBeLessThan(1000);
  }, 120_000);
});
