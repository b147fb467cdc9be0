import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { VIEWPORTS } from '../support/browser.js';
import { solidPng } from '../support/png.js';
import { LONG_REPLY_START, TENTS } from '../support/service.js';
import { useE2E } from '../support/setup.js';
import { openBubble, reply, sendMessage, widget } from '../support/widget.js';

// Issue 12, defects 5 (reading) and 6 (products), on a desktop and on a 390×844 touch phone.
const env = useE2E();

beforeAll(() => {
  for (const [i, tent] of TENTS.entries()) env.site.setFile(`/img/${tent.id}.png`, solidPng(40, 30, [40 * i, 120, 90]), 'image/png');
});

/** Evaluates inside the widget's shadow root. */
const inWidget = <T,>(page: Page, run: (root: ShadowRoot) => T): Promise<T> =>
  page.evaluate(`(${run.toString()})(document.querySelector('svc-chat-widget').shadowRoot)`) as Promise<T>;

describe.each(Object.entries(VIEWPORTS))('on a %s', (_name, viewport) => {
  it('a long reply is shown from its start, with its nested list; every bubble has dir="auto"; the panel has lang and dir', async () => {
    // A right-to-left page: English replies must keep their punctuation where it belongs.
    const { page } = await env.visit(env.embed('/read', { script: "document.documentElement.dir = 'rtl';" }), viewport);
    const w = widget(page);
    await openBubble(page);
    await sendMessage(page, 'long please');
    expect(await reply(page, 1)).toContain(LONG_REPLY_START);
    await page.waitForTimeout(200);
    const view = await inWidget(page, (root) => {
      const list = root.querySelector('[data-testid="svc-messages"]')!.getBoundingClientRect();
      const answer = [...root.querySelectorAll('[data-role="assistant"]')].pop()!;
      const top = answer.getBoundingClientRect().top;
      const end = [...answer.querySelectorAll('p')].pop()!.getBoundingClientRect();
      return { startVisible: top >= list.top - 1 && top <= list.top + 24, endVisible: end.top < list.bottom, direction: getComputedStyle(answer).direction };
    });
    expect(view).toEqual({ startVisible: true, endVisible: false, direction: 'ltr' });
    expect(await inWidget(page, (root) => root.querySelectorAll('[data-role="assistant"] ul > li > ul > li').length)).toBe(2);
    expect(await page.locator('[data-testid="svc-message"]:not([dir="auto"])').count()).toBe(0);
    expect(await w.panel.evaluate((panel) => [panel.getAttribute('lang'), panel.getAttribute('dir')])).toEqual(['en', 'ltr']);
  });

  it('the message box grows with a 4-line message, up to its limit, and shrinks back once sent', async () => {
    const { page } = await env.visit(env.embed('/grow'), viewport);
    const w = widget(page);
    await openBubble(page);
    const height = async (): Promise<number> => (await w.input.boundingBox())!.height;
    const single = await height();
    await w.input.pressSequentially('one');
    for (const line of ['two', 'three', 'four']) {
      await w.input.press('Shift+Enter');
      await w.input.pressSequentially(line);
    }
    const four = await height();
    expect(four).toBeGreaterThan(single * 2);
    await w.input.fill(Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n'));
    await w.input.dispatchEvent('input');
    expect(await height()).toBeLessThanOrEqual(121);
    await w.input.press('Enter');
    await expect.poll(height).toBe(single);
  });

  it('products show once, as cards: image, price, call to action, equal heights, and a row that visibly scrolls', async () => {
    const { page } = await env.visit(env.embed('/tents'), viewport);
    await openBubble(page);
    await sendMessage(page, 'tents please');
    const text = await reply(page, 1);
    expect(text).toBe('Here is what I found in our catalogue:');
    const cards = page.getByTestId('svc-product');
    await expect.poll(() => cards.count()).toBe(3);
    await expect.poll(() => cards.locator('img').evaluateAll((images) => images.every((image) => (image as HTMLImageElement).naturalWidth > 0))).toBe(true);
    expect(await page.getByTestId('svc-product-price').allInnerTexts()).toEqual(['$249.00', '$329.00', '$489.00']);
    expect(await page.getByTestId('svc-product-cta').evaluateAll((links) => links.map((link) => link.getAttribute('href')))).toEqual(TENTS.map((tent) => tent.url));
    const boxes = await cards.evaluateAll((elements) => elements.map((element) => element.getBoundingClientRect().toJSON() as DOMRect));
    expect(new Set(boxes.map((box) => Math.round(box.height))).size).toBe(1);
    const row = await page.locator('[part~="products"]').evaluate((element) => ({ ...element.getBoundingClientRect().toJSON(), scrollWidth: element.scrollWidth, clientWidth: element.clientWidth }) as DOMRect & { scrollWidth: number; clientWidth: number });
    expect(row.scrollWidth).toBeGreaterThan(row.clientWidth);
    // The second card shows its edge inside the row: the visitor can see there is more.
    expect(boxes[1]!.left).toBeLessThan(row.right - 20);
    expect(boxes[1]!.right).toBeGreaterThan(row.right);
  });
});
