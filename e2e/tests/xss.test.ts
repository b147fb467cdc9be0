import { describe, expect, it } from 'vitest';
import { useE2E } from '../support/setup.js';
import { XSS_CONTENT_PAYLOADS, XSS_PRODUCTS } from '../support/xss-corpus.js';
import { openBubble, reply, sendMessage, widget } from '../support/widget.js';

const env = useE2E();

interface Findings {
  xss: unknown;
  dangerous: string[];
  handlers: string[];
  links: string[];
  images: string[];
  otherUrls: string[];
  lightDom: string[];
}

describe('hostile replies and products', () => {
  it(`render ${XSS_CONTENT_PAYLOADS.length} payloads and ${XSS_PRODUCTS.length - 1} hostile products inert`, async () => {
    expect(XSS_CONTENT_PAYLOADS.length).toBeGreaterThanOrEqual(30);
    const { page } = await env.visit(env.embed('/shop'));
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(`${dialog.type()}: ${dialog.message()}`);
      void dialog.dismiss();
    });
    const w = widget(page);
    await openBubble(page);
    // The visitor's own text is shown as typed, too.
    await sendMessage(page, `<img src=x onerror="window.__xss='typed'"> hello`);
    await reply(page, 1);
    await sendMessage(page, 'xss please');
    await reply(page, 2);
    await expect.poll(() => page.getByTestId('svc-product').count()).toBe(XSS_PRODUCTS.length);
    // Time for anything deferred (image errors, focus, timers) to fire; then hover everything, as a visitor's mouse would.
    await page.waitForTimeout(500);
    for (const element of await w.messages.locator('a, img, p, b, span').all()) await element.hover({ force: true, timeout: 2_000 }).catch(() => undefined);

    const findings: Findings = await page.evaluate(() => {
      const host = document.querySelector('svc-chat-widget')!;
      const root = host.shadowRoot!;
      const all = [...root.querySelectorAll('*')];
      const describe = (element: Element): string => element.outerHTML.slice(0, 160);
      const webUrl = /^https?:\/\//i;
      return {
        xss: (window as unknown as { __xss?: unknown }).__xss,
        dangerous: [...root.querySelectorAll('script, iframe, object, embed, frame, frameset, applet, base, meta, link')].map(describe),
        handlers: all.flatMap((element) => [...element.attributes].filter((a) => /^on/i.test(a.name)).map((a) => `${a.name} on ${describe(element)}`)),
        links: [...root.querySelectorAll('a')].flatMap((a) => {
          const href = a.getAttribute('href');
          return href !== null && /^(https?:\/\/|mailto:)/i.test(href) && ['http:', 'https:', 'mailto:'].includes(a.protocol) ? [] : [describe(a)];
        }),
        images: [...root.querySelectorAll('img')].flatMap((img) => {
          const src = img.getAttribute('src') ?? '';
          return webUrl.test(src) && webUrl.test(img.src) && !img.hasAttribute('srcset') ? [] : [describe(img)];
        }),
        // Any other attribute that could load or navigate.
        otherUrls: all.flatMap((element) =>
          ['action', 'formaction', 'xlink:href', 'srcdoc', 'data', 'poster', 'background']
            .filter((name) => element.hasAttribute(name))
            .map((name) => `${name} on ${describe(element)}`),
        ),
        // Nothing escaped into the page either.
        lightDom: [...document.querySelectorAll('body *')].filter((e) => e !== host && !(e instanceof HTMLScriptElement && e.src.endsWith('/widget.js'))).filter((e) => !['H1', 'P'].includes(e.tagName)).map(describe),
      };
    });
    const frames = await Promise.all(page.frames().map((frame) => frame.evaluate(() => (window as unknown as { __xss?: unknown }).__xss).catch(() => 'unreadable frame')));

    expect(findings).toEqual({ xss: undefined, dangerous: [], handlers: [], links: [], images: [], otherUrls: [], lightDom: [] });
    expect(frames).toEqual([undefined]);
    expect(dialogs).toEqual([]);

    // Not vacuous: the safe product still renders its link and image, and the payloads show as text.
    const safe = page.getByTestId('svc-product').last();
    // Its name and its call to action both link to its page, and nothing else does.
    expect(await safe.locator('a').evaluateAll((links) => links.map((link) => link.getAttribute('href')))).toEqual([
      'https://shop.example/products/safe',
      'https://shop.example/products/safe',
    ]);
    expect(await safe.locator('img').getAttribute('src')).toBe('http://127.0.0.1:9/safe.png');
    const text = await w.messages.textContent();
    expect(text).toContain('<script>window.__xss=1</script>');
    expect(text).toContain(`<img src=x onerror="window.__xss='typed'"> hello`);
    expect(text).toContain('markdown link');
  });
});
